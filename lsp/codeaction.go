package lsp

// This file defines the code actions of a range: listing them, and taking
// one's edits (resolved, or captured from its command) without applying
// them.

import (
	"context"
	"encoding/json"
	"fmt"
)

// ActionQuery is one codeAction request: a range and the diagnostics of
// its context.
type ActionQuery struct {
	Range       Range
	Diagnostics []Diagnostic
}

// CodeActions brings the server to docs (at their exact text) and lists
// the code actions it offers in the document at path for each of qs in
// turn, narrowed to the kinds only (nil: all). An action whose title and
// kind an earlier query gave is left out. A quick fix is best asked for
// at its diagnostic's range with that diagnostic in context: gopls
// offers quick fixes only for diagnostics it is given, and its fixes
// find their subject at the request's range.
func (s *Server) CodeActions(ctx context.Context, docs []Document, path string, qs []ActionQuery, only []string) ([]CodeAction, error) {
	in, err := s.begin(ctx, docs, MethodCodeAction, "code actions", false)
	if err != nil {
		return nil, err
	}
	defer s.release()
	return in.codeActions(ctx, path, qs, only)
}

// ApplyCodeAction lists the code actions as CodeActions does and, in the
// same turn of the server, has choose pick one (its index in the list),
// then returns it and its edits: its own, resolved through
// codeAction/resolve when it comes without one and the server resolves
// actions, and those its command asks the client to apply (captured,
// never applied).
func (s *Server) ApplyCodeAction(ctx context.Context, docs []Document, path string, qs []ActionQuery, only []string, choose func([]CodeAction) (int, error)) (*CodeAction, []WorkspaceEdit, error) {
	in, err := s.begin(ctx, docs, MethodCodeAction, "code actions", false)
	if err != nil {
		return nil, nil, err
	}
	defer s.release()
	actions, err := in.codeActions(ctx, path, qs, only)
	if err != nil {
		return nil, nil, err
	}
	i, err := choose(actions)
	if err != nil {
		return nil, nil, err
	}
	a := &actions[i]
	edits, err := in.resolveAction(ctx, a)
	if err != nil {
		return a, nil, err
	}
	return a, edits, nil
}

func (in *instance) codeActions(ctx context.Context, path string, qs []ActionQuery, only []string) ([]CodeAction, error) {
	var out []CodeAction
	seen := map[[2]string]bool{}
	for _, q := range qs {
		var p codeActionParams
		p.TextDocument.URI = URI(path)
		p.Range = q.Range
		p.Context.Diagnostics = q.Diagnostics
		if p.Context.Diagnostics == nil {
			p.Context.Diagnostics = []Diagnostic{}
		}
		p.Context.Only = only
		var raw json.RawMessage
		if err := in.call(ctx, MethodCodeAction, p, &raw); err != nil {
			return nil, fmt.Errorf("listing code actions: %w", declined(err))
		}
		for _, a := range decodeCodeActions(raw) {
			if key := [2]string{a.Title, a.Kind}; !seen[key] {
				seen[key] = true
				out = append(out, a)
			}
		}
	}
	return out, nil
}

// decodeCodeActions reads a codeAction answer: a list of CodeActions and
// Commands. An element that cannot be read, or has no title, is left out.
func decodeCodeActions(raw json.RawMessage) []CodeAction {
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return nil
	}
	out := make([]CodeAction, 0, len(list))
	for _, r := range list {
		var a CodeAction
		if json.Unmarshal(r, &a) != nil || a.Title == "" {
			continue
		}
		out = append(out, a)
	}
	return out
}
