package lspdriver

// This file defines the language kinds' side of [Driver.Run]: definition,
// references, hover and symbols answer from the server about the
// workspace content (rename and code_actions, which change it, are in
// change.go and actions.go).
//
// Positions: the engine's are 1-based lines and columns in characters,
// the server's 0-based lines and UTF-16 columns, both in the content the
// server is shown (the workspace's, or the disk's for a file the
// workspace does not hold), converted by the mappers of convert.go.
//
// What lies outside the root (docs/semantics.md): a location
// or a symbol in a file outside the root (the Go standard library, the
// module cache) is reported by its absolute path, its columns as the
// server counts them (UTF-16), and without the text of its line:
// devbroker reads no file outside the root. A location in a file under
// the root that is not the root's to show (reached through a symlink
// that leaves it, or a deleted file's stand-in) is left out, and the
// message says how many were.

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// languageKinds are the kinds of this file, change.go and actions.go.
var languageKinds = map[engine.Kind]string{
	engine.Definition: lsp.MethodDefinition, engine.References: lsp.MethodReferences, engine.Hover: lsp.MethodHover,
	engine.Symbols: lsp.MethodDocumentSymbol, engine.Rename: lsp.MethodRename, engine.CodeActions: lsp.MethodCodeAction,
}

// language answers one of the language kinds.
func (d *Driver) language(ctx context.Context, srv *lsp.Server, v *view, ms *mappers, req *capabilities.Request) *capabilities.Result {
	q := req.Query
	if q == nil {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("a %s request came without its query", req.Kind)}
	}
	switch req.Kind {
	case engine.Symbols:
		return d.symbols(ctx, srv, v, ms, q)
	case engine.Rename:
		return d.rename(ctx, srv, v, ms, req)
	case engine.CodeActions:
		return d.codeActions(ctx, srv, v, ms, req)
	}
	abs, pos := v.abs(q.Path), position(ms.get(q.Path), q.Line, q.Column)
	var locs []lsp.Location
	var err error
	switch req.Kind {
	case engine.Definition:
		locs, err = srv.Definition(ctx, v.list(), abs, pos)
	case engine.References:
		locs, err = srv.References(ctx, v.list(), abs, pos, q.IncludeDeclaration)
	case engine.Hover:
		hover, err := srv.Hover(ctx, v.list(), abs, pos)
		if err != nil {
			return refusal(nil, err)
		}
		return &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Hover: hover}}
	}
	if err != nil {
		return refusal(nil, err)
	}
	res := &capabilities.Result{Status: engine.StatusOK}
	var dropped int
	res.Locations, res.Omitted, dropped = locations(v, ms, locs)
	res.Message = droppedNote(dropped, "location")
	return res
}

// navigate answers definition, references, hover and symbols, which
// change nothing, with the check of the server's inputs run alongside
// the request (lsp.Server.Alongside): when it finds that the disk changed
// the answer is dropped and asked again, the server told of the changes
// first, as every other request is.
func (d *Driver) navigate(ctx context.Context, srv *lsp.Server, req *capabilities.Request) (*view, *capabilities.Result) {
	actx, settled := srv.Alongside(ctx)
	v := d.view(actx, srv, d.viewed(req))
	res := d.language(actx, srv, v, &mappers{v: v, req: req, m: map[string]*text.Mapper{}, files: &d.files}, req)
	if settled() {
		return v, res
	}
	v = d.view(ctx, srv, d.viewed(req))
	return v, d.language(ctx, srv, v, &mappers{v: v, req: req, m: map[string]*text.Mapper{}, files: &d.files}, req)
}

// position converts a 1-based line and character column to the server's
// position in the content m maps.
func position(m *text.Mapper, line, col int) lsp.Position {
	return lsp.Position{Line: line - 1, Character: m.Convert(line-1, col-1, text.Chars, text.UTF16)}
}

// refusal is the result of a language request that failed: a server that
// does not offer the request, or that refuses it (a position it cannot
// rename, an error answer), answers unchecked with its reason; other
// failures as [failed].
func refusal(res *capabilities.Result, err error) *capabilities.Result {
	if errors.Is(err, lsp.ErrNotOffered) || errors.Is(err, lsp.ErrCannotRename) || errors.Is(err, lsp.ErrDeclined) || errors.Is(err, lsp.ErrCommandNotRun) || errors.Is(err, errRefused) {
		if res == nil {
			res = &capabilities.Result{}
		}
		res.Status, res.Message = engine.StatusUnchecked, err.Error()
		res.Declined = errors.Is(err, lsp.ErrDeclined)
		return res
	}
	return failed(res, err, false)
}

// errRefused marks a change the driver refuses (a file outside the root).
var errRefused = errors.New("refused")

// droppedNote says how many answers were left out as not the root's to
// show.
func droppedNote(n int, what string) string {
	if n == 0 {
		return ""
	}
	if n > 1 {
		what += "s"
	}
	return fmt.Sprintf("%d %s in files reached through a symlink that leaves the root, or deleted in the workspace, left out", n, what)
}

// locations converts the server's locations (see the file comment for
// what lies outside the root); dropped counts those left out as not the
// root's to show, omitted those past the cap.
//
// Only what the engine lists is converted (see [engine.Response]'s
// Omitted): the locations are put in the engine's order (path, line,
// column: on a line, UTF-16 columns order places as character columns
// do), repeats dropped as the engine drops them, and past the first
// engine.MaxLocations only counted, so that no file is read, and no
// mapper built, for a place that is not listed.
func locations(v *view, ms *mappers, locs []lsp.Location) (out []engine.Location, omitted, dropped int) {
	type placed struct {
		p string
		l lsp.Location
	}
	places := map[string]placed{} // place's answer by absolute path; l.Path "" when dropped
	keep := make([]placed, 0, len(locs))
	for _, l := range locs {
		pl, seen := places[l.Path]
		if !seen {
			p, ok := place(v, l.Path)
			pl = placed{p: p}
			if ok {
				pl.l.Path = l.Path
			}
			places[l.Path] = pl
		}
		if pl.l.Path == "" {
			dropped++
			continue
		}
		keep = append(keep, placed{p: pl.p, l: l})
	}
	defer ms.batch()()
	sort.SliceStable(keep, func(i, j int) bool {
		if keep[i].p != keep[j].p {
			return keep[i].p < keep[j].p
		}
		return before(keep[i].l.Range.Start, keep[j].l.Range.Start)
	})
	for i, k := range keep {
		if i > 0 && k == keep[i-1] {
			continue
		}
		if len(out) == engine.MaxLocations {
			omitted++
			continue
		}
		if loc := location(ms, k.p, k.l); len(out) == 0 || loc != out[len(out)-1] {
			out = append(out, loc)
		}
	}
	return out, omitted, dropped
}

// location converts one location of the file reported under p.
func location(ms *mappers, p string, l lsp.Location) engine.Location {
	loc := engine.Location{Path: p}
	if p == l.Path { // outside the root: the server's own counts
		loc.Line, loc.Column = l.Range.Start.Line+1, l.Range.Start.Character+1
		loc.EndLine, loc.EndColumn = l.Range.End.Line+1, l.Range.End.Character+1
		return loc
	}
	m := ms.get(p)
	loc.Line, loc.Column = point(m, l.Range.Start)
	loc.EndLine, loc.EndColumn = point(m, l.Range.End)
	loc.Text = ms.line(p, loc.Line)
	return loc
}

// place is the path an answer about the file at abs is reported under:
// its workspace path, or abs itself outside the root; false for a file
// under the root that is not the root's to show.
func place(v *view, abs string) (string, bool) {
	if v.rel(abs) == "" {
		return abs, true
	}
	p := v.shown(abs)
	return p, p != ""
}

// symbols answers symbols: the outline of Query.Path, or a workspace
// search for Query.Text.
func (d *Driver) symbols(ctx context.Context, srv *lsp.Server, v *view, ms *mappers, q *engine.Query) *capabilities.Result {
	var syms []lsp.Symbol
	var err error
	if q.Path != "" {
		syms, err = srv.DocumentSymbols(ctx, v.list(), v.abs(q.Path))
	} else {
		syms, err = srv.WorkspaceSymbols(ctx, v.list(), q.Text)
	}
	if err != nil {
		return refusal(nil, err)
	}
	res := &capabilities.Result{Status: engine.StatusOK}
	if n := d.symbolLimit(); q.Path == "" && n > 0 && len(syms) >= n {
		res.ServerLimit = n
	}
	defer ms.batch()()
	dropped := 0
	type placed struct {
		p  string
		ok bool
	}
	places := map[string]placed{} // place's answer by absolute path: a search names the same files many times
	var walk func(prefix string, syms []lsp.Symbol)
	walk = func(prefix string, syms []lsp.Symbol) {
		for _, s := range syms {
			name := prefix + s.Name
			pl, seen := places[s.Path]
			if !seen {
				pl.p, pl.ok = place(v, s.Path)
				places[s.Path] = pl
			}
			p, ok := pl.p, pl.ok
			if !ok {
				dropped++
				continue
			}
			es := engine.Symbol{Name: name, Kind: lsp.SymbolKindName(s.Kind), Detail: s.Detail, Container: s.Container, Path: p}
			if p == s.Path {
				es.Line, es.Column, es.EndLine = s.Selection.Start.Line+1, s.Selection.Start.Character+1, s.Range.End.Line+1
			} else {
				m := ms.get(p)
				es.Line, es.Column = point(m, s.Selection.Start)
				es.EndLine, _ = point(m, s.Range.End)
			}
			res.Symbols = append(res.Symbols, es)
			walk(name+".", s.Children)
		}
	}
	walk("", syms)
	if q.Path != "" {
		sort.SliceStable(res.Symbols, func(i, j int) bool { return res.Symbols[i].Line < res.Symbols[j].Line })
	} else { // the server's order (its ranking), the root's files first
		sort.SliceStable(res.Symbols, func(i, j int) bool {
			return !filepath.IsAbs(res.Symbols[i].Path) && filepath.IsAbs(res.Symbols[j].Path)
		})
	}
	res.Message = droppedNote(dropped, "symbol")
	return res
}

// symbolLimit is the most symbols the server lists for a workspace
// symbol search, 0 when it lists every match: a list that long may have
// been cut, and nothing in LSP says whether it was. gopls stops at 100
// (its maxSymbols, not a setting); clangd at its --limit-results (100
// unless the command says otherwise; 0 is no limit); rust-analyzer at its
// workspace.symbol.search.limit setting (128 unless set). pyright and
// typescript-language-server list every match.
func (d *Driver) symbolLimit() int {
	if len(d.cfg.Command) == 0 {
		return 0
	}
	switch strings.TrimSuffix(filepath.Base(d.cfg.Command[0]), ".exe") {
	case "gopls":
		return 100
	case "clangd":
		n := 100
		args := d.cfg.Command[1:]
		for i, a := range args {
			a = strings.TrimLeft(a, "-")
			v, ok := strings.CutPrefix(a, "limit-results=")
			if !ok && a == "limit-results" && i+1 < len(args) {
				v, ok = args[i+1], true
			}
			if l, err := strconv.Atoi(v); ok && err == nil && l >= 0 {
				n = l
			}
		}
		return n
	case "rust-analyzer":
		n := 128
		var v any = map[string]any(d.cfg.Settings)
		for _, k := range []string{"workspace", "symbol", "search", "limit"} {
			m, _ := v.(map[string]any)
			v = m[k]
		}
		switch l := v.(type) {
		case int64:
			n = int(l)
		case int:
			n = l
		case float64:
			n = int(l)
		}
		return max(n, 0)
	}
	return 0
}

// viewed is req as the view takes it: a request that names no file (a
// workspace symbol search) names the changed files of the driver's
// languages (languageOf), which the server must see at their workspace
// content.
func (d *Driver) viewed(req *capabilities.Request) *capabilities.Request {
	if len(req.Files) > 0 || req.Query == nil {
		return req
	}
	out := *req
	out.Files = nil
	for _, p := range req.Changed {
		if d.languageOf(p) != "" {
			out.Files = append(out.Files, p)
		}
	}
	return &out
}
