package lsp

// This file defines the requests that produce edits: formatting and the
// quick fixes of code actions. Edits stay edits: nothing here writes a
// file; a command that answers with workspace/applyEdit has its edit
// captured and returned.

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Format brings the server to docs and formats the document at path,
// which must be among docs. It returns the server's edits (UTF-16
// positions in that document's text).
func (s *Server) Format(ctx context.Context, docs []Document, path string) ([]TextEdit, error) {
	in, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer s.release()
	if err := s.sync(ctx, in, docs, false); err != nil {
		return nil, err
	}
	if !provided(in.caps.DocumentFormatting) {
		return nil, fmt.Errorf("%s does not format documents", in.name)
	}
	var p formattingParams
	p.TextDocument.URI = URI(path)
	p.Options.TabSize = 4
	var edits []TextEdit
	if err := in.call(ctx, "textDocument/formatting", p, &edits); err != nil {
		return nil, err
	}
	return edits, nil
}

// ErrNoRangeFormatting is the error of [Server.FormatRanges] on a server
// that offers no range formatting (gopls, for one).
var ErrNoRangeFormatting = errors.New("the server does not offer range formatting (textDocument/rangeFormatting)")

// FormatRanges brings the server to docs and asks it to format each of
// ranges (UTF-16 positions) of the document at path, which must be among
// docs. It returns the server's edits for them all, in that document's
// text; [ErrNoRangeFormatting] when the server does not offer it.
func (s *Server) FormatRanges(ctx context.Context, docs []Document, path string, ranges []Range) ([]TextEdit, error) {
	in, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer s.release()
	if err := s.sync(ctx, in, docs, false); err != nil {
		return nil, err
	}
	if !provided(in.caps.DocumentRangeFormatting) {
		return nil, fmt.Errorf("%s: %w", in.name, ErrNoRangeFormatting)
	}
	var all []TextEdit
	for _, r := range ranges {
		var p rangeFormattingParams
		p.TextDocument.URI = URI(path)
		p.Options.TabSize = 4
		p.Range = r
		var edits []TextEdit
		if err := in.call(ctx, "textDocument/rangeFormatting", p, &edits); err != nil {
			return nil, err
		}
		all = append(all, edits...)
	}
	return all, nil
}

// Fix is one quick fix for one diagnostic: the edits it makes, by
// absolute path (UTF-16 positions in the content the server was given).
type Fix struct {
	Title string
	// Diagnostic is the index, in the list given to Fixes, of the
	// diagnostic the fix is for.
	Diagnostic int
	Edits      map[string][]TextEdit
}

// Fixes brings the server to docs and asks, for each of diags (published
// for the document at path), the quick fixes it offers. Of each
// diagnostic's quick fixes the preferred one is taken, else the first. A
// fix that is a command is run, and the edit it asks the client to apply
// is captured instead of applied.
func (s *Server) Fixes(ctx context.Context, docs []Document, path string, diags []Diagnostic) ([]Fix, error) {
	in, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer s.release()
	if err := s.sync(ctx, in, docs, false); err != nil {
		return nil, err
	}
	if !provided(in.caps.CodeActionProvider) {
		return nil, nil
	}
	var fixes []Fix
	for i, d := range diags {
		var p codeActionParams
		p.TextDocument.URI = URI(path)
		p.Range = d.Range
		p.Context.Diagnostics = []Diagnostic{d}
		p.Context.Only = []string{"quickfix"}
		var actions []CodeAction
		if err := in.call(ctx, "textDocument/codeAction", p, &actions); err != nil {
			return fixes, err
		}
		a := pick(actions)
		if a == nil {
			continue
		}
		we, err := in.resolveAction(ctx, a)
		if err != nil {
			return fixes, err
		}
		edits := map[string][]TextEdit{}
		for _, w := range we {
			byURI, _ := w.Edits()
			for u, es := range byURI {
				if fp := Path(u); fp != "" {
					edits[fp] = append(edits[fp], es...)
				}
			}
		}
		if len(edits) > 0 {
			fixes = append(fixes, Fix{Title: a.Title, Diagnostic: i, Edits: edits})
		}
	}
	return fixes, nil
}

// pick returns the preferred enabled quick fix, else the first one.
func pick(actions []CodeAction) *CodeAction {
	var first *CodeAction
	for i := range actions {
		a := &actions[i]
		if a.Disabled != nil || !actionRuns(a) || (a.Kind != "" && a.Kind != "quickfix" && !hasPrefix(a.Kind, "quickfix.")) {
			continue
		}
		if a.IsPreferred {
			return a
		}
		if first == nil {
			first = a
		}
	}
	return first
}

func hasPrefix(s, p string) bool { return len(s) >= len(p) && s[:len(p)] == p }

// resolveAction returns an action's edits: its own (resolved through
// codeAction/resolve first when it has none and the server resolves
// actions), and those its command asks the client to apply.
func (in *instance) resolveAction(ctx context.Context, a *CodeAction) ([]WorkspaceEdit, error) {
	if a.Edit == nil && a.raw != nil && (len(a.Data) > 0 || a.Command == nil) && option(in.caps.CodeActionProvider, "resolveProvider") {
		var r CodeAction
		if err := in.call(ctx, "codeAction/resolve", a.raw, &r); err != nil {
			return nil, fmt.Errorf("resolving %q: %w", a.Title, err)
		}
		resolved := *a
		resolved.Edit = r.Edit
		if r.Command != nil {
			resolved.Command = r.Command
		}
		a = &resolved
	}
	var out []WorkspaceEdit
	if a.Edit != nil {
		out = append(out, *a.Edit)
	}
	if a.Command == nil {
		return out, nil
	}
	if !CommandRuns(a.Command.Command) {
		return nil, fmt.Errorf("%q runs %s: %w", a.Title, a.Command.Command, ErrCommandNotRun)
	}
	var captured []WorkspaceEdit
	in.mu.Lock()
	in.sink = func(w WorkspaceEdit) { captured = append(captured, w) }
	in.mu.Unlock()
	args := make([]any, len(a.Command.Arguments))
	for i, r := range a.Command.Arguments {
		args[i] = r
	}
	err := in.call(ctx, "workspace/executeCommand", executeCommandParams{Command: a.Command.Command, Arguments: args}, nil)
	in.mu.Lock()
	in.sink = nil
	got := slices.Clone(captured)
	in.mu.Unlock()
	if err != nil {
		return out, fmt.Errorf("running %q: %w", a.Title, err)
	}
	return append(out, got...), nil
}
