package lspdriver

// This file defines code_actions: listing the actions a server offers for
// a range, and applying one. The server is asked at each diagnostic of
// the range, with it in the request's context (gopls offers quick fixes
// only for diagnostics it is given, and its fixes find their subject at
// the request's range), then at the whole range with them all; an action
// a previous ask gave (the same title and kind) is listed once.
//
// An action's Data is {title, kind, n}: its title and kind, and how many
// listed before it share them. Applying lists the actions again at the
// same place, on the current content, and takes the one Data names: the
// action the server holds now, whose own data goes back verbatim in
// codeAction/resolve, and whose edits are for the content it was just
// shown. The engine applies only to content whose revision is the
// listing's; an action the new listing lacks is refused, asking for a
// new listing.

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// actionKey is an action's Data.
type actionKey struct {
	Title string `json:"title"`
	Kind  string `json:"kind,omitempty"`
	N     int    `json:"n,omitempty"`
}

// codeActions lists the actions of Query's range, or applies Query.Apply.
func (d *Driver) codeActions(ctx context.Context, srv *lsp.Server, v *view, ms *mappers, req *capabilities.Request) *capabilities.Result {
	q := req.Query
	abs, rng := v.abs(q.Path), actionRange(ms, q)
	rep, err := srv.Diagnose(ctx, v.list(), []string{abs})
	if err != nil {
		return failed(nil, err, rep != nil && rep.Indexing)
	}
	// Each diagnostic of the range at its own range first (its quick
	// fixes), then the range with them all.
	var qs []lsp.ActionQuery
	var diags []lsp.Diagnostic
	for _, ld := range rep.Files[abs] {
		if overlaps(ld.Range, rng) || ld.Range.End == rng.Start || ld.Range.Start == rng.End {
			diags = append(diags, ld)
			qs = append(qs, lsp.ActionQuery{Range: ld.Range, Diagnostics: []lsp.Diagnostic{ld}})
		}
	}
	qs = append(qs, lsp.ActionQuery{Range: rng, Diagnostics: diags})
	if q.Apply != nil {
		return d.applyAction(ctx, srv, v, req, qs)
	}
	actions, err := srv.CodeActions(ctx, v.list(), abs, qs, q.Only)
	if err != nil {
		return refusal(nil, err)
	}
	res := &capabilities.Result{Status: engine.StatusOK}
	seen := map[actionKey]int{}
	for _, a := range actions {
		if !listed(&a, q.Only) {
			continue
		}
		key := actionKey{Title: a.Title, Kind: a.Kind}
		key.N = seen[key]
		seen[actionKey{Title: a.Title, Kind: a.Kind}]++
		data, _ := json.Marshal(key)
		ea := engine.Action{Title: a.Title, Kind: a.Kind, Preferred: a.IsPreferred, Data: data}
		if a.Disabled != nil {
			ea.Disabled = a.Disabled.Reason
			if ea.Disabled == "" {
				ea.Disabled = "the server gives no reason"
			}
		}
		res.Actions = append(res.Actions, ea)
	}
	return res
}

// editKinds are the kinds of action listed: LSP's kinds of actions that
// change code. gopls also offers source actions that open a browser,
// toggle its own annotations or create files (source.doc,
// source.toggleCompilerOptDetails, source.addTest): they change no code a
// change can carry, and applying one runs its command on the server that
// every session of the root shares, so they are never listed, even when
// only names them.
var editKinds = []string{"quickfix", "refactor", "source.organizeImports", "source.fixAll"}

// listed reports whether an action is listed (and so can be applied): of
// a kind that changes code, and with no command that devbroker does not
// run (lsp.CommandRuns: gopls's go get, go mod tidy, ...).
func listed(a *lsp.CodeAction, only []string) bool {
	return editKind(a.Kind, only) && (a.Command == nil || lsp.CommandRuns(a.Command.Command))
}

// editKind reports whether an action of kind is listed: a kind that
// changes code (or, when only is not given, no kind), one of only's kinds
// (or below one) when only is given.
func editKind(kind string, only []string) bool {
	within := func(prefixes []string) bool {
		for _, p := range prefixes {
			if kind == p || hasPrefix(kind, p+".") {
				return true
			}
		}
		return false
	}
	if len(only) > 0 {
		return within(only) && within(editKinds)
	}
	return kind == "" || within(editKinds)
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// applyAction applies the action Query.Apply names (see the file comment).
func (d *Driver) applyAction(ctx context.Context, srv *lsp.Server, v *view, req *capabilities.Request, qs []lsp.ActionQuery) *capabilities.Result {
	q := req.Query
	var key actionKey
	if err := json.Unmarshal(q.Apply.Data, &key); err != nil || key.Title == "" {
		return &capabilities.Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("code action %q came back without the record its listing gave it", q.Apply.Title)}
	}
	choose := func(actions []lsp.CodeAction) (int, error) {
		n := 0
		for i, a := range actions {
			if a.Title != key.Title || a.Kind != key.Kind || !listed(&a, q.Only) {
				continue
			}
			if n == key.N {
				if a.Disabled != nil {
					return 0, fmt.Errorf("code action %q cannot be applied now: %s: %w", a.Title, a.Disabled.Reason, errRefused)
				}
				return i, nil
			}
			n++
		}
		return 0, fmt.Errorf("code action %q is no longer offered at %s:%d; list the code actions again: %w", key.Title, q.Path, q.Line, errRefused)
	}
	a, edits, err := srv.ApplyCodeAction(ctx, v.list(), v.abs(q.Path), qs, q.Only, choose)
	if err != nil {
		return refusal(nil, err)
	}
	var ops []lsp.FileOp
	for _, w := range edits {
		ops = append(ops, w.Ops()...)
	}
	res, err := change(v, req, fmt.Sprintf("code action %q", a.Title), ops)
	if err != nil {
		return refusal(nil, err)
	}
	return res
}

// actionRange is Query's range in the server's positions: Line and Column
// to EndLine and EndColumn, the end of Line without EndLine, the end of
// EndLine without EndColumn, and the whole file without Line.
func actionRange(ms *mappers, q *engine.Query) lsp.Range {
	m := ms.get(q.Path)
	lineEnd := func(line int) lsp.Position {
		return lsp.Position{Line: line - 1, Character: m.Convert(line-1, 1<<30, text.Chars, text.UTF16)}
	}
	if q.Line == 0 {
		return lsp.Range{End: lineEnd(m.Lines())}
	}
	col := max(q.Column, 1)
	r := lsp.Range{Start: position(m, q.Line, col), End: lineEnd(q.Line)}
	switch {
	case q.EndLine > 0 && q.EndColumn > 0:
		r.End = position(m, q.EndLine, q.EndColumn)
	case q.EndLine > 0:
		r.End = lineEnd(q.EndLine)
	}
	if before(r.End, r.Start) {
		r.End = r.Start
	}
	return r
}
