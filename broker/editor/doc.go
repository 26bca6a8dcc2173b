// Package editor is devbroker's editor endpoint: JSON-RPC 2.0 with LSP
// framing (Content-Length headers), one connection per broker session,
// served by [Serve]. docs/editor-protocol.md describes the protocol with an
// example of every method.
//
// An editor syncs its buffers (textDocument/didOpen, didChange, didClose,
// didSave), so unsaved text is the session's view of those files; it runs
// seed-000 plans with devbroker/plan and, with apply "editor", gets the
// plan's changes back as an LSP WorkspaceEdit to apply to its buffers with
// its own undo, the disk untouched by the broker; a plan that is not ok
// gets no edit, and the session drops its changes. It also calls edit_file
// and its siblings (devbroker/editFile, readFile, writeFile), the probe and
// discard, and can ask for diagnostics as textDocument/publishDiagnostics.
//
// Invariant: this package and broker/ are the only ones that know this wire
// format; the types in wire.go and the DevResult of broker/wire (shared
// with the MCP server) are its types, mapped from the engine's.
package editor
