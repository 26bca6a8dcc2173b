package engine

// This file runs the workspace and capability steps over the workspace
// (see step.go for the registry that names them, lang.go and
// langchange.go for the language steps).

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/gitignore"
	"github.com/devbroker/devbroker/engine/patch"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/search"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/engine/workspace"
)

// runStep runs one validated step of a plan whose paths sc describes.
func (e *Engine) runStep(ctx context.Context, i int, op *Op, sc scope, r *Result) error {
	switch a := op.Args.(type) {
	case *ReadLinesArgs:
		end := 0
		if a.End != nil {
			end = *a.End
		}
		out, err := e.ws.ReadLines(a.Path, *a.Start, end)
		if err != nil {
			return err
		}
		key := op.Label
		if key == "" {
			key = a.Path
		}
		r.Reads[key] = out
	case *EditArgs:
		return e.edit(a)
	case *ApplyPatchArgs:
		return e.applyPatch(a)
	case *WriteArgs:
		return e.write(ctx, a.Paths, workspace.WriteOptions{Force: a.Force, Merge: a.Merge == nil || *a.Merge}, r)
	case *FormatArgs:
		return e.capability(ctx, Format, a.Paths, sc, capOpts{only: a.Only}, r)
	case *LintArgs:
		return e.capability(ctx, Lint, a.Paths, sc, capOpts{fix: a.Fix}, r)
	case *CheckArgs:
		return e.capability(ctx, Check, nil, sc, capOpts{}, r)
	case *TestArgs:
		return e.capability(ctx, Test, a.Paths, sc, capOpts{}, r)
	case *SearchArgs:
		return e.search(ctx, i, a, r)
	case *DefinitionArgs:
		return e.point(ctx, i, StepDefinition, &a.At, Query{}, r)
	case *ReferencesArgs:
		return e.point(ctx, i, StepReferences, &a.At, Query{IncludeDeclaration: a.IncludeDeclaration}, r)
	case *HoverArgs:
		return e.point(ctx, i, StepHover, &a.At, Query{}, r)
	case *SymbolsArgs:
		return e.symbols(ctx, i, a, r)
	case *RenameArgs:
		return e.rename(ctx, i, a, r)
	case *CodeActionsArgs:
		return e.codeActions(ctx, i, a, r)
	default:
		return fault.New(fault.Internal, "step %q was not validated", op.Step)
	}
	return nil
}

// write writes the workspace (or the files selectors match) holding the
// write lock, then verifies that the disk still holds what it wrote: a
// file an outside process changed since is reported in ChangedAfterWrite.
// A file whose change on disk it merged (opt.Merge) is in Merged.
func (e *Engine) write(ctx context.Context, selectors []string, opt workspace.WriteOptions, r *Result) error {
	e.wlock.Lock()
	defer e.wlock.Unlock()
	// What each file holds on disk before the session's write (a change
	// made there by someone else, which the write may merge, included)
	// is its baseline from now on, unless an earlier change of the
	// session's recorded what it held first (baseline.go).
	before := map[string]Base{}
	for _, p := range e.ws.Unwritten() {
		b := Base{}
		if d, ok := e.diskDoc(p); ok {
			b = Base{Content: d.Bytes(), Exists: true}
		}
		if o, ok := e.ws.Origin(p); ok && o != "" && o != p {
			b.From = o
		}
		before[p] = b
	}
	defer func() {
		still := map[string]bool{}
		for _, p := range e.ws.Unwritten() {
			still[p] = true
		}
		for p, b := range before {
			if !still[p] {
				e.sessionBases.record(p, b)
			}
		}
	}()
	written, merged, err := e.ws.WriteMerging(ctx, selectors, opt)
	r.Written = append(r.Written, written...)
	r.Merged = append(r.Merged, merged...)
	for _, p := range e.ws.ChangedOnDisk(written) {
		if !slices.Contains(r.ChangedAfterWrite, p) {
			r.ChangedAfterWrite = append(r.ChangedAfterWrite, p)
		}
	}
	return err
}

// edit lowers each {find, replace} to a hunk for the shared matcher.
func (e *Engine) edit(a *EditArgs) error {
	path, err := rootfs.Clean(a.Path)
	if err != nil {
		return fault.Wrap(fault.BadArgument, err, "edit")
	}
	doc, ok := e.ws.Doc(path)
	if !ok {
		return e.wsMissing(path)
	}
	hunks := make([]patch.Hunk, len(a.Edits))
	for i, fr := range a.Edits {
		hunks[i] = patch.FromFindReplace(*fr.Find, *fr.Replace)
	}
	out, err := patch.Apply(doc, hunks)
	if err != nil {
		return matchFault(err, path, "edit")
	}
	if out.Equal(doc) {
		return fault.New(fault.BadArgument, "edit %s: the edits change nothing (each replace equals its find); give the new text in replace", path)
	}
	return e.ws.Set(path, out)
}

// applyPatch applies a "*** Begin Patch" envelope all or nothing.
func (e *Engine) applyPatch(a *ApplyPatchArgs) error {
	ops, err := a.envelope()
	if err != nil {
		return fault.Wrap(fault.BadArgument, err, "apply_patch")
	}
	t := e.ws.Begin()
	for _, op := range ops {
		path, err := rootfs.Clean(op.Path)
		if err != nil {
			return fault.Wrap(fault.BadArgument, err, "apply_patch")
		}
		switch op.Kind {
		case patch.Add:
			lines := append([]text.Line(nil), op.Lines...)
			if n := len(lines); n > 0 && lines[n-1].EOL == "" {
				lines[n-1].EOL = text.LF // added files end with a newline
			}
			if err := t.Add(path, text.New(false, lines, text.LF)); err != nil {
				return err
			}
		case patch.Delete:
			if _, ok := t.Doc(path); !ok {
				return e.wsMissing(path)
			}
			if err := t.Delete(path); err != nil {
				return err
			}
		case patch.Update:
			doc, ok := t.Doc(path)
			if !ok {
				return e.wsMissing(path)
			}
			out := doc
			if len(op.Hunks) > 0 {
				out, err = patch.Apply(doc, op.Hunks)
				if err != nil {
					return matchFault(err, path, "hunk")
				}
			}
			dest := path
			if op.MoveTo != "" {
				if dest, err = rootfs.Clean(op.MoveTo); err != nil {
					return fault.Wrap(fault.BadArgument, err, "apply_patch: Move to")
				}
				if err := t.Move(path, dest); err != nil {
					return err
				}
			}
			if err := t.Set(dest, out); err != nil {
				return err
			}
		}
	}
	return t.Commit()
}

// search runs search over the root as the workspace sees it.
func (e *Engine) search(ctx context.Context, i int, a *SearchArgs, r *Result) error {
	res, err := search.Search(ctx, e.fs, e.ws, search.Query{Pattern: a.Pattern, Regex: a.Regex, Paths: a.Paths, Max: MaxLocations})
	if err != nil {
		return err
	}
	ans := Answer{Step: i, Name: StepSearch, Locations: make([]Location, len(res.Matches)), Omitted: res.Omitted, Files: res.Files, SkippedMore: res.SkippedMore}
	for _, sk := range res.Skipped {
		ans.Skipped = append(ans.Skipped, SkippedFile{Path: sk.Path, Reason: sk.Reason})
	}
	for j, m := range res.Matches {
		ans.Locations[j] = Location{Path: m.Path, Line: m.Line, Column: m.Column, EndLine: m.EndLine, EndColumn: m.EndColumn, Text: m.Text}
	}
	r.Answers = append(r.Answers, ans)
	return nil
}

// wsMissing explains a path that is not in the workspace.
func (e *Engine) wsMissing(path string) error {
	if _, err := e.fs.Stat(path); err == nil {
		return fault.New(fault.NotFound, "%s exists on disk but is not in the workspace: add it to the plan's paths so it is acquired", path)
	}
	return fault.New(fault.NotFound, "%s is not in the workspace (and not on disk); to create it use apply_patch with \"*** Add File: %s\"", path, path)
}

// matchFault turns a matcher error into a classified one that names the
// file and the edit or hunk; its message still starts with the seed's
// sentence.
func matchFault(err error, path, unit string) error {
	var me *patch.MatchError
	if !errors.As(err, &me) {
		return fault.Wrap(fault.BadArgument, err, "%s", path)
	}
	return &fault.Error{Kind: me.Kind, Err: me.Relabel(unit, path)}
}

// scope is what a plan's paths say about the files its steps work on.
type scope struct {
	// unnamed: the plan named no paths (see [Engine.capability]).
	unnamed bool
	// named are the files the plan names literally (not by a glob, nor
	// listed in its Swept).
	named map[string]bool
	// failOn is the plan's fail_on ("": each language's).
	failOn string
}

// planScope is the scope of p's paths.
func planScope(p *Plan) scope {
	sc := scope{unnamed: len(p.Paths) == 0, named: map[string]bool{}, failOn: p.FailOn}
	for _, a := range p.Paths {
		if c, err := rootfs.Clean(a); err == nil && !rootfs.IsGlob(a) && !slices.Contains(p.Swept, c) && !slices.Contains(p.Swept, a) {
			sc.named[c] = true
		}
	}
	return sc
}

// capOpts are what a capability step asks besides its files: lint's fix,
// format's only.
type capOpts struct {
	fix  bool
	only string
}

// capability runs format, lint or check. With selectors, over the
// workspace files they match; without, over every file the workspace
// holds, and when the plan named no paths either, over the whole root
// first (see [Engine.acquireRoot]): a step without paths is never about
// whatever the workspace happens to hold. An answer that no driver gave
// (no file, or none a configured driver of kind serves) is not ok. The
// files neither the plan nor the step names literally, and the workspace
// did not change, are swept in ([Request.Swept]).
func (e *Engine) capability(ctx context.Context, kind Kind, selectors []string, sc scope, opt capOpts, r *Result) error {
	if e.caps == nil || !e.caps.Has(kind) {
		return e.unavailable(string(kind))
	}
	var paths []string
	var root *rootWalk
	switch {
	case len(selectors) > 0:
		var err error
		if paths, err = e.selectPaths(selectors); err != nil {
			return err
		}
	case kind == Test && len(e.ws.Unwritten()) > 0:
		// Without paths, test runs the tests the changes affect, not
		// those of every file the session holds.
	case sc.unnamed:
		var err error
		if root, err = e.acquireRoot(kind, r); err != nil {
			return err
		}
	}
	// Files the session did not change are handed over as the disk holds
	// them now: the answer is about what a write would leave on disk. The
	// plan's acquisition has just read the files it named.
	req := e.request(kind, r)
	req.Fix = opt.fix
	req.Paths = paths
	if kind == Test && len(paths) == 0 && len(req.Changed) > 0 {
		req.Paths = slices.Clone(req.Changed)
	}
	if root != nil {
		req.Paths = root.narrow(req)
		r.Coverage = append(r.Coverage, root.notes()...)
		if len(req.Paths) == 0 {
			return nothingLooked(kind, nil, true)
		}
	}
	if len(req.Paths) == 0 && len(req.Files) == 0 {
		return nothingLooked(kind, nil, sc.unnamed)
	}
	if kind == Format && opt.only == OnlyChanged {
		targets := req.Paths
		if targets == nil {
			targets = slices.Sorted(maps.Keys(req.Files))
		}
		var err error
		if req.Ranges, req.Before, err = e.changedLines(ctx, targets, req.Files); err != nil {
			return err
		}
		if len(req.Ranges) == 0 {
			// Nothing changed: nothing to format, which is the answer.
			what := "was changed by this session (against the disk, or edit_file's undo base)"
			if e.since != nil {
				what = "changed since " + e.since.Name()
			}
			r.Coverage = append(r.Coverage, Note{Kind: NoteNotLooked, Files: len(targets), Paths: FewPaths(targets),
				Message: fmt.Sprintf("format only changed: none of the %s %s, so nothing was formatted", count(len(targets), "file"), what)})
			return nil
		}
		paths = slices.Sorted(maps.Keys(req.Ranges))
		req.Paths = paths
	}
	req.Swept = swept(req, sc, selectors)
	// A lint or check over changed content is compared with its
	// baseline, asked for first (baseline.go).
	// A test answer's baseline runs tests too, so it is asked for after
	// the answer, and only when a test failed in an answer that is
	// complete (one that timed out fails the step anyway).
	var cmp *comparison
	if kind != Format && !e.noBaseline {
		var err error
		if kind == Test {
			cmp, err = e.comparisonOf(ctx, req)
		} else {
			cmp, err = e.compareWith(ctx, req)
		}
		if err != nil {
			return err
		}
		req.Uncapped = cmp != nil
	}
	resp, err := e.caps.Run(ctx, req)
	if err != nil {
		return err
	}
	if kind == Test && cmp != nil && slices.ContainsFunc(resp.Diagnostics, func(d Diagnostic) bool { return d.Severity == SeverityError }) {
		if slices.ContainsFunc(resp.Drivers, func(s DriverStatus) bool { return s.Status != StatusOK }) {
			cmp.failed = "the tests did not finish, so they were not run on it"
		} else if err := e.baseFindings(ctx, cmp); err != nil {
			return err
		}
	}
	if kind == Format {
		before := make(map[string]*text.Doc, len(resp.Edits))
		for p := range resp.Edits {
			before[p] = req.Files[p]
		}
		r.Formatted = append(r.Formatted, formatted(resp, before)...)
	} else {
		e.settle(resp, req, cmp, sc, r)
	}
	r.Diagnostics = append(r.Diagnostics, resp.Diagnostics...)
	r.Drivers = append(r.Drivers, resp.Drivers...)
	r.Coverage = append(r.Coverage, resp.Coverage...)
	r.addProjects(resp)
	if kind != Check && len(resp.Edits) > 0 {
		// The step's own changes (formatting, fixes) stay in the
		// workspace even when its verdict fails: the diagnostics
		// describe that content.
		t := e.ws.Begin()
		for p, d := range resp.Edits {
			if err := t.Set(p, d); err != nil {
				return err
			}
		}
		if err := t.Commit(); err != nil {
			return err
		}
	}
	if len(resp.Drivers) == 0 {
		// No driver answered: every file was left out, and the
		// coverage notes say why.
		if paths = req.Paths; paths == nil {
			paths = slices.Sorted(maps.Keys(req.Files))
		}
		return nothingLooked(kind, paths, sc.unnamed)
	}
	return verdict(kind, resp)
}

// swept lists, sorted, the files of req that nobody asked for: neither
// the plan nor the step's selectors name them literally, and the
// workspace did not change them.
func swept(req Request, sc scope, selectors []string) []string {
	targets := req.Paths
	if targets == nil {
		targets = slices.Collect(maps.Keys(req.Files))
	}
	named := maps.Clone(sc.named)
	for _, a := range selectors {
		if c, err := rootfs.Clean(a); err == nil && !rootfs.IsGlob(a) {
			named[c] = true
		}
	}
	var out []string
	for _, p := range targets {
		if named[p] {
			continue
		}
		if _, changed := slices.BinarySearch(req.Changed, p); changed {
			continue
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// rootWalk is what a step without paths learnt from its walk of the
// root: the project's scope, and the files it passed over.
type rootWalk struct {
	scope  func(string) (Scope, bool) // nil: the project states none
	scoped *scoped
	passed []workspace.Passed
	warn   func() []Note
}

// narrow lists, sorted, the files of req a step without paths works on:
// every file the workspace holds (the walk's and those it held before),
// except those the project's scope leaves out that the workspace did not
// change (an unwritten change is always looked at), which join the walk's
// note.
func (w *rootWalk) narrow(req Request) []string {
	keep := []string{}
	for _, p := range slices.Sorted(maps.Keys(req.Files)) {
		_, changed := slices.BinarySearch(req.Changed, p)
		if !changed && w.scope != nil {
			if sc, left := w.scope(p); left {
				w.scoped.add(sc, p)
				continue
			}
		}
		w.scoped.drop(p)
		keep = append(keep, p)
	}
	return keep
}

// notes are the walk's notes: the files out of the project's scope, the
// files it skipped, and the project files that could not be read.
func (w *rootWalk) notes() []Note {
	out := w.scoped.notes("the walk of the root")
	out = append(out, skippedNote(w.passed)...)
	if w.warn != nil {
		out = append(out, w.warn()...)
	}
	return out
}

// acquireRoot acquires the files of the root a step without paths works
// on, as the command line selects them ([Select]: every file a
// configured language covers, version control, testdata, vendor and what
// .gitignore ignores passed over, and what the project's own scope
// leaves out), except those the workspace deleted or moved away. The
// files the workspace holds stay in it, so the step works on those too,
// unwritten changes included. A file that cannot be held by itself (over
// the per-file limit, not text) is skipped and noted. It fails, naming
// the limit and what to do, when the files do not fit the workspace's
// limits.
func (e *Engine) acquireRoot(kind Kind, r *Result) (*rootWalk, error) {
	w := Walk{Read: e.ignoreFile}
	if c, ok := e.caps.(Coverage); ok {
		w.Covers = c.Covers
	}
	rw := &rootWalk{}
	if s, ok := e.caps.(Scoper); ok {
		rw.scope, rw.warn = s.Scope(kind)
		w.Scope = rw.scope
	}
	sel, err := Select(e.fs, w, nil)
	if err != nil {
		return nil, fault.Wrap(fault.IO, err, "%s without paths works on the whole root, whose walk failed", kind)
	}
	rw.scoped = sel.scoped
	acquire := sel.Paths[:0]
	for _, p := range sel.Paths {
		if _, held := e.ws.Doc(p); !held {
			if _, pending := e.ws.Pending(p); pending {
				continue // deleted or moved away in the workspace
			}
		}
		acquire = append(acquire, p)
	}
	if len(acquire) == 0 {
		return rw, nil
	}
	stale, passed, err := e.ws.AcquireWalked(acquire, func(string) bool { return true })
	r.addStale(stale)
	if err != nil {
		return nil, &fault.Error{Kind: fault.KindOf(err), Err: fmt.Errorf("%s without paths works on every file of the root a configured language covers (%d files): %w; or pass paths naming the files to %s", kind, len(acquire), err, kind)}
	}
	rw.passed = passed
	return rw, nil
}

// ignoreFile reads an ignore file for a walk of the root: the
// workspace's copy when it holds one, none when the workspace deleted or
// moved it away, else the disk's (as search reads them).
func (e *Engine) ignoreFile(p string) ([]byte, bool) {
	if d, ok := e.ws.Doc(p); ok {
		return []byte(d.Content()), true
	}
	if _, pending := e.ws.Pending(p); pending {
		return nil, false
	}
	data, _, err := e.fs.ReadFileMax(p, gitignore.MaxFileBytes)
	return data, err == nil
}

// selectPaths matches selectors (paths or globs) against the workspace.
func (e *Engine) selectPaths(selectors []string) ([]string, error) {
	var out []string
	for _, s := range selectors {
		n := 0
		for _, p := range e.ws.Paths() {
			if ok, _ := doublestar.Match(s, p); ok || s == p {
				out = append(out, p)
				n++
			}
		}
		if n == 0 {
			return nil, fault.New(fault.NotFound, "paths: %q matches no file in the workspace", s)
		}
	}
	e.ws.Use(out...)
	return out, nil
}
