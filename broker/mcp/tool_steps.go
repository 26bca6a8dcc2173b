package mcp

// This file defines the granular step tools: read_lines, edit, apply_patch,
// write, format, lint and check, each one seed-000 step over the session's
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
const persists = ` This tool PERSISTS: it is the step followed by a write of the files it changed, so they are on disk when it returns (other unwritten workspace changes stay unwritten); when the step fails, nothing is written. To validate before writing, use dev_plan with the ordering edit -> lint -> check -> write instead: a lint or check with an error diagnostic or an incomplete answer ends the plan before the write.`

// ReadLinesParams are read_lines's parameters.
type ReadLinesParams struct {
	Path  string `json:"path" jsonschema:"the file, relative to the root. It is read from this session's workspace (with its unwritten changes), acquired from disk first; a file the workspace holds with no unwritten change is read again if the disk changed."`
	Start int    `json:"start" jsonschema:"the first line to read, 1-based"`
	End   *int   `json:"end,omitempty" jsonschema:"the last line to read, inclusive; past the end of the file clamps to it; omit to read to the end"`
}

func (s *Server) readLinesTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[ReadLinesParams]()
	tool := &sdk.Tool{
		Name:         string(engine.StepReadLines),
		Title:        "Read lines from the workspace",
		Description:  "Read lines of a file as this session's workspace holds it: the disk's current content, or your unwritten changes (a file with unwritten changes that changed on disk is listed in stale). Lines are 1-based and end is inclusive; start past the end fails naming the line count; an empty file has 0 lines; more than 256 KiB at once fails (bounds) naming the end that fits. The text is in reads[path], joined with newlines, with no trailing newline.",
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	return tool, run(s, engine.StepReadLines, in, func(p *ReadLinesParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.ReadLinesArgs{Path: p.Path, Start: &p.Start, End: p.End}}
	})
}

// EditParams are edit's parameters.
type EditParams struct {
	Path  string        `json:"path" jsonschema:"the file to edit, relative to the root"`
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
		Title: "Replace whole lines",
		Description: "Replace whole lines of a file. Read the file first (read_lines or read_file): each find must be complete lines copied exactly, and must match exactly one place after the previous edit. Matching is whole-line: a part of a line never matches. Empty replace deletes. All edits apply or none. Line endings: find matches regardless of line endings; kept lines keep theirs and new lines take the file's. To change a line's ending, find it and replace it with the new one (find a\\n, replace a\\r\\n); when find's lines end in \\r\\n, replace's lines are written with the endings they have. " +
			`Errors: "patch context is ambiguous and matches multiple locations" (add surrounding lines to find); "the patch could not be applied cleanly to the source text" (re-read the lines).` + persists,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
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
		Description: "Apply a '*** Begin Patch' envelope that adds, deletes, updates and moves files. Context and removed lines must match the file exactly, as whole lines, and each hunk exactly once; the patch applies all or nothing. A unified diff is refused (use edit, or edit_file's patch command). Line endings: lines match regardless of line endings; kept lines keep theirs and '+' lines take the file's, unless a '+' line ends in \\r\\n (then CRLF) or its hunk's context or '-' lines end in \\r\\n (then every '+' line has the ending it is written with). So '-a' then '+a\\r\\n' converts a line to CRLF, and a diff of the real bytes converts LF to CRLF or back." +
			persists,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	return tool, run(s, engine.StepApplyPatch, in, func(p *ApplyPatchParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.ApplyPatchArgs{Patch: p.Patch}}
	})
}

// WriteParams are write's parameters.
type WriteParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"write only these workspace paths (or globs); omit to write every unwritten change. A selector that matches no unwritten change is an error."`
	Force bool     `json:"force,omitempty" jsonschema:"also overwrite, delete or move files whose owner has no write permission (mode such as 0444); a written file keeps its mode. Without it the write is refused before anything is written, naming each such file and its mode."`
}

func (s *Server) writeTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[WriteParams]()
	tool := &sdk.Tool{
		Name:         string(engine.StepWrite),
		Title:        "Write the workspace to disk",
		Description:  "Write this session's unwritten workspace changes (left by dev_plan) to disk: renames, then deletions, then creates and modifications. Nothing is written if any of those files changed on disk since the workspace read them; the error names them (also in stale) and says how to recover: discard those paths, then make the change again. Not atomic across files: a failure reports what was written.",
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	return tool, run(s, engine.StepWrite, in, func(p *WriteParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.WriteArgs{Paths: p.Paths, Force: p.Force}}
	})
}

// FormatParams are format's parameters.
type FormatParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files or globs (relative to the root) to acquire and format; omit to format every file the workspace holds"`
}

func (s *Server) formatTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[FormatParams]()
	tool := &sdk.Tool{
		Name:         string(engine.StepFormat),
		Title:        "Format files",
		Description:  "Format files with the configured formatter. It formats the workspace content, including unwritten changes." + persists,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	return tool, run(s, engine.StepFormat, in, func(p *FormatParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.FormatArgs{Paths: p.Paths}}
	})
}

// LintParams are lint's parameters.
type LintParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files or globs (relative to the root) to acquire and lint; omit to lint every file the workspace holds"`
	Fix   bool     `json:"fix,omitempty" jsonschema:"apply the fixes the linters offer (then the fixed files are written)"`
}

func (s *Server) lintTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[LintParams]()
	tool := &sdk.Tool{
		Name:  string(engine.StepLint),
		Title: "Lint files",
		Description: "Lint files with the configured linters and report diagnostics (most severe first; each driver says whether its answer is complete: ok, timeout, crashed, not_installed, indexing, or unchecked for an entry of a language's lint list that no working linter served, even when the others ran). Diagnostics describe the workspace content, including unwritten changes. With fix: true the fixes are applied. " +
			"An error diagnostic fails the step (error kind diagnostics; the findings are the answer, not a tool error) and an incomplete answer fails it too (kind timeout, crashed, indexing or unchecked): then NOTHING is written, and fixes stay unwritten in the workspace." + persists,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	return tool, run(s, engine.StepLint, in, func(p *LintParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.LintArgs{Paths: p.Paths, Fix: p.Fix}}
	})
}

// CheckParams are check's parameters.
type CheckParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files or globs (relative to the root) to acquire into the workspace before checking, e.g. **/*.go; omit to check what the workspace holds"`
}

func (s *Server) checkTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[CheckParams]()
	tool := &sdk.Tool{
		Name:  string(engine.StepCheck),
		Title: "Check the workspace",
		Description: "Type-check or build-check the workspace content, including unwritten changes, and report diagnostics (most severe first; each driver says whether its answer is complete: ok, timeout, crashed, not_installed, indexing, or unchecked for an entry of a language's check list that no working checker served, with the install hint; a fallback says what it served in place of). Changes nothing. " +
			"ok is true only when no diagnostic is an error and every driver answered completely: an error diagnostic fails the step with kind diagnostics (the findings are the answer, not a tool error), an incomplete answer with its status (timeout, crashed, indexing, unchecked). In dev_plan either ends the plan, so edit -> lint -> check -> write writes only validated code. Long checks send progress notifications and stop when cancelled.",
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	return tool, run(s, engine.StepCheck, in, func(p *CheckParams) broker.StepRequest {
		return broker.StepRequest{Args: &engine.CheckArgs{}, Acquire: p.Paths}
	})
}
