package mcp

// This file defines the granular step tools: read_lines, edit, apply_patch,
// write, format, lint and check, each one step of a plan over the session's
// workspace. The mutating ones (edit, apply_patch, format, lint) write the
// files they changed before they return. A step tool's input schema is made
// from the step's one description of its arguments (engine.Step.CallSpec),
// and its call decodes them once, through the step's own front end
// (engine.Step.DecodeCall), into the step's typed arguments for the broker,
// which decodes nothing. Only a tool's title, description and annotations
// are written here.

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
)

// persists is appended to the description of every mutating step tool.
const persists = ` When it succeeds it writes the files it changed to disk before it returns (other unwritten changes stay unwritten); when it fails, nothing is written. To check code before it is written, use dev_plan with edit, lint, check, write instead.`

// nothing is what format, lint and check say of an answer about no file.
const nothing = "An answer that looked at no file is not ok (error kind unchecked)."

// introduced says how lint's and check's findings over changed content
// are told apart from those that were there before.
const introduced = "Over changed content each finding says introduced: true (your change caused it) or false (there before), counted in baseline. "

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

// stepTool makes the tool of step: its title and description, its input
// schema the step's arguments called on its own, its output a DevResult;
// its handler runs the step (stepHandler).
func (s *Server) stepTool(step engine.StepName, title, doc string) (*sdk.Tool, sdk.ToolHandler) {
	st, ok := engine.LookupStep(step)
	if !ok {
		panic("no step " + step)
	}
	tool := &sdk.Tool{
		Name:         string(step),
		Title:        title,
		Description:  doc,
		InputSchema:  inputSchema(st.CallSpec()),
		OutputSchema: schemaFor[wire.DevResult](),
	}
	return tool, s.stepHandler(st)
}

// stepHandler runs step called on its own: its arguments decoded once,
// through the step's front end, then the step, then (for a step that
// mutates) the write of what it changed.
func (s *Server) stepHandler(st *engine.Step) sdk.ToolHandler {
	name := string(st.Name)
	return s.handler(name, func(ctx context.Context, req *sdk.CallToolRequest, bs *broker.Session) *sdk.CallToolResult {
		args, acquire, err := decodeCall(st, req.Params.Arguments)
		if err != nil {
			return devToolResult(failedResult(name, err), bs.Pending(), false)
		}
		stop := s.progress(ctx, req, name)
		r := bs.Step(ctx, broker.StepRequest{Args: args, Acquire: acquire})
		stop()
		return devToolResult(r, bs.Pending(), false)
	})
}

// annotate sets t's annotations to a, with t's title (for clients that
// read the title there) and a false open-world hint.
func annotate(t *sdk.Tool, a sdk.ToolAnnotations) {
	a.Title, a.OpenWorldHint = t.Title, ptr(false)
	t.Annotations = &a
}

func (s *Server) readLinesTool() (*sdk.Tool, sdk.ToolHandler) {
	tool, h := s.stepTool(engine.StepReadLines, "Read lines (in-memory copy)",
		"Read a range of lines of a file as "+workspace+" holds it, including edits not yet written to disk; path is relative to the root. Use read_file instead to read the file on disk by absolute path, with line numbers and the revision edit_file needs. Lines are 1-based and end is inclusive (past the end clamps; omit it to read to the end); start past the end fails naming the line count. The text is returned in reads[path], lines joined with newlines, without line numbers; more than 256 KiB at once fails naming the end that fits. Changes nothing on disk.")
	readOnly(tool)
	return tool, h
}

func (s *Server) editTool() (*sdk.Tool, sdk.ToolHandler) {
	tool, h := s.stepTool(engine.StepEdit, "Replace whole lines (relative path)",
		"Replace whole lines of one file, found by their text, in "+workspace+"; path is relative to the root. Use edit_file instead to replace part of a line or any exact text by absolute path. Each find is one or more complete lines copied exactly from the file (read them first) and must match exactly once, after the previous edit's match; a fragment of a line never matches. An empty replace deletes the lines; all edits apply or none. Lines match whatever their line ending; kept lines keep theirs and new lines take the file's. "+
			`"ambiguous": add surrounding lines to find; "could not be applied cleanly": read the lines again.`+persists)
	destructive(tool, false)
	return tool, h
}

func (s *Server) applyPatchTool() (*sdk.Tool, sdk.ToolHandler) {
	tool, h := s.stepTool(engine.StepApplyPatch, "Apply a multi-file patch",
		"Add, delete, move and change several files in one all-or-nothing patch, applied to "+workspace+"; paths are relative to the root. Use edit for a simple change of whole lines; a standard unified diff is refused here (edit_file's patch command takes one). The patch is a '*** Begin Patch' envelope, described in the patch parameter. Context and '-' lines must match whole lines of the file exactly, and each hunk must match exactly once. Lines match whatever their line ending; kept lines keep theirs and '+' lines take the file's unless they end in \\r\\n themselves, so '-a' then '+a\\r\\n' converts a line to CRLF."+
			persists)
	destructive(tool, false)
	return tool, h
}

func (s *Server) writeTool() (*sdk.Tool, sdk.ToolHandler) {
	tool, h := s.stepTool(engine.StepWrite, "Save in-memory changes to disk",
		"Write the changes that dev_plan left unwritten in "+workspace+" to disk: all of them, or those under paths (relative to the root). Use write_file instead to put content you give into one file on disk by absolute path. Renames go first, then deletions, then new and changed files, each file replaced atomically. A file changed on disk since it was read is merged when that change and yours touch different lines: merged lists it with both changes' lines. When they touch the same or adjacent lines (or merge is false), nothing is written (error kind conflict, files listed in stale with those lines): discard those paths, make the change again, then write. A read-only file (mode such as 0444) is refused unless force is true. Not atomic across files: a failure reports what was already written.")
	destructive(tool, true)
	return tool, h
}

func (s *Server) formatTool() (*sdk.Tool, sdk.ToolHandler) {
	tool, h := s.stepTool(engine.StepFormat, "Format files",
		"Format files with the project's formatter for their language (gofumpt for Go, for example); it formats the content of "+workspace+", including unwritten changes. Without paths it formats the whole root, as devbroker format does. With only: \"changed\" it formats just the lines you changed, so lines you did not touch stay as you read them. formatted gives each file's diff: the text your next edit must match. "+nothing+persists)
	destructive(tool, true)
	return tool, h
}

func (s *Server) lintTool() (*sdk.Tool, sdk.ToolHandler) {
	tool, h := s.stepTool(engine.StepLint, "Lint files",
		"Run the project's linters (staticcheck for Go, shellcheck for shell, for example) and report their findings, most severe first; with fix: true, apply the fixes they offer. It lints the content of "+workspace+", including unwritten changes. Each driver's status says whether its answer is complete: ok, timeout, crashed, not_installed, indexing, or unchecked (no working linter for a language that lists one). "+
			"Without paths it lints the whole root, as devbroker lint does. "+introduced+"An error finding fails the call with error kind diagnostics (the findings are the answer, not a tool failure); an incomplete answer fails it with its status; fixes then stay unwritten. "+nothing+persists)
	destructive(tool, false)
	return tool, h
}

func (s *Server) checkTool() (*sdk.Tool, sdk.ToolHandler) {
	tool, h := s.stepTool(engine.StepCheck, "Type-check the code",
		"Type-check or build the code (gopls, or go build and go vet, for Go) and report errors such as a caller an edit broke, most severe first; changes nothing. It checks "+workspace+", so an edit can be checked before it is written; paths are read from disk first (a file with unwritten changes keeps them); without paths it checks the whole root, so it also finds what other edits broke on disk. ok is true only when no finding is an error and every checker answered completely; each driver's status says ok, timeout, crashed, not_installed, indexing or unchecked (no working checker for a language that lists one, with how to install it). "+
			introduced+"Error findings come back with error kind diagnostics: they are the answer, not a tool failure. "+nothing+" Long checks send progress notifications and stop when cancelled.")
	readOnly(tool)
	return tool, h
}

func (s *Server) testTool() (*sdk.Tool, sdk.ToolHandler) {
	tool, h := s.stepTool(engine.StepTest, "Run the affected tests",
		"Run the tests the workspace's changes affect (Go: the changed packages and the module's packages that import them; Python: the test files importing a changed module; JavaScript and TypeScript: vitest's related tests) on the unwritten content, before anything is written; devbroker writes nothing (Python and vitest tests run in a private copy; Go tests run in their package directories, so a Go test that writes files writes them there). Each failing test is an error finding at the line that reports it, introduced: true when your change broke it, false when it failed before the change too (counted in baseline; with dev_plan's fail_on \"introduced\" only the former stop the plan); a note says what ran (passed, failed, skipped). It runs the project's code, so only in a root the user trusts. ok is false when a test fails, when no test ran, or when the run timed out (the tests are killed with their processes). "+
			"Failing tests come back with error kind diagnostics: they are the answer, not a tool failure. "+nothing+" Long runs send progress notifications and stop when cancelled.")
	// Not read-only: the tests are the project's code, and may write
	// (their own temporary files, a database); never the workspace.
	additive(tool, false)
	return tool, h
}
