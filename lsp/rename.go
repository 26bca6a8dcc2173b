package lsp

// This file defines rename: the server's edit for renaming a symbol,
// returned, never applied.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// ErrCannotRename reports a position the server will not rename (its
// prepareRename declined it, or its rename failed with an error answer).
var ErrCannotRename = errors.New("cannot rename")

// Rename brings the server to docs (at their exact text) and asks it to
// rename the symbol at pos in the document at path to newName. A server
// that offers prepareRename is asked first: a position it declines fails
// with its reason. The edit is the server's, unapplied.
func (s *Server) Rename(ctx context.Context, docs []Document, path string, pos Position, newName string) (*WorkspaceEdit, error) {
	in, err := s.begin(ctx, docs, MethodRename, "rename", false)
	if err != nil {
		return nil, err
	}
	defer s.release()
	here := at(path, pos)
	if option(in.caps.RenameProvider, "prepareProvider") {
		var raw json.RawMessage
		if err := in.call(ctx, "textDocument/prepareRename", here, &raw); err != nil {
			return nil, refused(err)
		}
		if s := string(raw); s == "" || s == "null" {
			return nil, fmt.Errorf("%s says there is nothing to rename at %d:%d: %w", in.name, pos.Line+1, pos.Character+1, ErrCannotRename)
		}
	}
	var w *WorkspaceEdit
	if err := in.call(ctx, MethodRename, renameParams{textDocumentPositionParams: here, NewName: newName}, &w); err != nil {
		return nil, refused(err)
	}
	if w == nil {
		w = &WorkspaceEdit{}
	}
	return w, nil
}

// refused marks an error answer as the server's refusal (ErrCannotRename);
// other errors (a dead server, a timeout) are returned as they are.
func refused(err error) error {
	var rpc *jsonrpc2.Error
	if errors.As(err, &rpc) {
		return fmt.Errorf("%s: %w", rpc.Message, ErrCannotRename)
	}
	return err
}
