package engine

// This file runs the language steps that change the workspace: rename,
// and code_actions, which lists the actions offered at a place and
// applies one by the id its listing gave. Their change lands in the
// workspace all or nothing and stays unwritten until a write.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"

	"github.com/devbroker/devbroker/engine/fault"
)

// listed is a code action an earlier listing gave, with what it was
// offered for.
type listed struct {
	query    Query
	action   Action
	revision string // the file's revision when it was listed
}

// maxListed bounds the listed actions an engine remembers.
const maxListed = 1000

// rename renames the symbol at a place, in every file that uses it.
func (e *Engine) rename(ctx context.Context, i int, a *RenameArgs, r *Result) error {
	q := Query{NewName: a.NewName}
	if err := e.resolve(ctx, &a.At, &q, r); err != nil {
		return err
	}
	resp, err := e.ask(ctx, StepRename, q, r)
	if err != nil {
		return err
	}
	if len(resp.Edits) == 0 && len(resp.Renames) == 0 {
		return fault.New(fault.NoMatch, "the language server's rename of %s:%d:%d to %q changes nothing", q.Path, q.Line, q.Column, a.NewName)
	}
	if err := e.change(resp, "rename"); err != nil {
		return err
	}
	r.Answers = append(r.Answers, Answer{Step: i, Name: StepRename})
	return nil
}

// codeActions lists the actions offered at a place, or applies one.
func (e *Engine) codeActions(ctx context.Context, i int, a *CodeActionsArgs, r *Result) error {
	if a.Apply != "" {
		return e.applyAction(ctx, i, a.Apply, r)
	}
	p, err := e.hold(a.Path, r)
	if err != nil {
		return err
	}
	q := Query{Path: p, Only: a.Only}
	if a.Line != nil {
		q.Line, q.Column = *a.Line, 1
		if a.Column != nil {
			q.Column = *a.Column
		}
		if err := e.onColumn(p, q.Line, q.Column); err != nil {
			return err
		}
		if a.EndLine != nil {
			q.EndLine, q.EndColumn = *a.EndLine, 0
			if a.EndColumn != nil {
				q.EndColumn = *a.EndColumn
			}
			if err := e.onColumn(p, q.EndLine, max(q.EndColumn, 1)); err != nil {
				return err
			}
		}
	}
	resp, err := e.ask(ctx, StepCodeActions, q, r)
	if err != nil {
		return err
	}
	rev, _ := e.ws.Revision(p)
	if e.actions == nil || len(e.actions) > maxListed {
		e.actions = map[string]listed{}
	}
	ans := Answer{Step: i, Name: StepCodeActions}
	seen := map[string]int{}
	for _, act := range resp.Actions {
		act.ID = actionID(q, rev, act, seen)
		e.actions[act.ID] = listed{query: q, action: act, revision: rev}
		act.Data = nil
		ans.Actions = append(ans.Actions, act)
	}
	r.Answers = append(r.Answers, ans)
	return nil
}

// actionID names an action by its file's content, its place and itself,
// so that listing the same place of the same content again gives the same
// ids; seen counts the titles given so far, which tells apart two
// actions of one title.
func actionID(q Query, rev string, a Action, seen map[string]int) string {
	key := a.Kind + "\x00" + a.Title
	n := seen[key]
	seen[key] = n + 1
	h := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d:%d-%d:%d\x00%q\x00%s\x00%d",
		q.Path, rev, q.Line, q.Column, q.EndLine, q.EndColumn, q.Only, key, n))
	return "ca-" + hex.EncodeToString(h[:4])
}

// applyAction applies the listed action id.
func (e *Engine) applyAction(ctx context.Context, i int, id string, r *Result) error {
	l, ok := e.actions[id]
	if !ok {
		return fault.New(fault.NotFound, "no code action %q was listed in this session: list them with code_actions {path, line} and apply an id from that answer", id)
	}
	if _, err := e.hold(l.query.Path, r); err != nil {
		return err
	}
	if rev, _ := e.ws.Revision(l.query.Path); rev != l.revision {
		return fault.New(fault.Conflict, "%s changed since code action %q was listed; list the actions again and apply an id from the new answer", l.query.Path, id)
	}
	if l.action.Disabled != "" {
		return fault.New(fault.BadArgument, "code action %q (%s) cannot be applied now: %s", id, l.action.Title, l.action.Disabled)
	}
	q := l.query
	act := l.action
	q.Apply = &act
	resp, err := e.ask(ctx, StepCodeActions, q, r)
	if err != nil {
		return err
	}
	if len(resp.Edits) == 0 && len(resp.Renames) == 0 {
		return fault.New(fault.NoMatch, "code action %q (%s) changes nothing", id, act.Title)
	}
	if err := e.change(resp, "code action "+id); err != nil {
		return err
	}
	r.Answers = append(r.Answers, Answer{Step: i, Name: StepCodeActions, Applied: act.Title})
	return nil
}

// change applies a rename's or code action's edits and file renames to
// the workspace, all or nothing. A file the workspace did not hold is
// acquired first, and must be what the server changed.
func (e *Engine) change(resp *Response, what string) error {
	var missing []string
	for p := range resp.Edits {
		if _, ok := e.ws.Doc(p); !ok {
			missing = append(missing, p)
		}
	}
	for _, rn := range resp.Renames {
		if _, ok := e.ws.Doc(rn.From); !ok && !slices.Contains(missing, rn.From) {
			missing = append(missing, rn.From)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		if _, err := e.ws.Acquire(missing); err != nil {
			return fault.Wrap(fault.KindOf(err), err, "%s: reading the files it changes", what)
		}
	}
	for p, base := range resp.Bases {
		if rev, ok := e.ws.Revision(p); ok && base != "" && rev != base {
			return fault.New(fault.Conflict, "%s: %s changed on disk while the language server computed the change; run it again", what, p)
		}
	}
	t := e.ws.Begin()
	paths := make([]string, 0, len(resp.Edits))
	for p := range resp.Edits {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		if err := t.Set(p, resp.Edits[p]); err != nil {
			return err
		}
	}
	for _, rn := range resp.Renames {
		if err := t.Move(rn.From, rn.To); err != nil {
			return fault.Wrap(fault.KindOf(err), err, "%s: moving %s to %s", what, rn.From, rn.To)
		}
	}
	return t.Commit()
}
