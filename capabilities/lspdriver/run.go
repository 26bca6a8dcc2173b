package lspdriver

// This file defines [Driver.Run]: check, lint (with fixes) and format.
//
// check reports every diagnostic of workspace files the server gives after
// settling: the requested files and, for gopls, every file it published
// for, which includes the packages that depend on a changed one. lint
// reports the linter findings (not compiler errors) of the requested
// files; with fix, it applies each finding's preferred quick fix to the
// workspace content (never the disk) and reports what remains. format
// applies textDocument/formatting to each requested file.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// Run answers one request. It never reports a failed run as clean: the
// status says timeout, crashed, not_installed or indexing, and the
// diagnostics are what was known.
func (d *Driver) Run(ctx context.Context, req *capabilities.Request) (res *capabilities.Result) {
	if !d.calls.Begin() {
		return capabilities.ClosedResult(d.name)
	}
	defer d.calls.End()
	// One disk barrier serves the request: the symlinks' (see view) and
	// the changes' before each call.
	ctx = lsp.Began(ctx)
	req, withheld := d.confined(ctx, req)
	if req == nil {
		return withheldResult(withheld)
	}
	if withheld != "" {
		defer func() { res = partlyWithheld(res, withheld) }()
	}
	// A workspace symbol search asks every project server held.
	if req.Kind == engine.Symbols && len(req.Files) == 0 && d.perProject() {
		if r := d.workspaceSymbols(ctx, req); r != nil {
			return r
		}
	}
	// Each project's files are answered by their server (projects.go);
	// the servers of several projects answer at once, each on its own
	// files, which no other project's answer changes.
	prs, over := d.projects(req)
	results := make([]*capabilities.Result, len(prs))
	var wg sync.WaitGroup
	for i, pr := range prs {
		wg.Go(func() {
			r := d.runProject(ctx, forProject(req, pr), pr.server)
			r.Projects = pr.owned
			results[i] = r
		})
	}
	wg.Wait()
	return merged(prs, results, over)
}

// runProject answers req with the server that runs in the directory
// server (a workspace path: "." for the root's server).
func (d *Driver) runProject(ctx context.Context, req *capabilities.Request, server string) (res *capabilities.Result) {
	sctx, scancel := context.WithTimeout(ctx, d.timeout)
	pool, err := d.poolAt(sctx, req.Root, server)
	scancel()
	var srv *lsp.Server
	if err == nil {
		// A lane of the pool answers: the one that has the request's
		// content, or is nearest to it (see lsp.Pool). The wait for it
		// counts in the request's time, as the wait for a server's turn
		// does, and lasts while the first lane loads.
		// A check only asks for diagnostics: it may share a lane, and a
		// turn of the server, with checks of the same content (lsp.Sharing).
		// Only gopls's barrier answers several at once: with another
		// server, the holders of a lane would only wait for each other.
		if req.Kind == engine.Check && d.isGopls() {
			ctx = lsp.Sharing(ctx)
		}
		tctx, tcancel := d.deadline(ctx, pool.Primary())
		var done func()
		srv, done, err = pool.Take(tctx, want(req))
		tcancel()
		if err == nil {
			defer done()
		}
	}
	if err != nil {
		res := failed(nil, err, false)
		if res.Status == engine.StatusTimeout {
			res.Message += "; " + capabilities.RaiseTimeout(d.name, d.timeout)
		}
		return res
	}
	defer d.report(ctx, srv, req)()
	ctx, cancel := d.deadline(ctx, srv)
	defer cancel()
	var v *view
	switch req.Kind {
	case engine.Definition, engine.References, engine.Hover, engine.Symbols:
		v, res = d.navigate(ctx, srv, req)
	case engine.Rename, engine.CodeActions:
		v = d.view(ctx, srv, d.viewed(req))
		res = d.language(ctx, srv, v, &mappers{v: v, req: req, m: map[string]*text.Mapper{}}, req)
	case engine.Format:
		v = d.view(ctx, srv, d.viewed(req))
		if req.Ranges != nil {
			res = d.formatRanges(ctx, srv, v, req)
			break
		}
		res = d.format(ctx, srv, v, req)
	case engine.Lint:
		v = d.view(ctx, srv, d.viewed(req))
		res = d.lint(ctx, srv, v, &mappers{v: v, req: req, m: map[string]*text.Mapper{}}, req)
	default:
		v = d.view(ctx, srv, d.viewed(req))
		res = d.check(ctx, srv, v, &mappers{v: v, req: req, m: map[string]*text.Mapper{}}, req)
	}
	if res.Status == engine.StatusTimeout || res.Status == engine.StatusIndexing {
		d.cutShort(ctx, srv, res)
	}
	if len(v.unhidden) > 0 && res.Status == engine.StatusOK {
		res.Message = fmt.Sprintf("%s still sees on disk the files deleted in the workspace: %s", d.name, strings.Join(v.unhidden, ", "))
	}
	if u := srv.Unverified(); u != "" {
		unverified(d.name, req.Kind, res, u)
	}
	return res
}

// unverified marks an answer that the check of the server's inputs could
// not verify (lsp.Server.Unverified says why): a check or lint answer is
// then not complete, whatever it found; another keeps its status and says
// so.
func unverified(name string, kind engine.Kind, res *capabilities.Result, why string) {
	msg := name + "'s answer may not reflect the disk: " + why
	if res.Status != engine.StatusOK {
		res.Message = strings.TrimPrefix(res.Message+"; "+msg, "; ")
		return
	}
	switch kind {
	case engine.Check, engine.Lint:
		res.Status = engine.StatusUnchecked
	}
	res.Message = strings.TrimPrefix(res.Message+"; "+msg, "; ")
}

// files are the absolute paths of the requested files.
func (v *view) files(req *capabilities.Request) []string {
	out := make([]string, len(req.Files))
	for i, p := range req.Files {
		out[i] = v.abs(p)
	}
	return out
}

func (d *Driver) check(ctx context.Context, srv *lsp.Server, v *view, ms *mappers, req *capabilities.Request) *capabilities.Result {
	notes, err := d.dependents(ctx, srv, v, req)
	if err != nil {
		return failed(&capabilities.Result{Output: engine.Output{Coverage: notes}}, err, false)
	}
	rep, err := srv.Diagnose(ctx, v.list(), v.files(req))
	res := &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Coverage: notes}}
	if rep != nil {
		res.Diagnostics = d.diagnostics(rep, v, ms, nil)
	}
	if err != nil {
		return failed(res, err, rep != nil && rep.Indexing)
	}
	if d.langID == "go" {
		diags, problem := d.blindBuild(ctx, srv, v)
		res.Diagnostics = append(res.Diagnostics, diags...)
		if problem != "" {
			res.Status, res.Message = engine.StatusUnchecked, problem
		}
	}
	return res
}

// linting keeps the linter findings of the requested files.
func linting(v *view, req *capabilities.Request) func(string, lsp.Diagnostic) bool {
	want := map[string]bool{}
	for _, p := range req.Files {
		want[v.abs(p)] = true
	}
	return func(abs string, ld lsp.Diagnostic) bool { return want[abs] && !compilerSource(ld.Source) }
}

func (d *Driver) lint(ctx context.Context, srv *lsp.Server, v *view, ms *mappers, req *capabilities.Request) *capabilities.Result {
	keep := linting(v, req)
	rep, err := srv.Diagnose(ctx, v.list(), v.files(req))
	if err != nil {
		res := &capabilities.Result{}
		if rep != nil {
			res.Diagnostics = d.diagnostics(filter(rep, keep), v, ms, nil)
		}
		return failed(res, err, rep != nil && rep.Indexing)
	}
	if !req.Fix {
		return &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Diagnostics: d.diagnostics(filter(rep, keep), v, ms, nil)}}
	}
	edits, err := d.fix(ctx, srv, v, req, filter(rep, keep))
	if err != nil {
		return failed(&capabilities.Result{Output: engine.Output{Diagnostics: d.diagnostics(filter(rep, keep), v, ms, nil)}}, err, false)
	}
	if len(edits) == 0 {
		return &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Diagnostics: d.diagnostics(filter(rep, keep), v, ms, nil)}}
	}
	// What remains after the fixes, on the fixed content.
	ms = &mappers{v: v, req: req, m: map[string]*text.Mapper{}}
	rep, err = srv.Diagnose(ctx, v.list(), v.files(req))
	res := &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Edits: edits}}
	if rep != nil {
		res.Diagnostics = d.diagnostics(filter(rep, keep), v, ms, nil)
	}
	if err != nil {
		return failed(res, err, rep != nil && rep.Indexing)
	}
	return res
}

// filter returns rep with only the diagnostics keep accepts.
func filter(rep *lsp.Report, keep func(string, lsp.Diagnostic) bool) *lsp.Report {
	out := *rep
	out.Files = map[string][]lsp.Diagnostic{}
	for abs, ds := range rep.Files {
		for _, ld := range ds {
			if keep(abs, ld) {
				out.Files[abs] = append(out.Files[abs], ld)
			}
		}
	}
	return &out
}

// fix applies the preferred quick fix of each finding to the workspace
// content, one fix at a time per file in position order; a fix that
// overlaps one already taken, or touches a file outside the workspace, is
// skipped. v's documents are updated to the fixed content.
func (d *Driver) fix(ctx context.Context, srv *lsp.Server, v *view, req *capabilities.Request, rep *lsp.Report) (map[string]*text.Doc, error) {
	taken := map[string][]lsp.TextEdit{} // by workspace path
	abss := make([]string, 0, len(rep.Files))
	for abs := range rep.Files {
		abss = append(abss, abs)
	}
	sort.Strings(abss)
	for _, abs := range abss {
		fixes, err := srv.Fixes(ctx, v.list(), abs, rep.Files[abs])
		if err != nil {
			return nil, err
		}
	next:
		for _, f := range fixes {
			for fa, es := range f.Edits {
				p := v.shown(fa)
				if p == "" || v.docs[p].Path == "" && req.All[p] == nil {
					continue next
				}
				for _, e := range es {
					for _, t := range taken[p] {
						if overlaps(e.Range, t.Range) {
							continue next
						}
					}
				}
			}
			for fa, es := range f.Edits {
				p := v.rel(fa)
				taken[p] = append(taken[p], es...)
			}
		}
	}
	out := map[string]*text.Doc{}
	for p, es := range taken {
		doc, ok := v.docs[p]
		if !ok {
			doc = lsp.Document{Path: v.abs(p), LanguageID: d.languageID(p), Text: req.All[p].Content()}
		}
		fixed, err := applyEdits(doc.Text, es)
		if err != nil {
			return nil, fmt.Errorf("applying the fixes to %s: %w", p, err)
		}
		if fixed == doc.Text {
			continue
		}
		doc.Text, doc.OnDisk = fixed, false
		v.docs[p] = doc
		out[p] = newDoc(req.All[p], fixed)
	}
	return out, nil
}

func before(a, b lsp.Position) bool {
	return a.Line < b.Line || (a.Line == b.Line && a.Character < b.Character)
}

// overlaps reports whether two ranges share a character (or are the same
// insertion point).
func overlaps(a, b lsp.Range) bool {
	if a == b {
		return true
	}
	return before(a.Start, b.End) && before(b.Start, a.End)
}

func (d *Driver) format(ctx context.Context, srv *lsp.Server, v *view, req *capabilities.Request) *capabilities.Result {
	res := &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Edits: map[string]*text.Doc{}}}
	for _, p := range req.Files {
		doc, ok := v.docs[p]
		if !ok {
			continue
		}
		edits, err := srv.Format(ctx, v.list(), doc.Path)
		if err != nil {
			return failed(res, fmt.Errorf("formatting %s: %w", p, err), false)
		}
		if len(edits) == 0 {
			continue
		}
		out, err := applyEdits(doc.Text, edits)
		if err != nil {
			return failed(res, fmt.Errorf("formatting %s: the server's edits do not apply: %w", p, err), false)
		}
		if out != doc.Text {
			res.Edits[p] = newDoc(req.All[p], out)
		}
	}
	return res
}

// failed sets res's status from err. A result with a bad status is never
// clean, whatever diagnostics it holds.
func failed(res *capabilities.Result, err error, indexing bool) *capabilities.Result {
	if res == nil {
		res = &capabilities.Result{}
	}
	res.Message = err.Error()
	switch {
	case errors.Is(err, lsp.ErrNotInstalled):
		res.Status = engine.StatusNotInstalled
	case errors.Is(err, lsp.ErrExited):
		// The server went away (exited, closed its pipe, or sent what
		// could not be read): crashed, whatever the call was waiting on.
		res.Status = engine.StatusCrashed
	case errors.Is(err, context.DeadlineExceeded) && indexing:
		res.Status = engine.StatusIndexing
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		res.Status = engine.StatusTimeout
	default:
		res.Status = engine.StatusCrashed
	}
	return res
}

// want describes the content req sends beyond the disk's, by which the
// pool picks a lane: each changed file's content, and the deleted files.
func want(req *capabilities.Request) lsp.Want {
	w := lsp.Want{State: make(map[string]string, len(req.Changed)+len(req.Deleted))}
	for _, p := range req.Changed {
		if doc := req.All[p]; doc != nil {
			w.State[p] = "+" + doc.Content()
		}
	}
	for _, p := range req.Deleted {
		w.State[p] = "-"
	}
	for _, p := range req.Files {
		w.Files = append(w.Files, filepath.Join(req.Root, filepath.FromSlash(p)))
	}
	return w
}
