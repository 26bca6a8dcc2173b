package lsp

// This file reads a WorkspaceEdit as the ordered steps a client applies:
// text edits to documents, and files created, renamed and deleted. The
// lsp package applies none of them: callers turn them into a change of
// their own (see capabilities/lspdriver).

import (
	"maps"
	"slices"
)

// File operations of a [FileOp].
const (
	OpEdit   = "edit"
	OpCreate = "create"
	OpRename = "rename"
	OpDelete = "delete"
)

// FileOp is one step of a workspace edit.
type FileOp struct {
	// Kind is OpEdit, OpCreate, OpRename or OpDelete; another value is
	// an operation this client does not know.
	Kind string
	// Path is the file edited, created, deleted, or renamed from; NewPath
	// a rename's destination. Both are absolute, "" for a URI that is not
	// a file (URI and NewURI then say what the server named).
	Path, NewPath string
	URI, NewURI   string
	// Edits are an edit's text edits (UTF-16 positions in the document).
	Edits []TextEdit
	// The options of a create, rename or delete.
	Overwrite, IgnoreIfExists, Recursive, IgnoreIfNotExists bool
}

// Ops returns the edit's steps in order: its documentChanges when it has
// them (which LSP prefers over changes), else its changes by URI.
func (w *WorkspaceEdit) Ops() []FileOp {
	if len(w.DocumentChanges) == 0 {
		var out []FileOp
		for _, u := range slices.Sorted(maps.Keys(w.Changes)) {
			out = append(out, FileOp{Kind: OpEdit, Path: Path(u), URI: u, Edits: w.Changes[u]})
		}
		return out
	}
	out := make([]FileOp, 0, len(w.DocumentChanges))
	for _, dc := range w.DocumentChanges {
		op := FileOp{Kind: dc.Kind}
		switch dc.Kind {
		case "":
			op.Kind, op.URI, op.Edits = OpEdit, dc.TextDocument.URI, dc.Edits
		case OpRename:
			op.URI, op.NewURI = dc.OldURI, dc.NewURI
			op.NewPath = Path(dc.NewURI)
		default:
			op.URI = dc.URI
		}
		op.Path = Path(op.URI)
		if o := dc.Options; o != nil {
			op.Overwrite, op.IgnoreIfExists, op.Recursive, op.IgnoreIfNotExists = o.Overwrite, o.IgnoreIfExists, o.Recursive, o.IgnoreIfNotExists
		}
		out = append(out, op)
	}
	return out
}
