package engine

// This file holds the language steps' arguments (definition, references,
// hover, symbols, rename, code_actions) and their rules.

import (
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
)

// The language steps.
const (
	StepDefinition  StepName = "definition"
	StepReferences  StepName = "references"
	StepHover       StepName = "hover"
	StepSymbols     StepName = "symbols"
	StepRename      StepName = "rename"
	StepCodeActions StepName = "code_actions"
)

// The argument types of the language steps.
type (
	// At points at code in a file: by Symbol (a name or a dotted path
	// like Type.Method, looked up in the file's outline), by Line and
	// Column, or by Symbol on Line (the name's first occurrence on that
	// line). Lines and columns are 1-based; columns count characters.
	At struct {
		Path   string `json:"path" jsonschema:"the file, relative to the root"`
		Symbol string `json:"symbol,omitempty" jsonschema:"a name, or Type.Method, from the file's outline; with line, its occurrence on that line"`
		Line   *int   `json:"line,omitempty" jsonschema:"1-based line; with column, or with symbol"`
		Column *int   `json:"column,omitempty" jsonschema:"1-based character on line (not bytes); not with symbol"`
	}
	// DefinitionArgs are definition's arguments.
	DefinitionArgs struct {
		At
	}
	// ReferencesArgs are references' arguments.
	ReferencesArgs struct {
		At
		IncludeDeclaration bool `json:"include_declaration,omitempty" jsonschema:"also list the declaration itself"`
	}
	// HoverArgs are hover's arguments.
	HoverArgs struct {
		At
	}
	// SymbolsArgs are symbols' arguments: Path for the file's outline, or
	// Query to search the workspace's symbols.
	SymbolsArgs struct {
		Path  string `json:"path,omitempty" jsonschema:"the file whose outline to list, relative to the root; not with query"`
		Query string `json:"query,omitempty" jsonschema:"a name or part of one to search the whole project's symbols for; not with path"`
	}
	// RenameArgs are rename's arguments.
	RenameArgs struct {
		At
		NewName string `json:"new_name" jsonschema:"the new name"`
	}
	// CodeActionsArgs are code_actions' arguments: Path and an optional
	// range to list the actions offered there, or Apply, the id of a
	// listed action, to apply it.
	CodeActionsArgs struct {
		Path      string   `json:"path,omitempty" jsonschema:"the file to list the actions of, relative to the root; not with apply"`
		Line      *int     `json:"line,omitempty" jsonschema:"1-based line of the range; omit for the whole file"`
		Column    *int     `json:"column,omitempty" jsonschema:"1-based character where it starts (default 1)"`
		EndLine   *int     `json:"end_line,omitempty" jsonschema:"1-based last line (default: line)"`
		EndColumn *int     `json:"end_column,omitempty" jsonschema:"1-based character where it ends (default: end of line)"`
		Only      []string `json:"only,omitempty" jsonschema:"only these kinds and their sub-kinds: quickfix, refactor, source.organizeImports, ..."`
		Apply     string   `json:"apply,omitempty" jsonschema:"the id a listing in this session gave, to apply that action; alone"`
	}
)

// Step is definition.
func (*DefinitionArgs) Step() StepName { return StepDefinition }

// Step is references.
func (*ReferencesArgs) Step() StepName { return StepReferences }

// Step is hover.
func (*HoverArgs) Step() StepName { return StepHover }

// Step is symbols.
func (*SymbolsArgs) Step() StepName { return StepSymbols }

// Step is rename.
func (*RenameArgs) Step() StepName { return StepRename }

// Step is code_actions.
func (*CodeActionsArgs) Step() StepName { return StepCodeActions }

// at is the pointer of the arguments that have one.
func (a *DefinitionArgs) at() *At { return &a.At }
func (a *ReferencesArgs) at() *At { return &a.At }
func (a *HoverArgs) at() *At      { return &a.At }
func (a *RenameArgs) at() *At     { return &a.At }

// pointer is the arguments of a step that points at code.
type pointer interface {
	Args
	at() *At
}

// checkAt checks a step's pointer at code.
func checkAt[P pointer](a P) error {
	at := a.at()
	switch {
	case at.Path == "":
		return fault.New(fault.BadArgument, "path is required: the file, relative to the root")
	case at.Line != nil && *at.Line < 1:
		return fault.New(fault.BadArgument, "line must be a positive integer (lines are 1-based), got %d", *at.Line)
	case at.Column != nil && *at.Column < 1:
		return fault.New(fault.BadArgument, "column must be a positive integer (columns are 1-based characters), got %d", *at.Column)
	case at.Column != nil && at.Line == nil:
		return fault.New(fault.BadArgument, "column needs line: give line and column, or symbol")
	case at.Symbol != "" && at.Column != nil:
		return fault.New(fault.BadArgument, "give symbol (optionally with line) or line and column, not symbol and column")
	case at.Symbol == "" && at.Line == nil:
		return fault.New(fault.BadArgument, "say what code: give symbol (a name, or Type.Method), or line and column")
	case at.Symbol == "" && at.Column == nil:
		return fault.New(fault.BadArgument, "line needs column, or a symbol on that line: give column (1-based characters) or symbol")
	case strings.ContainsAny(at.Symbol, " \t\r\n"):
		return fault.New(fault.BadArgument, "symbol %q has white space: give a name, or a dotted path like Type.Method", at.Symbol)
	}
	return nil
}

func checkRename(a *RenameArgs) error {
	if err := checkAt(a); err != nil {
		return err
	}
	if strings.TrimSpace(a.NewName) == "" {
		return fault.New(fault.BadArgument, "new_name is required: the symbol's new name")
	}
	return nil
}

func checkSymbols(a *SymbolsArgs) error {
	switch {
	case a.Path == "" && a.Query == "":
		return fault.New(fault.BadArgument, "give path for a file's outline, or query to search the workspace's symbols")
	case a.Path != "" && a.Query != "":
		return fault.New(fault.BadArgument, "give path (a file's outline) or query (a workspace search), not both")
	}
	return nil
}

func checkCodeActions(a *CodeActionsArgs) error {
	if a.Apply != "" {
		if a.Path != "" || a.Line != nil || a.Column != nil || a.EndLine != nil || a.EndColumn != nil || len(a.Only) > 0 {
			return fault.New(fault.BadArgument, "apply takes only the action's id: the listing that gave the id knows its file and range")
		}
		return nil
	}
	switch {
	case a.Path == "":
		return fault.New(fault.BadArgument, "path is required to list code actions (or give apply: an id from a listing)")
	case a.Line == nil && (a.Column != nil || a.EndLine != nil || a.EndColumn != nil):
		return fault.New(fault.BadArgument, "column, end_line and end_column need line")
	case a.EndLine == nil && a.EndColumn != nil:
		return fault.New(fault.BadArgument, "end_column needs end_line")
	}
	for name, v := range map[string]*int{"line": a.Line, "column": a.Column, "end_line": a.EndLine, "end_column": a.EndColumn} {
		if v != nil && *v < 1 {
			return fault.New(fault.BadArgument, "%s must be a positive integer (1-based), got %d", name, *v)
		}
	}
	if a.EndLine != nil && *a.EndLine < *a.Line {
		return fault.New(fault.BadArgument, "end_line %d is before line %d", *a.EndLine, *a.Line)
	}
	return nil
}

// atPath names the file a pointer names.
func atPath[P pointer](a P) []string { return []string{a.at().Path} }

func symbolsPath(a *SymbolsArgs) []string {
	if a.Path == "" {
		return nil
	}
	return []string{a.Path}
}

func codeActionsPath(a *CodeActionsArgs) []string {
	if a.Path == "" {
		return nil
	}
	return []string{a.Path}
}
