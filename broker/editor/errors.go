package editor

// This file maps errors to JSON-RPC error codes. Every error the endpoint
// returns carries as data the one error shape of every surface, wire.Error:
// {kind, message, retryable}, with the error kinds of a DevResult.

import (
	"context"
	"encoding/json"
	"errors"

	"go.lsp.dev/jsonrpc2"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine/fault"
)

// The endpoint's own error codes, in JSON-RPC's range for
// implementation-defined server errors, one per error kind that has no
// standard code. bad_argument is InvalidParams (-32602), internal is
// InternalError (-32603), a cancelled request is LSP's RequestCancelled.
const (
	CodeNotFound       jsonrpc2.Code = -32010
	CodeAmbiguous      jsonrpc2.Code = -32011
	CodeNoMatch        jsonrpc2.Code = -32012
	CodeConflict       jsonrpc2.Code = -32013
	CodeBounds         jsonrpc2.Code = -32014
	CodeUnavailable    jsonrpc2.Code = -32015
	CodeIO             jsonrpc2.Code = -32016
	CodeTimeout        jsonrpc2.Code = -32017
	CodeCancelled      jsonrpc2.Code = -32800
	CodeNotInitialized               = jsonrpc2.ServerNotInitialized
)

// codes maps each error kind to its code.
var codes = map[fault.Kind]jsonrpc2.Code{
	fault.BadArgument: jsonrpc2.InvalidParams,
	fault.NotFound:    CodeNotFound,
	fault.Ambiguous:   CodeAmbiguous,
	fault.NoMatch:     CodeNoMatch,
	fault.Conflict:    CodeConflict,
	fault.Bounds:      CodeBounds,
	fault.Unavailable: CodeUnavailable,
	fault.IO:          CodeIO,
	fault.Timeout:     CodeTimeout,
	fault.Internal:    jsonrpc2.InternalError,
}

// wireError maps err to a JSON-RPC error with its kind as data.
func wireError(err error) *jsonrpc2.Error {
	var we *jsonrpc2.Error
	if errors.As(err, &we) {
		return we
	}
	kind := fault.KindOf(err)
	code := codes[kind]
	switch {
	case errors.Is(err, context.Canceled):
		code, kind = CodeCancelled, fault.IO
	case errors.Is(err, context.DeadlineExceeded):
		code, kind = CodeTimeout, fault.Timeout
	}
	return newError(code, kind, err.Error())
}

// newError builds an error with code, kind and message.
func newError(code jsonrpc2.Code, kind fault.Kind, msg string) *jsonrpc2.Error {
	data, _ := json.Marshal(wire.KindError(kind, msg))
	raw := json.RawMessage(data)
	return &jsonrpc2.Error{Code: code, Message: msg, Data: &raw}
}

// badParams is the error for parameters that do not decode.
func badParams(method string, err error) *jsonrpc2.Error {
	return newError(jsonrpc2.InvalidParams, fault.BadArgument, method+": invalid params: "+err.Error())
}
