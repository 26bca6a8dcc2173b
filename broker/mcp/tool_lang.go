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

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
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

// AtParams point at code: by symbol, by line and column, or by symbol on
// a line.
type AtParams struct {
	Path   string `json:"path" jsonschema:"the file, relative to the root"`
	Symbol string `json:"symbol,omitempty" jsonschema:"a name, or Type.Method, from the file's outline; with line, its occurrence on that line"`
	Line   *int   `json:"line,omitempty" jsonschema:"1-based line; with column, or with symbol"`
	Column *int   `json:"column,omitempty" jsonschema:"1-based character on line (not bytes); not with symbol"`
}

func (p *AtParams) at() engine.At {
	return engine.At{Path: p.Path, Symbol: p.Symbol, Line: p.Line, Column: p.Column}
}

// DefinitionParams are definition's parameters.
type DefinitionParams struct {
	AtParams
}

// ReferencesParams are references' parameters.
type ReferencesParams struct {
	AtParams
	IncludeDeclaration bool `json:"include_declaration,omitempty" jsonschema:"also list the declaration itself"`
}

// HoverParams are hover's parameters.
type HoverParams struct {
	AtParams
}

// SymbolsParams are symbols' parameters.
type SymbolsParams struct {
	Path  string `json:"path,omitempty" jsonschema:"the file whose outline to list, relative to the root; not with query"`
	Query string `json:"query,omitempty" jsonschema:"a name or part of one to search the whole project's symbols for; not with path"`
}

// RenameParams are rename's parameters.
type RenameParams struct {
	AtParams
	NewName string `json:"new_name" jsonschema:"the new name"`
}

// CodeActionsParams are code_actions' parameters.
type CodeActionsParams struct {
	Path      string   `json:"path,omitempty" jsonschema:"the file to list the actions of, relative to the root; not with apply"`
	Line      *int     `json:"line,omitempty" jsonschema:"1-based line of the range; omit for the whole file"`
	Column    *int     `json:"column,omitempty" jsonschema:"1-based character where it starts (default 1)"`
	EndLine   *int     `json:"end_line,omitempty" jsonschema:"1-based last line (default: line)"`
	EndColumn *int     `json:"end_column,omitempty" jsonschema:"1-based character where it ends (default: end of line)"`
	Only      []string `json:"only,omitempty" jsonschema:"only these kinds and their sub-kinds: quickfix, refactor, source.organizeImports, ..."`
	Apply     string   `json:"apply,omitempty" jsonschema:"the id a listing in this session gave, to apply that action; alone"`
}

// SearchParams are search's parameters.
type SearchParams struct {
	Pattern string   `json:"pattern" jsonschema:"the text to find, exactly as written (case matters); with regex, an RE2 regular expression"`
	Regex   bool     `json:"regex,omitempty" jsonschema:"pattern is an RE2 regular expression (no lookaround or backreferences; (?i) ignores case)"`
	Paths   []string `json:"paths,omitempty" jsonschema:"only files at or under these paths, or matching these globs (* within a path segment, ** any depth), relative to the root; omit for the whole root"`
}

// lang makes a language tool: its definition (output: a DevResult) and
// the handler that runs its step.
func lang[P any](s *Server, step engine.StepName, title, doc string, toArgs func(*P) engine.Args) (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[P]()
	tool := &sdk.Tool{
		Name:         string(step),
		Title:        title,
		Description:  doc,
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	if st, _ := engine.LookupStep(step); st.Unwritten {
		additive(tool, false)
	} else {
		readOnly(tool)
	}
	return tool, run(s, step, in, func(p *P) broker.StepRequest { return broker.StepRequest{Args: toArgs(p)} })
}

func (s *Server) searchTool() (*sdk.Tool, sdk.ToolHandler) {
	return lang(s, engine.StepSearch, "Search the project's text",
		"Find every match of pattern in the project's files: locations, path:line:column with the text of the line, sorted; past 100 the answer counts the rest (omitted), and files counts the files searched. It searches "+workspace+" with its unwritten changes, and every other file of the root as the disk holds it. What .gitignore ignores is skipped unless the workspace holds it, and so are version control folders, symlinks, binary files and files over 2 MiB. pattern is literal text; with regex: true, an RE2 regular expression matched one line at a time. paths narrow the search to paths or globs, relative to the root; one that matches no file fails as not_found. Needs no language server. Changes nothing.",
		func(p *SearchParams) engine.Args {
			return &engine.SearchArgs{Pattern: p.Pattern, Regex: p.Regex, Paths: p.Paths}
		})
}

func (s *Server) definitionTool() (*sdk.Tool, sdk.ToolHandler) {
	return lang(s, engine.StepDefinition, "Go to definition",
		"Find where the code at a place is defined: locations, path:line:column with the text of that line."+langDoc+pointDoc+" Changes nothing.",
		func(p *DefinitionParams) engine.Args { return &engine.DefinitionArgs{At: p.at()} })
}

func (s *Server) referencesTool() (*sdk.Tool, sdk.ToolHandler) {
	return lang(s, engine.StepReferences, "Find references",
		"Find every use of the code at a place across the project: locations, path:line:column with the text of each line, sorted; past 100 the answer counts the rest (omitted). include_declaration adds the declaration."+langDoc+pointDoc+" Changes nothing.",
		func(p *ReferencesParams) engine.Args {
			return &engine.ReferencesArgs{At: p.at(), IncludeDeclaration: p.IncludeDeclaration}
		})
}

func (s *Server) hoverTool() (*sdk.Tool, sdk.ToolHandler) {
	return lang(s, engine.StepHover, "Show type and documentation",
		"Show the signature or type and the documentation of the code at a place."+langDoc+pointDoc+" Changes nothing.",
		func(p *HoverParams) engine.Args { return &engine.HoverArgs{At: p.at()} })
}

func (s *Server) symbolsTool() (*sdk.Tool, sdk.ToolHandler) {
	return lang(s, engine.StepSymbols, "List or search symbols",
		"With path, list a file's outline: every declaration with its kind and position, nested ones by dotted path (Type.Method), the names the other language steps take as symbol, so no column is needed. With query, search the whole project's symbols by name (at most 100; omitted counts the rest; truncated: the server stopped at its own limit, so narrow the query)."+langDoc+" Positions are 1-based lines and characters. Changes nothing.",
		func(p *SymbolsParams) engine.Args { return &engine.SymbolsArgs{Path: p.Path, Query: p.Query} })
}

func (s *Server) renameTool() (*sdk.Tool, sdk.ToolHandler) {
	return lang(s, engine.StepRename, "Rename a symbol (in-memory)",
		"Rename the code at a place to new_name everywhere it is used, as the language server computes it: every edit and file rename it implies applies to the workspace, all or nothing, listed in changes."+langDoc+pointDoc+
			fmt.Sprintf(unwrittenDoc, "rename"),
		func(p *RenameParams) engine.Args { return &engine.RenameArgs{At: p.at(), NewName: p.NewName} })
}

func (s *Server) codeActionsTool() (*sdk.Tool, sdk.ToolHandler) {
	return lang(s, engine.StepCodeActions, "List or apply code actions (in-memory)",
		"With path (and line, or a range: 1-based lines and characters; line alone covers the line), list the quick fixes and refactorings the language server offers there, each with an id. With apply: id, apply that one action to the workspace. An id stays the same for the same content and place; one from before the file changed is refused: list again."+langDoc+
			fmt.Sprintf(unwrittenDoc, "code_actions"),
		func(p *CodeActionsParams) engine.Args {
			return &engine.CodeActionsArgs{Path: p.Path, Line: p.Line, Column: p.Column, EndLine: p.EndLine, EndColumn: p.EndColumn, Only: p.Only, Apply: p.Apply}
		})
}
