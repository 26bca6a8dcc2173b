package external

// This file defines [Driver.Run]: format, lint and lint with fixes, each as
// one or more runs of the command over a view of the workspace.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// maxParallel bounds the runs of one request that run at once.
var maxParallel = min(runtime.NumCPU(), 8)

// Run formats or lints req.Files. The diagnostics describe req.All, the
// workspace content; formatted or fixed contents are in Result.Edits.
func (d *Driver) Run(ctx context.Context, req *capabilities.Request) *capabilities.Result {
	if !d.calls.Begin() {
		return capabilities.ClosedResult(d.name)
	}
	defer d.calls.End()
	root := req.Root
	if root == "" {
		root = d.env.Root
	}
	var files []string
	for _, p := range req.Files {
		if req.All[p] != nil {
			files = append(files, p)
		}
	}
	switch {
	case req.Kind == engine.Format && d.cfg.Output == "":
		return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("%s is not a formatter (it has no output setting)", d.name)}
	case req.Kind == engine.Format && req.Ranges != nil && d.FormatsRanges():
		return d.formatRanges(ctx, root, req, files)
	case req.Kind == engine.Format:
		return d.format(ctx, root, req.All, files)
	case d.cfg.Output != "":
		return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("%s is a formatter; it cannot %s", d.name, req.Kind)}
	case req.Fix && d.canFix():
		return d.fix(ctx, root, req, files)
	default:
		return d.lint(ctx, root, req.All, files, req.Changed, req.Deleted)
	}
}

// lint runs the command and parses its findings.
func (d *Driver) lint(ctx context.Context, root string, all map[string]*text.Doc, files, changed, deleted []string) *capabilities.Result {
	res := newAnswer()
	if len(files) == 0 {
		return res.result()
	}
	v, err := d.view(root, all, changed, deleted, false)
	if err != nil {
		return crashed(err)
	}
	defer v.close()
	want := map[string]bool{}
	for _, p := range files {
		want[p] = true
	}
	for _, r := range d.runAll(ctx, d.cfg.Command, d.perFile, d.input == InputStdin, root, v, all, files) {
		if st, msg := d.failure(r.out, r.what); st != "" {
			res.fail(st, msg)
			continue
		}
		out := &r.out.stdout
		if d.cfg.Stream == "stderr" {
			out = &r.out.stderr
		}
		fs := d.parse(out.buf.Bytes())
		if d.isFindings(r.out.code) && len(fs) == 0 {
			res.fail(engine.StatusCrashed, fmt.Sprintf("%s exited with code %d (findings), but no finding could be parsed from its output, so the answer is not clean%s", r.what, r.out.code, stderrTail(r.out)))
			continue
		}
		if out.dropped > 0 {
			res.fail(engine.StatusCrashed, fmt.Sprintf("%s printed more than %d bytes; the findings past that are missing", r.what, MaxOutput))
		}
		res.Diagnostics = append(res.Diagnostics, d.diagnostics(fs, r.site, all, want)...)
	}
	if len(v.unlooked) > 0 {
		res.Coverage = append(res.Coverage, unlooked(d.name, v.unlooked))
	}
	res.Projects = v.projects
	return res.result()
}

// format runs the formatter and collects the changed contents. A findings
// exit code (a syntax error, usually) gives diagnostics and no edit.
func (d *Driver) format(ctx context.Context, root string, all map[string]*text.Doc, files []string) *capabilities.Result {
	res := newAnswer()
	if len(files) == 0 {
		return res.result()
	}
	v, err := d.view(root, all, nil, nil, d.cfg.Output == "file")
	if err != nil {
		return crashed(err)
	}
	defer v.close()
	var done []string // files formatted in place, to read back
	for _, r := range d.runAll(ctx, d.cfg.Command, d.perFile, d.input == InputStdin, root, v, all, files) {
		if st, msg := d.failure(r.out, r.what); st != "" {
			res.fail(st, msg)
			continue
		}
		if d.isFindings(r.out.code) {
			// The file cannot be formatted: its errors are the answer.
			out := &r.out.stderr
			if d.cfg.Stream == "stdout" {
				out = &r.out.stdout
			}
			want := map[string]bool{}
			for _, p := range r.files {
				want[p] = true
			}
			ds := d.diagnostics(d.parse(out.buf.Bytes()), r.site, all, want)
			if len(ds) == 0 {
				res.fail(engine.StatusCrashed, fmt.Sprintf("%s exited with code %d and no error could be parsed from its output%s", r.what, r.out.code, stderrTail(r.out)))
			}
			res.Diagnostics = append(res.Diagnostics, ds...)
			continue
		}
		if d.cfg.Output == "file" {
			done = append(done, r.files...)
			continue
		}
		p := r.files[0]
		doc, err := formatted(r.out, all[p])
		if err != nil {
			res.fail(engine.StatusCrashed, fmt.Sprintf("%s: %v", r.what, err))
			continue
		}
		if !doc.Equal(all[p]) {
			res.Edits[p] = doc
		}
	}
	if len(done) > 0 {
		edits, err := readBack(v.tree, done, all)
		if err != nil {
			res.fail(engine.StatusCrashed, fmt.Sprintf("%s: %v", d.name, err))
		}
		for p, doc := range edits {
			res.Edits[p] = doc
		}
	}
	res.Projects = v.projects
	return res.result()
}

// formatted is a formatter's standard output as the file's new content.
func formatted(o *outcome, old *text.Doc) (*text.Doc, error) {
	if o.stdout.dropped > 0 {
		return nil, fmt.Errorf("the formatted output is larger than %d bytes", MaxOutput)
	}
	out := o.stdout.buf.Bytes()
	if len(out) == 0 && old.Size() > 0 && strings.TrimSpace(old.String()) != "" {
		return nil, fmt.Errorf("printed nothing for a non-empty file; the file is left as it is%s", stderrTail(o))
	}
	doc, err := text.Parse(out)
	if err != nil {
		return nil, fmt.Errorf("the formatted output is not text: %w", err)
	}
	return doc, nil
}

// fix runs the fix command on a staged copy, reads the fixed files back as
// edits, then lints the fixed content for what remains.
func (d *Driver) fix(ctx context.Context, root string, req *capabilities.Request, files []string) *capabilities.Result {
	res := newAnswer()
	if len(files) == 0 {
		return res.result()
	}
	v, err := d.stage(req.All, true)
	if err != nil {
		return crashed(err)
	}
	defer v.close()
	perFile := hasFileArgs(d.cfg.FixCommand)
	var done []string
	for _, r := range d.runAll(ctx, d.cfg.FixCommand, perFile, false, root, v, req.All, files) {
		if st, msg := d.failure(r.out, r.what+" (fix)"); st != "" {
			res.fail(st, msg)
			continue
		}
		done = append(done, r.files...)
	}
	if res.Status != engine.StatusOK {
		return res.result() // a fix that did not finish is not applied
	}
	edits, err := readBack(v.tree, done, req.All)
	if err != nil {
		return crashed(err)
	}
	all, changed := req.All, req.Changed
	if len(edits) > 0 {
		all = make(map[string]*text.Doc, len(req.All))
		for p, doc := range req.All {
			all[p] = doc
		}
		changed = slices.Clone(req.Changed)
		for p, doc := range edits {
			all[p] = doc
			if !slices.Contains(changed, p) {
				changed = append(changed, p)
			}
		}
		slices.Sort(changed)
	}
	rest := d.lint(ctx, root, all, files, changed, req.Deleted)
	if len(edits) > 0 {
		rest.Edits = edits
	}
	return rest
}

// view prepares how the command sees the workspace; private asks for a
// staged tree of its own, which the command may rewrite. A command that
// runs in the root itself (stdin, overlay) must have its working
// directory there: see [Driver.confineDir].
func (d *Driver) view(root string, all map[string]*text.Doc, changed, deleted []string, private bool) (*view, error) {
	if d.input == InputStaged {
		return d.stage(all, private)
	}
	if err := d.confineDir(root); err != nil {
		return nil, err
	}
	v := &view{tree: root}
	if d.input == InputOverlay {
		var err error
		if v, err = overlay(root, all, changed, deleted); err != nil {
			return nil, err
		}
	}
	v.has = onDisk(root, all, deleted)
	return v, nil
}

// onDisk reports whether a workspace path names a file of a command that
// runs in the root: one of the workspace or, unless the workspace deleted
// it, one on disk.
func onDisk(root string, all map[string]*text.Doc, deleted []string) func(p string) bool {
	fsys, err := rootfs.New(root)
	return func(p string) bool {
		if all[p] != nil {
			return true
		}
		if err != nil || slices.Contains(deleted, p) {
			return false
		}
		st, serr := fsys.Stat(p)
		return serr == nil && st.Mode().IsRegular()
	}
}

// missingDir says why the directory dir (a workspace path) is not one on
// disk inside root that a command can run in, or "" when it is.
func missingDir(root, dir string) string {
	fsys, err := rootfs.New(root)
	if err != nil {
		return err.Error()
	}
	st, err := fsys.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Sprintf("the directory %s is not on disk, and the command runs in it: when the workspace adds it, write its files, then ask again", dir)
	case err != nil:
		return fmt.Sprintf("the directory %s cannot be run in: %v", dir, err)
	case !st.IsDir():
		return fmt.Sprintf("%s is not a directory on disk, and the command runs in it", dir)
	}
	return ""
}

// confineDir refuses a working directory (the config key dir) that
// resolves outside the root, through a symlink that leaves it: the
// command would run, and read, outside. The configuration is checked when
// it is loaded; the disk only now.
func (d *Driver) confineDir(root string) error {
	if d.cfg.Dir == "" {
		return nil
	}
	fsys, err := rootfs.New(root)
	if err != nil {
		return fmt.Errorf("%s: the root: %w", d.name, err)
	}
	if !fsys.Leaves(d.cfg.Dir) {
		return nil
	}
	where := "outside the root"
	if real, err := filepath.EvalSymlinks(filepath.Join(fsys.Root(), filepath.FromSlash(d.cfg.Dir))); err == nil {
		where = fmt.Sprintf("%s, outside the root", real)
	}
	return fmt.Errorf(`%s: the config key "dir" (%q) leads through a symlink to %s %s; nothing was run: set dir to a directory inside the root`, d.name, d.cfg.Dir, where, fsys.Root())
}

// ran is one run and what it was about.
type ran struct {
	what    string   // for messages: "shellcheck on a.sh"
	files   []string // the workspace files it was about
	project string   // the directory of their project, a workspace path
	dir     string   // the working directory, a workspace path
	site    *site
	out     *outcome
}

// runAll runs argv once per file (perFile) or once for all files, at most
// maxParallel at a time, and returns the runs in file order. With
// withStdin, each file's workspace content is its run's standard input.
func (d *Driver) runAll(ctx context.Context, argv []string, perFile, withStdin bool, root string, v *view, all map[string]*text.Doc, files []string) []*ran {
	// One run per file, or per project (the root's alone without
	// project_markers), each in its project's directory.
	var runs []*ran
	pkgs := map[string]*goPackages{} // by project
	for _, pf := range d.projectsOf(v.has, files) {
		dir := path.Join(pf.dir, d.cfg.Dir)
		if perFile {
			for _, p := range pf.files {
				runs = append(runs, &ran{what: d.name + " on " + p, files: []string{p}, project: pf.dir, dir: dir})
			}
		} else {
			what := d.name
			if pf.dir != "." {
				what += " in " + pf.dir
			}
			runs = append(runs, &ran{what: what, files: pf.files, project: pf.dir, dir: dir})
		}
		if slices.Contains(argv, packagesArg) {
			pkgs[pf.dir] = d.packagesFor(root, v, argv, dir, func(p string) []byte { return all[p].Bytes() })
		}
	}
	sem := make(chan struct{}, maxParallel)
	var wg sync.WaitGroup
	for _, r := range runs {
		file := ""
		if perFile {
			file = r.files[0]
		}
		if r.project != "." && v.tree == root {
			// The command runs on disk, in its project's directory: a
			// project the workspace adds has none yet.
			if why := missingDir(root, r.dir); why != "" {
				r.out = &outcome{code: -1, unrun: why}
				continue
			}
		}
		dir := filepath.Join(v.tree, filepath.FromSlash(r.dir))
		r.site = &site{root: root, dir: dir, view: v, file: file}
		var patterns []string
		if g := pkgs[r.project]; g != nil {
			var left []string
			if patterns, left = g.patternsLeft(r.files); len(patterns) == 0 {
				// No package: ./... would not look at these files either,
				// and the command does not run; the answer says so. (Files
				// left out beside others that run, such as other
				// platforms' files in a directory, go unmentioned, as with
				// ./... .)
				v.unlooked = append(v.unlooked, left...)
				continue
			}
			if len(d.cfg.ProjectMarkers) > 0 {
				v.ranIn(r.project, r.dir, slices.DeleteFunc(slices.Clone(r.files), func(p string) bool { return slices.Contains(left, p) }))
			}
		} else if len(d.cfg.ProjectMarkers) > 0 {
			v.ranIn(r.project, r.dir, r.files)
		}
		inv := invocation{argv: expand(argv, v, file, patterns), dir: dir, env: expand(d.cfg.Env, v, file, nil)}
		if withStdin {
			inv.stdin = all[file].Bytes()
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			var rep *reporter
			if !perFile {
				rep = newReporter(ctx, d.name, inv.argv)
			}
			r.out = run(ctx, inv, limits{idle: d.timeout, total: RunCeiling * d.timeout}, rep)
		}()
	}
	wg.Wait()
	return slices.DeleteFunc(runs, func(r *ran) bool { return r.out == nil })
}

// expand fills in the placeholders of args; the argument {packages}
// becomes the patterns.
func expand(args []string, v *view, file string, patterns []string) []string {
	pairs := []string{"{root}", v.tree, "{overlay}", v.overlay}
	if file != "" {
		pairs = append(pairs, "{file}", filepath.Join(v.tree, filepath.FromSlash(file)), "{path}", file)
	}
	r := strings.NewReplacer(pairs...)
	out := make([]string, 0, len(args)+len(patterns))
	for _, a := range args {
		if a == packagesArg {
			out = append(out, patterns...)
			continue
		}
		out = append(out, r.Replace(a))
	}
	return out
}

// hasFileArgs reports whether argv names a single file.
func hasFileArgs(argv []string) bool {
	return slices.ContainsFunc(argv, func(a string) bool {
		return strings.Contains(a, "{file}") || strings.Contains(a, "{path}")
	})
}

// maxMessages bounds the failure messages one answer quotes.
const maxMessages = 3
