package mcp

// This file defines the granular step tools: read_lines, edit, apply_patch,
// write, format, lint and check, each one step of a plan over the session's
// workspace. The mutating ones (edit, apply_patch, format, lint) write the
// files they changed before they return. Each tool decodes its parameters
// once (decodeArgs, against the schema a model reads) and hands the step's
// typed arguments to the broker, which decodes nothing.

import (
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
)

// persists is appended to the description of every mutating step tool.
const persists = ` When it succeeds it writes the files it changed to disk before it returns (other unwritten changes stay unwritten); when it fails, nothing is written. To check code before it is written, use dev_plan with edit, lint, check, write instead.`

// nothing is what format, lint and check say of an answer about no file.
const nothing = "An answer that looked at no file is not ok (error kind unchecked)."

// workspace explains the word once in every step tool's description.
const workspace = "the session's workspace (its in-memory copy of the project's files, with the changes not yet written)"

// The MCP annotations of the tools: read-only ones; ones that may
// overwrite or delete what is there (destructive: format too, which
// rewrites files on disk); and ones that change files without losing what
// they held (rename and code_actions, which change only the workspace).
// No tool reaches beyond the root: the open-world hint is false for all.
func readOnly(t *sdk.Tool) {
	annotate(t, sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true})
}

func destructive(t *sdk.Tool, idempotent bool) {
	annotate(t, sdk.ToolAnnotations{DestructiveHint: ptr(true), IdempotentHint: idempotent})
}

func additive(t *sdk.Tool, idempotent bool) {
	annotate(t, sdk.ToolAnnotations{DestructiveHint: ptr(false), IdempotentHint: idempotent})
}

// annotate sets t's annotations to a, with t's title (for clients that
// read the title there) and a false open-world hint.
func annotate(t *sdk.Tool, a sdk.ToolAnnotations) {
	a.Title, a.OpenWorldHint = t.Title, ptr(false)
	t.Annotations = &a
}

// ReadLinesParams are read_lines's parameters.
type ReadLinesParams struct {
	Path  string `json:"path" jsonschema:"the file, relative to the root (e.g. src/main.go). Read from the workspace with its unwritten changes; a file not yet in it is read from disk first, and one with no unwritten change is read again if the disk changed."`
	Start int    `json:"start" jsonschema:"the first line to read, 1-based"`
	End   *int   `json:"end,omitempty" jsonschema:"the last line to read, inclusive; past the end of the file clamps to it; omit to read to the end"`
}

func (s *Server) readLinesTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[ReadLinesParams]()
	tool := &sdk.Tool{
		Name:         string(engine.StepReadLines),
		Title:        "Read lines (in-memory copy)",
		Description:  "Read a range of lines of a file as " + workspace + " holds it, including edits not yet written to disk; path is relative to the root. Use read_file instead to read the file on disk by absolute path, with line numbers and the revision edit_file needs. Lines are 1-based and end is inclusive (past the end clamps; omit it to read to the end); start past the end fails naming the line count. The text is returned in reads[path], lines joined with newlines, without line numbers; more than 256 KiB at once fails naming the end that fits. Changes nothing on disk.",
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	readOnly(tool)
	return tool, run(s, engine.StepReadLines, in, func(p *ReadLinesParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.ReadLinesArgs{Path: p.Path, Start: &p.Start, End: p.End}}
	})
}

// EditParams are edit's parameters.
type EditParams struct {
	Path  string        `json:"path" jsonschema:"the file to edit, relative to the root (e.g. src/main.go)"`
	Edits []FindReplace `json:"edits" jsonschema:"the replacements, applied in order with one forward cursor: each find must lie after the previous one. At least one."`
}

// FindReplace is one edit.
type FindReplace struct {
	Find    string `json:"find" jsonschema:"one or more WHOLE lines copied exactly from the file (read them first), newline-separated; must match exactly once after the previous edit. A fragment of a line never matches. Not empty."`
	Replace string `json:"replace" jsonschema:"the lines that replace them; an empty string deletes the matched lines"`
}

func (s *Server) editTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[EditParams]()
	tool := &sdk.Tool{
		Name:  string(engine.StepEdit),
		Title: "Replace whole lines (relative path)",
		Description: "Replace whole lines of one file, found by their text, in " + workspace + "; path is relative to the root. Use edit_file instead to replace part of a line or any exact text by absolute path. Each find is one or more complete lines copied exactly from the file (read them first) and must match exactly once, after the previous edit's match; a fragment of a line never matches. An empty replace deletes the lines; all edits apply or none. Lines match whatever their line ending; kept lines keep theirs and new lines take the file's. " +
			`"ambiguous": add surrounding lines to find; "could not be applied cleanly": read the lines again.` + persists,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	destructive(tool, false)
	return tool, run(s, engine.StepEdit, in, func(p *EditParams) broker.StepRequest {
		a := &engine.EditArgs{Path: p.Path, Edits: make([]engine.FindReplace, len(p.Edits))}
		for i := range p.Edits {
			a.Edits[i] = engine.FindReplace{Find: &p.Edits[i].Find, Replace: &p.Edits[i].Replace}
		}
		return broker.StepRequest{Args: a}
	})
}

// ApplyPatchParams are apply_patch's parameters.
type ApplyPatchParams struct {
	Patch string `json:"patch" jsonschema:"a '*** Begin Patch' envelope: '*** Add File: path' (then '+' lines), '*** Delete File: path', '*** Update File: path' with optional '*** Move to: path' and hunks opened by '@@' (optionally followed by a line of the file as a hint) whose lines start with ' ' (context), '-' (remove) or '+' (add), optional '*** End of File', then '*** End Patch'. Paths are relative to the root. A unified diff is refused."`
}

func (s *Server) applyPatchTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[ApplyPatchParams]()
	tool := &sdk.Tool{
		Name:  string(engine.StepApplyPatch),
		Title: "Apply a multi-file patch",
		Description: "Add, delete, move and change several files in one all-or-nothing patch, applied to " + workspace + "; paths are relative to the root. Use edit for a simple change of whole lines; a standard unified diff is refused here (edit_file's patch command takes one). The patch is a '*** Begin Patch' envelope, described in the patch parameter. Context and '-' lines must match whole lines of the file exactly, and each hunk must match exactly once. Lines match whatever their line ending; kept lines keep theirs and '+' lines take the file's unless they end in \\r\\n themselves, so '-a' then '+a\\r\\n' converts a line to CRLF." +
			persists,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	destructive(tool, false)
	return tool, run(s, engine.StepApplyPatch, in, func(p *ApplyPatchParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.ApplyPatchArgs{Patch: p.Patch}}
	})
}

// WriteParams are write's parameters.
type WriteParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"write only these paths (relative to the root) or globs; omit to write every unwritten change. A path or glob that matches no unwritten change is an error."`
	Force bool     `json:"force,omitempty" jsonschema:"also overwrite, delete or move files whose owner has no write permission (mode such as 0444); a written file keeps its mode. Without it the write is refused before anything is written, naming each such file and its mode."`
}

func (s *Server) writeTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[WriteParams]()
	tool := &sdk.Tool{
		Name:         string(engine.StepWrite),
		Title:        "Save in-memory changes to disk",
		Description:  "Write the changes that dev_plan left unwritten in " + workspace + " to disk: all of them, or those under paths (relative to the root). Use write_file instead to put content you give into one file on disk by absolute path. Renames go first, then deletions, then new and changed files, each file replaced atomically. If any of those files changed on disk since it was read, nothing is written (error kind conflict, files listed in stale): discard those paths, make the change again, then write. A read-only file (mode such as 0444) is refused unless force is true. Not atomic across files: a failure reports what was already written.",
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	destructive(tool, true)
	return tool, run(s, engine.StepWrite, in, func(p *WriteParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.WriteArgs{Paths: p.Paths, Force: p.Force}}
	})
}

// FormatParams are format's parameters.
type FormatParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files or globs (relative to the root) to format, read from disk first if needed; omit to format the whole root: every file a configured language covers (testdata, vendor and version control passed over), with every file the workspace holds"`
}

func (s *Server) formatTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[FormatParams]()
	tool := &sdk.Tool{
		Name:         string(engine.StepFormat),
		Title:        "Format files",
		Description:  "Format files with the project's formatter for their language (gofumpt for Go, for example); it formats the content of " + workspace + ", including unwritten changes. Without paths it formats the whole root, as devbroker format does. " + nothing + persists,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	destructive(tool, true)
	return tool, run(s, engine.StepFormat, in, func(p *FormatParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.FormatArgs{Paths: p.Paths}}
	})
}

// LintParams are lint's parameters.
type LintParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files or globs (relative to the root) to lint, read from disk first if needed; omit to lint the whole root: every file a configured language covers (testdata, vendor and version control passed over), with every file the workspace holds"`
	Fix   bool     `json:"fix,omitempty" jsonschema:"apply the fixes the linters offer (then the fixed files are written)"`
	// FailOn says which error findings fail the call.
	FailOn string `json:"fail_on,omitempty" jsonschema:"introduced: only errors the session introduced fail it"`
}

func (s *Server) lintTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[LintParams]()
	setEnum(in, "fail_on", []string{engine.FailOnAny, engine.FailOnIntroduced})
	tool := &sdk.Tool{
		Name:  string(engine.StepLint),
		Title: "Lint files",
		Description: "Run the project's linters (staticcheck for Go, shellcheck for shell, for example) and report their findings, most severe first; with fix: true, apply the fixes they offer. It lints the content of " + workspace + ", including unwritten changes. Each driver's status says whether its answer is complete: ok, timeout, crashed, not_installed, indexing, or unchecked (no working linter for a language that lists one). " +
			"Without paths it lints the whole root, as devbroker lint does. An error finding fails the call with error kind diagnostics (the findings are the answer, not a tool failure); an incomplete answer fails it with its status; fixes then stay unwritten. " + nothing + persists,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	destructive(tool, false)
	return tool, run(s, engine.StepLint, in, func(p *LintParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.LintArgs{Paths: p.Paths, Fix: p.Fix}, FailOn: p.FailOn}
	})
}

// CheckParams are check's parameters.
type CheckParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files or globs (relative to the root) to read into the workspace before checking, e.g. the files you changed or **/*.go; omit to check the whole root with what the workspace holds"`
	// FailOn says which error findings fail the call.
	FailOn string `json:"fail_on,omitempty" jsonschema:"introduced: only errors the session introduced fail it"`
}

func (s *Server) checkTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[CheckParams]()
	setEnum(in, "fail_on", []string{engine.FailOnAny, engine.FailOnIntroduced})
	tool := &sdk.Tool{
		Name:  string(engine.StepCheck),
		Title: "Type-check the code",
		Description: "Type-check or build the code (gopls, or go build and go vet, for Go) and report errors such as a caller an edit broke, most severe first; changes nothing. It checks " + workspace + ", so an edit can be checked before it is written; paths are read from disk first (a file with unwritten changes keeps them); without paths it checks the whole root, so it also finds what other edits broke on disk. ok is true only when no finding is an error and every checker answered completely; each driver's status says ok, timeout, crashed, not_installed, indexing or unchecked (no working checker for a language that lists one, with how to install it). " +
			"Error findings come back with error kind diagnostics: they are the answer, not a tool failure. " + nothing + " Long checks send progress notifications and stop when cancelled.",
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	readOnly(tool)
	return tool, run(s, engine.StepCheck, in, func(p *CheckParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.CheckArgs{}, Acquire: p.Paths, FailOn: p.FailOn}
	})
}
