package lsp

// This file defines which requests a server offers, read from its
// initialize answer: a request it does not offer is not sent, and fails
// with an error wrapping [ErrNotOffered].

import (
	"encoding/json"
	"errors"
	"fmt"
)

// Requests a server may offer ([Server.Offers]).
const (
	MethodDefinition      = "textDocument/definition"
	MethodReferences      = "textDocument/references"
	MethodHover           = "textDocument/hover"
	MethodDocumentSymbol  = "textDocument/documentSymbol"
	MethodWorkspaceSymbol = "workspace/symbol"
	MethodRename          = "textDocument/rename"
	MethodCodeAction      = "textDocument/codeAction"
	MethodFormatting      = "textDocument/formatting"
)

// ErrNotOffered reports a request the server's initialize answer does not
// offer.
var ErrNotOffered = errors.New("not offered by the language server")

// offers reports whether the capabilities offer method.
func (c *serverCapabilities) offers(method string) bool {
	switch method {
	case MethodDefinition:
		return provided(c.DefinitionProvider)
	case MethodReferences:
		return provided(c.ReferencesProvider)
	case MethodHover:
		return provided(c.HoverProvider)
	case MethodDocumentSymbol:
		return provided(c.DocumentSymbolProvider)
	case MethodWorkspaceSymbol:
		return provided(c.WorkspaceSymbolProvider)
	case MethodRename:
		return provided(c.RenameProvider)
	case MethodCodeAction:
		return provided(c.CodeActionProvider)
	case MethodFormatting:
		return provided(c.DocumentFormatting)
	}
	return false
}

// option reports whether a capability's options object sets name to true
// (renameProvider's prepareProvider, codeActionProvider's
// resolveProvider).
func option(raw json.RawMessage, name string) bool {
	var o map[string]json.RawMessage
	if json.Unmarshal(raw, &o) != nil {
		return false
	}
	return string(o[name]) == "true"
}

// methods are the requests Offers reports on.
var methods = []string{MethodDefinition, MethodReferences, MethodHover, MethodDocumentSymbol, MethodWorkspaceSymbol, MethodRename, MethodCodeAction, MethodFormatting}

// Offers returns, of the requests named by the Method constants, those the
// running server offers (its initialize answer); nil when no server runs.
func (s *Server) Offers() map[string]bool {
	s.mu.Lock()
	in := s.inst
	s.mu.Unlock()
	if in == nil {
		return nil
	}
	out := map[string]bool{}
	for _, m := range methods {
		if in.caps.offers(m) {
			out[m] = true
		}
	}
	return out
}

// offered fails when in does not offer method; what names the request
// for the error ("rename").
func (in *instance) offered(method, what string) error {
	if in.caps.offers(method) {
		return nil
	}
	return fmt.Errorf("%s does not offer %s (%s is not in its initialize answer's capabilities): %w", in.name, what, method, ErrNotOffered)
}
