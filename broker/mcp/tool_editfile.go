package mcp

// This file defines seed 004's edit_file tool and its siblings read_file and
// write_file. They work on the files on disk (absolute paths), with this
// session's read tracking and undo history; edit_file refuses a file that
// has unwritten changes in this session's workspace.

import (
	"context"
	"encoding/json"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine/editfile"
)

// EditFileParams are edit_file's parameters: seed 004's, names,
// descriptions and all. The arguments are decoded by engine/editfile, which
// reports unknown parameters with the list of valid ones; a test keeps
// these fields and editfile.Params in step.
type EditFileParams struct {
	Command            string  `json:"command" jsonschema:"view | str_replace | insert | patch | replace_symbol | undo_edit"`
	FilePath           string  `json:"file_path" jsonschema:"Absolute path to the file"`
	Anchor             *string `json:"anchor,omitempty" jsonschema:"view: show the region around this unique string instead of a line range"`
	ContextAfter       *int    `json:"context_after,omitempty" jsonschema:"view: lines of context after an anchor match (default 20)"`
	ContextBefore      *int    `json:"context_before,omitempty" jsonschema:"view: lines of context before an anchor match (default 20)"`
	DryRun             bool    `json:"dry_run,omitempty" jsonschema:"str_replace/insert/patch/replace_symbol: preview the result (diff + would-be revision) without writing the file"`
	EndAnchor          *string `json:"end_anchor,omitempty" jsonschema:"str_replace: the end of the start_anchor/end_anchor range. Required with start_anchor."`
	InsertAfterAnchor  *string `json:"insert_after_anchor,omitempty" jsonschema:"insert: insert new_str directly after this unique string's line, instead of passing insert_line"`
	InsertBeforeAnchor *string `json:"insert_before_anchor,omitempty" jsonschema:"insert: insert new_str directly before this unique string's line, instead of passing insert_line"`
	InsertLine         *int    `json:"insert_line,omitempty" jsonschema:"insert: line number to insert after (0 = top of file)"`
	NewStr             *string `json:"new_str,omitempty" jsonschema:"str_replace: the replacement text. insert: the text to insert."`
	Occurrence         *int    `json:"occurrence,omitempty" jsonschema:"str_replace: 1-based index of which match to replace when old_str is not unique (see the error's line list)"`
	OldStr             *string `json:"old_str,omitempty" jsonschema:"str_replace: the exact current text to replace (byte-for-byte, unique in the file)"`
	Patch              *string `json:"patch,omitempty" jsonschema:"patch: a unified diff with one or more @@ hunks. Each hunk's context and removed lines must match the file byte-for-byte and appear exactly once."`
	Revision           string  `json:"revision,omitempty" jsonschema:"str_replace/insert/patch/replace_symbol: the file's revision from your last view/edit of it. If the file changed since then, the edit is rejected instead of silently overwriting the change."`
	StartAnchor        *string `json:"start_anchor,omitempty" jsonschema:"str_replace: replace from start_anchor through end_anchor (inclusive) instead of passing the whole block as old_str. Must be unique in the file."`
	Symbol             *string `json:"symbol,omitempty" jsonschema:"view/replace_symbol: a function/type/class/etc. name. Its extent is found lexically (brace depth or indentation) - must be declared exactly once in the file."`
	SymbolKind         string  `json:"symbol_kind,omitempty" jsonschema:"view/replace_symbol: narrow which declaration keywords count as a match, e.g. 'function' or 'type' - only useful when a function and a type share a name"`
	ValidateSyntax     bool    `json:"validate_syntax,omitempty" jsonschema:"str_replace/insert/patch/replace_symbol: reject the edit (nothing is written) if the resulting file fails a syntax check. Real parsing for .go/.json/.yaml/.yml; a balanced-delimiter check for other common source files; a no-op for unrecognized file types."`
	ViewRange          []int   `json:"view_range,omitempty" jsonschema:"view: [start, end] 1-based inclusive line range; end -1 reads to the end of the file"`
	Force              bool    `json:"force,omitempty" jsonschema:"str_replace/insert/patch/replace_symbol/undo_edit: change the file even though its owner has no write permission (mode such as 0444); the file keeps its mode. Without it such a file is refused, naming its mode."`
}

// editFileDoc is seed 004's description, plus what this broker adds.
const editFileDoc = `Edit a file. Pass command:
- view: show the file, or the view_range [start,end] (1-based, -1 = end), or the region around an anchor string or a named symbol (context_before/context_after lines, default 20), with line numbers.
- str_replace: replace old_str with new_str. old_str MUST match the file byte-for-byte (indentation and all) and appear EXACTLY ONCE - copy it from a view or read_file, or pass occurrence to pick one of several matches. Instead of old_str you can pass start_anchor/end_anchor to replace everything between two unique anchor strings. No fuzzy matching.
- insert: insert new_str after line insert_line (0 = before the first line), or pass insert_before_anchor/insert_after_anchor instead of a line number.
- patch: apply a standard unified diff (one or more @@ hunks) atomically. Each hunk's context+removed lines must match the file byte-for-byte and appear exactly once. In a file with CRLF endings an LF-written diff matches too and the endings are kept; a diff whose lines end in \r\n and match the file's real bytes is applied as written, so it can convert lines to CRLF or back.
- replace_symbol: replace a whole function/type/class/etc. by symbol name with new_str. The symbol must be declared exactly once in the file; its extent (where the block ends) is found lexically (brace depth or indentation), not with a language parser.
- undo_edit: revert the last mutation on this file.
str_replace, insert, patch, and replace_symbol require that you have read the file this turn, and return a numbered snippet of the changed region plus the file's new revision. Pass revision (from a prior view/edit) to reject the edit if the file changed since you read it. Pass dry_run to preview the result without writing. Pass validate_syntax to reject a result that fails a syntax check instead of writing it. A read-only file (no write permission for its owner, e.g. mode 0444) is refused unless you pass force. A view shows at most 256 KiB of numbered lines: a larger one fails (bounds) naming the view_range that fits. Absolute path required.
Constraints: read the file this turn before str_replace/insert/patch/replace_symbol; old_str must be byte-exact and unique unless occurrence is given (add surrounding lines to disambiguate instead); replace_symbol's extent detection is lexical, not a parser - an ambiguous or unrecognized declaration errors rather than guessing; validate_syntax runs before any write, so a rejected edit is never written, never needing an undo.
edit_file works on the file on disk and writes it at once; it refuses a file with unwritten changes in this session's dev_plan workspace (write or discard them first). See also: read_file, write_file.`

func (s *Server) editFileTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[EditFileParams]()
	setEnum(in, "command", editfile.Commands)
	in.Properties["view_range"].MinItems = ptr(2)
	in.Properties["view_range"].MaxItems = ptr(2)
	tool := &sdk.Tool{
		Name:         "edit_file",
		Title:        "Edit a file",
		Description:  editFileDoc,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.FileResult](),
	}
	return tool, s.fileHandler("edit_file", (*broker.Session).EditFile)
}

func ptr[T any](v T) *T { return &v }

// ReadFileParams are read_file's parameters.
type ReadFileParams struct {
	FilePath string `json:"file_path" jsonschema:"Absolute path to the file"`
	Offset   *int   `json:"offset,omitempty" jsonschema:"the 1-based line to start at (default 1)"`
	Limit    *int   `json:"limit,omitempty" jsonschema:"how many lines to return (default 2000)"`
}

func (s *Server) readFileTool() (*sdk.Tool, sdk.ToolHandler) {
	tool := &sdk.Tool{
		Name:         "read_file",
		Title:        "Read a file",
		Description:  "Read a file from disk: numbered lines (N<TAB>text), offset/limit for a part of a long file, and the file's revision. An answer holds at most 256 KiB of lines: a larger one fails (bounds) naming the limit that fits. Reading marks the file as read this turn, which edit_file needs before it edits. Absolute path required.",
		InputSchema:  schemaFor[ReadFileParams](),
		OutputSchema: schemaFor[wire.FileResult](),
	}
	return tool, s.fileHandler("read_file", (*broker.Session).ReadFile)
}

// WriteFileParams are write_file's parameters.
type WriteFileParams struct {
	FilePath string `json:"file_path" jsonschema:"Absolute path to the file; missing directories are created"`
	Content  string `json:"content" jsonschema:"the whole new content of the file"`
	Revision string `json:"revision,omitempty" jsonschema:"for an existing file, its revision from your last read; a mismatch rejects the write"`
	Force    bool   `json:"force,omitempty" jsonschema:"overwrite a file whose owner has no write permission (mode such as 0444); it keeps its mode. Without it such a file is refused, naming its mode."`
}

func (s *Server) writeFileTool() (*sdk.Tool, sdk.ToolHandler) {
	tool := &sdk.Tool{
		Name:         "write_file",
		Title:        "Write a whole file",
		Description:  "Write a whole file atomically and return its revision. An existing file must have been read this turn (read_file or edit_file view) at its current revision, like an edit. A read-only file (no write permission for its owner) is refused unless force is given. Content must be text: valid UTF-8 with no NUL byte. Absolute path required.",
		InputSchema:  schemaFor[WriteFileParams](),
		OutputSchema: schemaFor[wire.FileResult](),
	}
	return tool, s.fileHandler("write_file", (*broker.Session).WriteFile)
}

// fileHandler serves edit_file, read_file and write_file: the raw
// arguments go to engine/editfile, which decodes them strictly.
func (s *Server) fileHandler(name string, call func(*broker.Session, context.Context, []byte) (*editfile.Result, error)) sdk.ToolHandler {
	return s.handler(name, func(ctx context.Context, req *sdk.CallToolRequest, bs *broker.Session) *sdk.CallToolResult {
		args := req.Params.Arguments
		if len(args) == 0 || string(args) == "null" {
			args = json.RawMessage("{}")
		}
		r, err := call(bs, ctx, args)
		if err != nil {
			return errorResult(err) // structured: wire.Failure
		}
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: r.Text}},
			StructuredContent: wire.NewFileResult(r),
		}
	})
}
