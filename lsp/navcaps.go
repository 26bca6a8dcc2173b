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

// providers are the capabilities' entries for the requests named by the
// Method constants.
func (c *serverCapabilities) providers() map[string]json.RawMessage {
	return map[string]json.RawMessage{
		MethodDefinition:      c.DefinitionProvider,
		MethodReferences:      c.ReferencesProvider,
		MethodHover:           c.HoverProvider,
		MethodDocumentSymbol:  c.DocumentSymbolProvider,
		MethodWorkspaceSymbol: c.WorkspaceSymbolProvider,
		MethodRename:          c.RenameProvider,
		MethodCodeAction:      c.CodeActionProvider,
		MethodFormatting:      c.DocumentFormatting,
	}
}

// offers reports whether the capabilities offer method.
func (c *serverCapabilities) offers(method string) bool {
	return provided(c.providers()[method])
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
	for m, raw := range in.caps.providers() {
		if provided(raw) {
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
