package editor

// This file defines the endpoint's own wire types and maps engine and
// capability values to them. Engine types never reach the wire themselves.
// The DevResult, edit_file's result, the probe's answer and every error's
// data are broker/wire's, the one encoding every surface sends. Positions on the wire are LSP positions (0-based
// line, column in the negotiated encoding); the DevResult keeps its
// 1-based lines and character columns, as every other devbroker surface
// reports them.

import (
	"go.lsp.dev/protocol"

	"github.com/devbroker/devbroker/broker/wire"
)

// InitializeParams are initialize's parameters: the LSP fields the endpoint
// reads. Other LSP fields are accepted and ignored.
type InitializeParams struct {
	ProcessID  *int32 `json:"processId,omitempty"`
	ClientInfo *struct {
		Name    string `json:"name"`
		Version string `json:"version,omitempty"`
	} `json:"clientInfo,omitempty"`
	Capabilities struct {
		General struct {
			// PositionEncodings lists the encodings the client supports,
			// preferred first: "utf-16" (the default), "utf-8", "utf-32".
			PositionEncodings []string `json:"positionEncodings,omitempty"`
		} `json:"general"`
	} `json:"capabilities"`
	InitializationOptions struct {
		// PublishDiagnostics asks for textDocument/publishDiagnostics
		// after every plan that runs lint or check.
		PublishDiagnostics bool `json:"publishDiagnostics,omitempty"`
	} `json:"initializationOptions"`
}

// InitializeResult is initialize's result.
type InitializeResult struct {
	ServerInfo   ServerInfo         `json:"serverInfo"`
	Capabilities ServerCapabilities `json:"capabilities"`
	Devbroker    Info               `json:"devbroker"`
}

// ServerInfo names the server.
type ServerInfo struct {
	Name    string `json:"name"`
	Version string `json:"version"`
}

// ServerCapabilities are the LSP capabilities the endpoint has.
type ServerCapabilities struct {
	// PositionEncoding is the encoding of every position on the wire.
	PositionEncoding string       `json:"positionEncoding"`
	TextDocumentSync TextSyncInfo `json:"textDocumentSync"`
}

// TextSyncInfo says how buffers are synced: open/close, full or
// incremental changes (2), and save notifications without text.
type TextSyncInfo struct {
	OpenClose bool `json:"openClose"`
	Change    int  `json:"change"`
	Save      struct {
		IncludeText bool `json:"includeText"`
	} `json:"save"`
}

// Info is what devbroker adds to initialize's result.
type Info struct {
	// Session is the broker session this connection is.
	Session string `json:"session"`
	// Root is the root directory the session works on.
	Root string `json:"root"`
	// Steps are the plan steps available now.
	Steps []string `json:"steps"`
	// Available lists, for format, lint and check, the languages that
	// have a working driver (from the probe).
	Available map[string][]string `json:"available"`
	// ApplyModes are the values of devbroker/plan's apply.
	ApplyModes []string `json:"applyModes"`
	// PublishDiagnostics echoes the initialization option.
	PublishDiagnostics bool `json:"publishDiagnostics"`
	// Methods lists the requests and notifications the endpoint serves.
	Methods []string `json:"methods"`
}

// PlanResult is devbroker/plan's result: the DevResult, the apply mode,
// with apply "editor" and an ok plan the edit that brings the editor to
// the workspace's state, and for a plan that failed the files whose
// changes the session dropped.
type PlanResult struct {
	wire.DevResult
	Apply string         `json:"apply"`
	Edit  *WorkspaceEdit `json:"edit,omitempty"`
	// Reverted lists the files the plan changed before it failed; the
	// session dropped those changes, so the workspace is what it was
	// before the plan.
	Reverted []string `json:"reverted,omitempty"`
}

// WorkspaceEdit is an LSP WorkspaceEdit with documentChanges: in order,
// RenameFile, DeleteFile and CreateFile operations, then TextDocumentEdits.
// (go.lsp.dev/protocol's WorkspaceEdit holds only TextDocumentEdits.)
type WorkspaceEdit struct {
	DocumentChanges []any `json:"documentChanges"`
}

// DiscardResult is devbroker/discard's result.
type DiscardResult struct {
	// Discarded lists the paths whose content the discard changed.
	Discarded []string `json:"discarded"`
	// Buffers lists the open buffers put back into the workspace.
	Buffers []string `json:"buffers"`
}

// ContentChange is one textDocument/didChange change: the whole text when
// Range is absent, else a replacement of Range.
type ContentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// DidChangeParams are textDocument/didChange's parameters.
type DidChangeParams struct {
	TextDocument   protocol.VersionedTextDocumentIdentifier `json:"textDocument"`
	ContentChanges []ContentChange                          `json:"contentChanges"`
}
