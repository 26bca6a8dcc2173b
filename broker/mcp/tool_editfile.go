package mcp

// This file defines the edit_file tool and its siblings read_file and
// write_file. They work on the files on disk (absolute paths), with this
// session's read tracking and undo history; edit_file refuses a file that
// has unwritten changes in this session's workspace.

import (
	"context"
	"encoding/json"
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
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
	ReplaceAll         bool    `json:"replace_all,omitempty" jsonschema:"str_replace: replace every occurrence of old_str (non-overlapping, left to right), not exactly one; the result's replaced counts them. Not with occurrence or the anchors."`
	Patch              *string `json:"patch,omitempty" jsonschema:"patch: a unified diff with one or more @@ hunks. Each hunk's context and removed lines must match the file byte-for-byte and appear exactly once."`
	Revision           string  `json:"revision,omitempty" jsonschema:"str_replace/insert/patch/replace_symbol: the file's revision from your last view/edit of it. If the file changed since then, the edit is rejected instead of silently overwriting the change."`
	StartAnchor        *string `json:"start_anchor,omitempty" jsonschema:"str_replace: replace from start_anchor through end_anchor (inclusive) instead of passing the whole block as old_str. Must be unique in the file."`
	Symbol             *string `json:"symbol,omitempty" jsonschema:"view/replace_symbol: a function/type/class/etc. name. Its extent is found lexically (brace depth or indentation) - must be declared exactly once in the file."`
	SymbolKind         string  `json:"symbol_kind,omitempty" jsonschema:"view/replace_symbol: narrow which declaration keywords count as a match, e.g. 'function' or 'type' - only useful when a function and a type share a name"`
	ValidateSyntax     bool    `json:"validate_syntax,omitempty" jsonschema:"str_replace/insert/patch/replace_symbol: reject the edit (nothing is written) if the resulting file fails a syntax check. Real parsing for .go/.json/.yaml/.yml; a balanced-delimiter check for other common source files; a no-op for unrecognized file types."`
	ViewRange          []int   `json:"view_range,omitempty" jsonschema:"view: [start, end] 1-based inclusive line range; end -1 reads to the end of the file"`
	Force              bool    `json:"force,omitempty" jsonschema:"str_replace/insert/patch/replace_symbol/undo_edit: change the file even though its owner has no write permission (mode such as 0444); the file keeps its mode. Without it such a file is refused, naming its mode."`
}

// editFileDoc is edit_file's description: when to use it, the commands
// in one line each (their parameters say the rest), and the rules a model
// must follow. The first %s names the other way to edit, the second the
// other way to read, as the profile offers them (editFileAlternatives).
const editFileDoc = `Change one file on disk by exact text, by absolute file_path, writing it at once; %s command:
- view: numbered lines (view_range, or around an anchor or a symbol) and the file's revision.
- str_replace: old_str must match byte-for-byte, indentation included, exactly once (or pass occurrence, or replace_all for every one); part of a line may match; start_anchor/end_anchor replace a range.
- insert: new_str after insert_line (0 = top), or before/after an anchor's line.
- patch: a standard unified diff; each hunk must match exactly once; all or none.
- replace_symbol: replace a function, type or class by name (found lexically, not parsed).
- undo_edit: revert this session's last change to the file.
Read the file first (view%s): a change to a file this session has not seen at its current content is refused. dry_run previews the diff; validate_syntax refuses a result that does not parse; force changes a read-only file. In a file whose lines all end in CRLF, write old_str with LF. Refused while dev_plan holds unwritten changes to the file (write or discard them first).`

func (s *Server) editFileTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[EditFileParams]()
	setEnum(in, "command", editfile.Commands)
	in.Properties["view_range"].MinItems = ptr(2)
	in.Properties["view_range"].MaxItems = ptr(2)
	tool := &sdk.Tool{
		Name:         "edit_file",
		Title:        "Edit a file on disk (absolute path)",
		Description:  fmt.Sprintf(editFileDoc, s.editFileAlternatives(), s.ifOffered("read_file", " or read_file")),
		InputSchema:  in,
		OutputSchema: resultOrFailure[wire.FileResult](),
	}
	destructive(tool, false)
	return tool, s.fileHandler("edit_file", (*broker.Session).EditFile)
}

// editFileAlternatives is what edit_file's description says of the other
// way to edit: the edit tool where the profile offers it, dev_plan's edit
// step where not.
func (s *Server) editFileAlternatives() string {
	if s.offers(string(engine.StepEdit)) {
		return "use edit instead to replace whole lines by a path relative to the root in the in-memory copy that dev_plan uses."
	}
	return "dev_plan's edit step instead replaces whole lines by a path relative to the root, in an in-memory copy."
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
		Title:        "Read a file on disk (absolute path)",
		Description:  "Read a file as it is on disk, by absolute file_path: numbered lines (N<TAB>text) and the file's revision. Use it before edit_file or write_file, which change only a file this session has read at its current content. Use read_lines instead to read a file by a path relative to the root as the in-memory copy that dev_plan edits holds it, with changes not yet written. offset (1-based) and limit (default 2000 lines) select part of a long file; an answer holds at most 256 KiB, and a larger one fails naming the limit that fits. Changes nothing.",
		InputSchema:  schemaFor[ReadFileParams](),
		OutputSchema: resultOrFailure[wire.FileResult](),
	}
	readOnly(tool)
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
		Title:        "Write a whole file on disk (absolute path)",
		Description:  "Create a file, or replace its whole content, on disk by absolute file_path, atomically, and return its new revision. Use write instead to save to disk the changes dev_plan made in its in-memory copy of the files (paths relative to the root). An existing file must have been read first (read_file or edit_file view) and not changed since; revision makes that check explicit. Missing directories are created. Content must be text: UTF-8 with no NUL byte. A read-only file (no write permission for its owner) is refused unless force is true.",
		InputSchema:  schemaFor[WriteFileParams](),
		OutputSchema: resultOrFailure[wire.FileResult](),
	}
	destructive(tool, true)
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
			return errorResult(name, err) // structured: wire.Failure
		}
		return &sdk.CallToolResult{
			Content:           []sdk.Content{&sdk.TextContent{Text: r.Text}},
			StructuredContent: wire.NewFileResult(r),
		}
	})
}
