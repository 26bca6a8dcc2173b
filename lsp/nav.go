package lsp

// This file defines the requests that answer about code without changing
// it: definition, references, hover, a document's symbols and a
// workspace symbol search. Each brings the server to the request's
// documents first, so what it answers is about the content given, and
// fails with an error wrapping ErrNotOffered when the server does not
// offer it.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"go.lsp.dev/jsonrpc2"
)

// begin acquires the server, checks that it offers method (what names
// it for the error) and brings it to docs (pad: as for diagnostics, see
// sync.go). On success the caller must call s.release.
func (s *Server) begin(ctx context.Context, docs []Document, method, what string, pad bool) (*instance, error) {
	in, err := s.acquire(ctx)
	if err != nil {
		return nil, err
	}
	if err := in.offered(method, what); err != nil {
		s.release()
		return nil, err
	}
	if err := s.sync(ctx, in, docs, pad); err != nil {
		s.release()
		return nil, err
	}
	return in, nil
}

// ask brings the server to docs and calls method, returning the raw
// answer. Documents at disk content are sent padded, as for diagnostics:
// positions are the same but for the end of the file, and the server is
// not made to take a put-back for a save.
func (s *Server) ask(ctx context.Context, docs []Document, method, what string, params any) (json.RawMessage, error) {
	in, err := s.begin(ctx, docs, method, what, true)
	if err != nil {
		return nil, err
	}
	defer s.release()
	var raw json.RawMessage
	if err := in.call(ctx, method, params, &raw); err != nil {
		return nil, declined(err)
	}
	return raw, nil
}

// ErrDeclined marks a request the server answered with an error (gopls's
// "no identifier found" for references on a keyword): it is alive and
// gave its reason, so asking again the same way does not help.
var ErrDeclined = errors.New("declined")

// declined marks an error answer as the server's refusal (ErrDeclined),
// but for the codes that ask for a retry (the content changed, the
// request was cancelled, the server is not ready); other errors (a dead
// server, a timeout) are returned as they are.
func declined(err error) error {
	var rpc *jsonrpc2.Error
	if !errors.As(err, &rpc) {
		return err
	}
	switch rpc.Code {
	case codeContentModified, codeRequestCancelled, codeServerNotInitialized:
		return err
	}
	return fmt.Errorf("%s: %w", rpc.Message, ErrDeclined)
}

// The error codes of LSP (and JSON-RPC) that ask the client to try again.
const (
	codeServerNotInitialized jsonrpc2.Code = -32002
	codeRequestCancelled     jsonrpc2.Code = -32800
	codeContentModified      jsonrpc2.Code = -32801
)

func at(path string, pos Position) textDocumentPositionParams {
	return textDocumentPositionParams{TextDocument: textDocumentIdentifier{URI: URI(path)}, Position: pos}
}

// Definition brings the server to docs and asks where the symbol at pos
// in the document at path is defined.
func (s *Server) Definition(ctx context.Context, docs []Document, path string, pos Position) ([]Location, error) {
	raw, err := s.ask(ctx, docs, MethodDefinition, "definition", at(path, pos))
	if err != nil {
		return nil, err
	}
	return decodeLocations(raw), nil
}

// References brings the server to docs and asks where the symbol at pos
// in the document at path is used, its declaration too when decl is set.
func (s *Server) References(ctx context.Context, docs []Document, path string, pos Position, decl bool) ([]Location, error) {
	p := referenceParams{textDocumentPositionParams: at(path, pos)}
	p.Context.IncludeDeclaration = decl
	raw, err := s.ask(ctx, docs, MethodReferences, "references", p)
	if err != nil {
		return nil, err
	}
	return decodeLocations(raw), nil
}

// Hover brings the server to docs and returns its hover text for pos in
// the document at path (markdown or plain text, as the server wrote it);
// "" when it has none.
func (s *Server) Hover(ctx context.Context, docs []Document, path string, pos Position) (string, error) {
	raw, err := s.ask(ctx, docs, MethodHover, "hover", at(path, pos))
	if err != nil {
		return "", err
	}
	return decodeHover(raw), nil
}

// DocumentSymbols brings the server to docs and returns the outline of the
// document at path: a tree when the server gives one, else a flat list.
func (s *Server) DocumentSymbols(ctx context.Context, docs []Document, path string) ([]Symbol, error) {
	raw, err := s.ask(ctx, docs, MethodDocumentSymbol, "document symbols", documentSymbolParams{TextDocument: textDocumentIdentifier{URI: URI(path)}})
	if err != nil {
		return nil, err
	}
	return decodeSymbols(raw, path), nil
}

// WorkspaceSymbols brings the server to docs and searches the workspace's
// symbols for query.
func (s *Server) WorkspaceSymbols(ctx context.Context, docs []Document, query string) ([]Symbol, error) {
	raw, err := s.ask(ctx, docs, MethodWorkspaceSymbol, "workspace symbol search", workspaceSymbolParams{Query: query})
	if err != nil {
		return nil, err
	}
	return decodeSymbols(raw, ""), nil
}
