package mcp

// This file defines the edit_file tool and its siblings read_file and
// write_file, whose parameters engine/editfile describes (their input
// schemas are made from its specs). They work on the files on disk (absolute paths), with this
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
	tool := &sdk.Tool{
		Name:         "edit_file",
		Title:        "Edit a file on disk (absolute path)",
		Description:  fmt.Sprintf(editFileDoc, s.editFileAlternatives(), s.ifOffered("read_file", " or read_file")),
		InputSchema:  inputSchema(editfile.ParamsSpec()),
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

func (s *Server) readFileTool() (*sdk.Tool, sdk.ToolHandler) {
	tool := &sdk.Tool{
		Name:         "read_file",
		Title:        "Read a file on disk (absolute path)",
		Description:  "Read a file as it is on disk, by absolute file_path: numbered lines (N<TAB>text) and the file's revision. Use it before edit_file or write_file, which change only a file this session has read at its current content. Use read_lines instead to read a file by a path relative to the root as the in-memory copy that dev_plan edits holds it, with changes not yet written. offset (1-based) and limit (default 2000 lines) select part of a long file; an answer holds at most 256 KiB, and a larger one fails naming the limit that fits. Changes nothing.",
		InputSchema:  inputSchema(editfile.ReadFileSpec()),
		OutputSchema: resultOrFailure[wire.FileResult](),
	}
	readOnly(tool)
	return tool, s.fileHandler("read_file", (*broker.Session).ReadFile)
}

func (s *Server) writeFileTool() (*sdk.Tool, sdk.ToolHandler) {
	tool := &sdk.Tool{
		Name:         "write_file",
		Title:        "Write a whole file on disk (absolute path)",
		Description:  "Create a file, or replace its whole content, on disk by absolute file_path, atomically, and return its new revision. Use write instead to save to disk the changes dev_plan made in its in-memory copy of the files (paths relative to the root). An existing file must have been read first (read_file or edit_file view) and not changed since; revision makes that check explicit. Missing directories are created. Content must be text: UTF-8 with no NUL byte. A read-only file (no write permission for its owner) is refused unless force is true.",
		InputSchema:  inputSchema(editfile.WriteFileSpec()),
		OutputSchema: resultOrFailure[wire.FileResult](),
	}
	destructive(tool, true)
	return tool, s.fileHandler("write_file", (*broker.Session).WriteFile)
}

// fileHandler serves edit_file, read_file and write_file: the raw
// arguments go to engine/editfile, which decodes them through the front
// end of the spec the tool's input schema is made from.
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
