package mcp

// This file defines the tools that find and understand code: search,
// which needs no driver, and the language tools definition, references,
// hover and symbols, which answer about the code in the session's
// workspace, and rename and code_actions, which change that workspace and
// write nothing (their steps are engine.Step.Unwritten:
// broker.Session.Step writes only after a step that Mutates). Each is one
// step of a plan, answered in the result's answers.

import (
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine"
)

// pointDoc says, in every tool that points at code, how to point.
const pointDoc = ` Point at the code with symbol, a name or Type.Method, which saves knowing columns (with line: its first occurrence on that line), or with line and column: 1-based lines and characters. An ambiguous symbol fails, listing the candidates with their lines.`

// unwrittenDoc is appended to the description of rename and code_actions;
// %s is the step that changes the workspace. It names no tool but
// dev_plan and discard, which every profile offers.
const unwrittenDoc = ` It changes the workspace only: nothing reaches disk until a write step. dev_plan with %[1]s, check, write is the safe way (%[1]s -> check -> write): it writes only code that still type-checks, and a failed check leaves the disk untouched (discard drops the change).`

// langDoc explains, once per tool, what the language tools see.
const langDoc = " The language server (gopls for Go, for example) answers over the session's workspace, unwritten changes included."

// lang makes a language tool (or search): the step's tool, read-only, or
// additive for a step that changes the workspace only.
func (s *Server) lang(step engine.StepName, title, doc string) (*sdk.Tool, sdk.ToolHandler) {
	tool, h := s.stepTool(step, title, doc)
	if st, _ := engine.LookupStep(step); st.Unwritten {
		additive(tool, false)
	} else {
		readOnly(tool)
	}
	return tool, h
}

func (s *Server) searchTool() (*sdk.Tool, sdk.ToolHandler) {
	return s.lang(engine.StepSearch, "Search the project's text",
		"Find every match of pattern in the project's files: locations, path:line:column with the text of the line, sorted; past 100 the answer counts the rest (omitted), and files counts the files searched. It searches "+workspace+" with its unwritten changes, and every other file of the root as the disk holds it. What .gitignore ignores is skipped unless the workspace holds it, and so are version control folders, symlinks, binary files and files over 2 MiB. pattern is literal text; with regex: true, an RE2 regular expression matched one line at a time. paths narrow the search to paths or globs, relative to the root; one that matches no file fails as not_found. Needs no language server. Changes nothing.")
}

func (s *Server) definitionTool() (*sdk.Tool, sdk.ToolHandler) {
	return s.lang(engine.StepDefinition, "Go to definition",
		"Find where the code at a place is defined: locations, path:line:column with the text of that line."+langDoc+pointDoc+" Changes nothing.")
}

func (s *Server) referencesTool() (*sdk.Tool, sdk.ToolHandler) {
	return s.lang(engine.StepReferences, "Find references",
		"Find every use of the code at a place across the project: locations, path:line:column with the text of each line, sorted; past 100 the answer counts the rest (omitted). include_declaration adds the declaration."+langDoc+pointDoc+" Changes nothing.")
}

func (s *Server) hoverTool() (*sdk.Tool, sdk.ToolHandler) {
	return s.lang(engine.StepHover, "Show type and documentation",
		"Show the signature or type and the documentation of the code at a place."+langDoc+pointDoc+" Changes nothing.")
}

func (s *Server) symbolsTool() (*sdk.Tool, sdk.ToolHandler) {
	return s.lang(engine.StepSymbols, "List or search symbols",
		"With path, list a file's outline: every declaration with its kind and position, nested ones by dotted path (Type.Method), the names the other language steps take as symbol, so no column is needed. With query, search the whole project's symbols by name (at most 100; omitted counts the rest; truncated: the server stopped at its own limit, so narrow the query)."+langDoc+" Positions are 1-based lines and characters. Changes nothing.")
}

func (s *Server) renameTool() (*sdk.Tool, sdk.ToolHandler) {
	return s.lang(engine.StepRename, "Rename a symbol (in-memory)",
		"Rename the code at a place to new_name everywhere it is used, as the language server computes it: every edit and file rename it implies applies to the workspace, all or nothing, listed in changes."+langDoc+pointDoc+
			fmt.Sprintf(unwrittenDoc, "rename"))
}

func (s *Server) codeActionsTool() (*sdk.Tool, sdk.ToolHandler) {
	return s.lang(engine.StepCodeActions, "List or apply code actions (in-memory)",
		"With path (and line, or a range: 1-based lines and characters; line alone covers the line), list the quick fixes and refactorings the language server offers there, each with an id. With apply: id, apply that one action to the workspace. An id stays the same for the same content and place; one from before the file changed is refused: list again."+langDoc+
			fmt.Sprintf(unwrittenDoc, "code_actions"))
}
