package staticcheck

// This file decides where a run lints: in the module on disk itself when
// it already holds the workspace content of every file a package load
// reads ([stage.inPlace]), else in the synchronized stage. Copying the
// module (and, on the command line, removing it again) is most of a
// run's cost when nothing changed; in place, nothing is copied.
//
// In place needs what the stage would have made true: no file a load
// reads differs from the disk (changed or deleted in the workspace, or
// only in it), no symlink under the module leaves the root (the stage
// leaves those out; in place go would follow them), no node_modules
// directory (the stage leaves it out), and a module outside the user
// cache directory (as for the stage). The go command runs with
// -mod=readonly where GOFLAGS asks for -mod=mod, so it never updates the
// user's go.mod or go.sum; a load that then fails for a reason of modules
// is run again in the stage, where -mod=mod may update the staged copies.
//
// Invariant: in place and staged runs give the same findings
// (TestUnstagedParity); a change to a file a load reads, a deletion, a
// file only in the workspace or a symlink leaving the root makes the run
// staged (TestUnstagedOnlyWhenTheDiskHoldsTheWorkspace); in place, go.mod
// stays as it is (TestUnstagedLeavesGoModAlone).

import (
	"bufio"
	"context"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"honnef.co/go/tools/lintcmd/cache"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// lintWorkspace lints patterns over the workspace content of req, in
// place when it can, else in the synchronized stage, and converts the
// findings; a non-nil Result is a failure.
func (d *Driver) lintWorkspace(ctx context.Context, c cache.Cache, st *stage, req *capabilities.Request, patterns []string, files map[string]bool, m *meter) ([]engine.Diagnostic, *capabilities.Result) {
	env := append(os.Environ(), d.env...)
	if !st.work {
		env = append(env, "GOWORK=off")
	}
	if v := st.inPlace(req.All, req.Changed, req.Deleted); v != nil {
		renv, readonly := readonlyMod(env)
		fs, err := lintPackages(ctx, c, v.tree, renv, patterns, m)
		if ctx.Err() != nil {
			return nil, &capabilities.Result{Status: engine.StatusTimeout, Message: ctx.Err().Error()}
		}
		if err == nil && !(readonly && slices.ContainsFunc(fs, moduleFailure)) {
			return convert(v, req, fs, files), nil
		}
		// Staged, the go command may do what it was asked to.
	}
	unlock, err := st.lock()
	if err != nil {
		return nil, &capabilities.Result{Status: engine.StatusCrashed, Message: err.Error()}
	}
	defer unlock()
	if _, err := st.sync(req.All, req.Deleted); err != nil {
		return nil, &capabilities.Result{Status: engine.StatusCrashed, Message: "staging the module: " + err.Error()}
	}
	fs, err := lintPackages(ctx, c, st.tree, env, patterns, m)
	if err != nil {
		if ctx.Err() != nil {
			return nil, &capabilities.Result{Status: engine.StatusTimeout, Message: err.Error()}
		}
		return nil, &capabilities.Result{Status: engine.StatusCrashed, Message: err.Error()}
	}
	return convert(st, req, fs, files), nil
}

func convert(st *stage, req *capabilities.Request, fs []finding, files map[string]bool) []engine.Diagnostic {
	conv := newConverter(st, req.Root, req.All)
	var out []engine.Diagnostic
	for _, f := range fs {
		if dg, ok := conv.diagnostic(f, files); ok {
			out = append(out, dg)
		}
	}
	return out
}

// moduleFailure reports whether f is a package that did not load for a
// reason of modules (go.mod or go.sum out of date, a module not
// required), which -mod=mod might have resolved.
func moduleFailure(f finding) bool {
	if f.Category != catCompile && f.Category != catConfig {
		return false
	}
	return strings.Contains(f.Message, "go.mod") || strings.Contains(f.Message, "go.sum") || strings.Contains(f.Message, "module")
}

// inPlace returns a view of s whose tree is the module on disk, or nil
// when the run needs the stage (see the file's comment).
func (s *stage) inPlace(all map[string]*text.Doc, changed, deleted []string) *stage {
	if len(deleted) > 0 || underUserCache(s.base) || slices.ContainsFunc(changed, buildInput) {
		return nil
	}
	disk, ok := s.diskFiles()
	if !ok {
		return nil
	}
	for p, doc := range all {
		if dir := path.Dir(p); dir != "." && slices.ContainsFunc(strings.Split(dir, "/"), skipDir) {
			continue // neither staged nor loaded
		}
		size, ok := disk[path.Join(s.rootRel, p)]
		if !ok || buildInput(p) && size != int64(doc.Size()) {
			return nil
		}
	}
	v := *s
	v.tree = s.base
	return &v
}

var errNeedsStage = errors.New("the module needs the stage")

// diskFiles walks base as the stage's sync does and returns its files
// (base-relative, slash-separated) with the sizes of those a load reads
// (-1 for the others). ok is false when the walk finds what the stage
// leaves out and go would read in place: a symlink that leaves (see
// [stage.linkLeaves]) or a node_modules directory.
func (s *stage) diskFiles() (files map[string]int64, ok bool) {
	leaves := s.linkLeaves()
	files = map[string]int64{}
	err := filepath.WalkDir(s.base, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == s.base {
			if p == s.base {
				return err
			}
			return nil // unreadable: go cannot read it either
		}
		if d.IsDir() {
			switch {
			case d.Name() == "node_modules":
				return errNeedsStage
			case skipDir(d.Name()):
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 && leaves(p) {
			return errNeedsStage
		}
		rel, _ := filepath.Rel(s.base, p)
		rel = filepath.ToSlash(rel)
		files[rel] = -1
		if buildInput(rel) {
			info, err := os.Stat(p) // a symlink here stays inside the root
			if err != nil {
				return errNeedsStage
			}
			files[rel] = info.Size()
		}
		return nil
	})
	return files, err == nil
}

// buildInput reports whether a package load may read the file at slash
// path p: Go and other sources the go command compiles, the module and
// workspace files, vendor/modules.txt and staticcheck.conf.
func buildInput(p string) bool {
	switch path.Base(p) {
	case "go.mod", "go.sum", "go.work", "go.work.sum", "modules.txt", "staticcheck.conf":
		return true
	}
	switch path.Ext(p) {
	case ".go", ".c", ".h", ".s", ".S", ".sx", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx",
		".m", ".f", ".F", ".for", ".f90", ".swig", ".swigcxx", ".syso":
		return true
	}
	return false
}

// underUserCache reports whether dir is inside the user cache directory,
// where staticcheck looks for no staticcheck.conf (the stage is never
// there).
func underUserCache(dir string) bool {
	ucd, err := os.UserCacheDir()
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(ucd, dir)
	return err == nil && filepath.IsLocal(rel)
}

// readonlyMod returns env with -mod=mod in GOFLAGS (the environment's, or
// else the go env file's) replaced by -mod=readonly, and whether it
// replaced it.
func readonlyMod(env []string) ([]string, bool) {
	flags, set := lookupEnv(env, "GOFLAGS")
	if !set {
		flags = goEnvFile(env, "GOFLAGS")
	}
	fields := strings.Fields(flags)
	replaced := false
	for i, f := range fields {
		if f == "-mod=mod" || f == "--mod=mod" {
			fields[i], replaced = "-mod=readonly", true
		}
	}
	if !replaced {
		return env, false
	}
	return append(slices.Clip(env), "GOFLAGS="+strings.Join(fields, " ")), true
}

// lookupEnv is the last value of key in env.
func lookupEnv(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v, true
		}
	}
	return "", false
}

// goEnvFile is key's value in the go command's configuration file (GOENV,
// written by go env -w), or "".
func goEnvFile(env []string, key string) string {
	name, _ := lookupEnv(env, "GOENV")
	if name == "off" {
		return ""
	}
	if name == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return ""
		}
		name = filepath.Join(dir, "go", "env")
	}
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	val := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), key+"="); ok {
			val = v
		}
	}
	return val
}
