package editor

// This file defines the endpoint's wire types and maps engine and
// capability values to them. Engine types never reach the wire themselves.
// Positions on the wire are LSP positions (0-based line, column in the
// negotiated encoding); the DevResult keeps seed 000's 1-based lines and
// character columns, as every other devbroker surface reports them.

import (
	"go.lsp.dev/protocol"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/editfile"
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

// DevResult is a plan's outcome: seed 000's DevResult.
type DevResult struct {
	OK          bool              `json:"ok"`
	Reads       map[string]string `json:"reads"`
	Changes     []Change          `json:"changes"`
	Written     []string          `json:"written"`
	Diagnostics []Diagnostic      `json:"diagnostics"`
	Drivers     []DriverStatus    `json:"drivers,omitempty"`
	// Unwritten lists the paths whose workspace changes are not on disk
	// after the call (unsaved buffers among them).
	Unwritten []string   `json:"unwritten"`
	Error     *StepError `json:"error,omitempty"`
}

// Change is one file's difference from what was acquired.
type Change struct {
	Path    string `json:"path"`
	Kind    string `json:"kind"`
	From    string `json:"from,omitempty"`
	Added   int    `json:"added"`
	Removed int    `json:"removed"`
}

// Diagnostic is one finding: 1-based lines, columns in characters.
type Diagnostic struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Severity  string `json:"severity"`
	Source    string `json:"source"`
	Code      string `json:"code,omitempty"`
	Message   string `json:"message"`
}

// DriverStatus is one driver's status in an answer.
type DriverStatus struct {
	Driver  string `json:"driver"`
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
}

// StepError is the failure of a step or of the plan.
type StepError struct {
	Step      int      `json:"step"`
	Name      string   `json:"name"`
	Kind      string   `json:"kind"`
	Message   string   `json:"message"`
	Retryable bool     `json:"retryable"`
	Written   []string `json:"written,omitempty"`
	Temp      string   `json:"temp,omitempty"`
}

// PlanResult is devbroker/plan's result: the DevResult, the apply mode,
// and with apply "editor" the edit that brings the editor to the
// workspace's state.
type PlanResult struct {
	DevResult
	Apply string         `json:"apply"`
	Edit  *WorkspaceEdit `json:"edit,omitempty"`
}

// WorkspaceEdit is an LSP WorkspaceEdit with documentChanges: in order,
// RenameFile, DeleteFile and CreateFile operations, then TextDocumentEdits.
// (go.lsp.dev/protocol's WorkspaceEdit holds only TextDocumentEdits.)
type WorkspaceEdit struct {
	DocumentChanges []any `json:"documentChanges"`
}

// FileResult is the result of devbroker/editFile, readFile and writeFile.
type FileResult struct {
	Path     string `json:"path"`
	Text     string `json:"text"`
	Revision string `json:"revision"`
	Diff     string `json:"diff,omitempty"`
	Changed  bool   `json:"changed"`
}

// ProbeResult is devbroker/probe's result.
type ProbeResult struct {
	Drivers   []DriverReport      `json:"drivers"`
	Available map[string][]string `json:"available"`
	Steps     []string            `json:"steps"`
}

// DriverReport is one driver's line of the probe report.
type DriverReport struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Kinds   []string `json:"kinds"`
	State   string   `json:"state"`
	Reason  string   `json:"reason,omitempty"`
	Version string   `json:"version,omitempty"`
	Path    string   `json:"path,omitempty"`
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

func devResult(r *engine.Result, unwritten []string) DevResult {
	out := DevResult{
		OK: r.OK, Reads: map[string]string{}, Changes: []Change{}, Written: []string{},
		Diagnostics: []Diagnostic{}, Unwritten: []string{},
	}
	for k, v := range r.Reads {
		out.Reads[k] = v
	}
	for _, c := range r.Changes {
		out.Changes = append(out.Changes, Change{Path: c.Path, Kind: string(c.Kind), From: c.From, Added: c.Added, Removed: c.Removed})
	}
	out.Written = append(out.Written, r.Written...)
	for _, d := range r.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, Diagnostic{
			Path: d.Path, Line: d.Line, Column: d.Column, EndLine: d.EndLine, EndColumn: d.EndColumn,
			Severity: string(d.Severity), Source: d.Source, Code: d.Code, Message: d.Message,
		})
	}
	for _, d := range r.Drivers {
		out.Drivers = append(out.Drivers, DriverStatus{Driver: d.Driver, Status: string(d.Status), Message: d.Message})
	}
	out.Unwritten = append(out.Unwritten, unwritten...)
	if e := r.Error; e != nil {
		out.Error = &StepError{
			Step: e.Step, Name: e.Name, Kind: string(e.Kind), Message: e.Message,
			Retryable: e.Retryable, Written: e.Written, Temp: e.Temp,
		}
	}
	return out
}

func fileResult(r *editfile.Result) *FileResult {
	return &FileResult{Path: r.Path, Text: r.Text, Revision: r.Revision, Diff: r.Diff, Changed: r.Changed}
}

func probeResult(r *capabilities.Report, steps []string) *ProbeResult {
	out := &ProbeResult{Drivers: []DriverReport{}, Available: available(r), Steps: steps}
	for _, d := range r.Drivers {
		kinds := make([]string, len(d.Kinds))
		for i, k := range d.Kinds {
			kinds[i] = string(k)
		}
		out.Drivers = append(out.Drivers, DriverReport{
			Name: d.Name, Type: d.Type, Kinds: kinds, State: string(d.State),
			Reason: d.Reason, Version: d.Version, Path: d.Path,
		})
	}
	return out
}

// available lists, per capability kind, the languages with a working
// driver.
func available(r *capabilities.Report) map[string][]string {
	out := map[string][]string{}
	for _, k := range []engine.Kind{engine.Format, engine.Lint, engine.Check} {
		out[string(k)] = append([]string{}, r.Available[k]...)
	}
	return out
}
