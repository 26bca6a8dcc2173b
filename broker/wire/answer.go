package wire

// This file holds the answers of the language and search steps inside a
// DevResult: locations, symbols, hover text and code actions.

import (
	"fmt"

	"github.com/devbroker/devbroker/engine"
)

// Answer is one language or search step's answer.
type Answer struct {
	Step      int        `json:"step" jsonschema:"the 1-based index of the step in the plan"`
	Name      string     `json:"name" jsonschema:"the step: definition, references, hover, symbols, rename, code_actions or search"`
	Locations []Location `json:"locations,omitempty" jsonschema:"definition's, references' or search's places, sorted by path, line and column"`
	Symbols   []Symbol   `json:"symbols,omitempty" jsonschema:"a file's outline (nested symbols named Type.Method), or the symbols a workspace search found"`
	Hover     string     `json:"hover,omitempty" jsonschema:"the language server's hover text: signature and documentation"`
	Actions   []Action   `json:"actions,omitempty" jsonschema:"the code actions offered; apply one with code_actions {apply: id}"`
	Applied   string     `json:"applied,omitempty" jsonschema:"the title of the code action applied to the workspace"`
	Omitted   int        `json:"omitted,omitempty" jsonschema:"how many more were found than are listed"`
	// Truncated and ServerLimit say that the language server's own list
	// stopped at its limit: more may match than it found, and omitted
	// cannot count them.
	Truncated   bool      `json:"truncated,omitempty" jsonschema:"the language server stopped its list at its own limit (server_limit): more may match than were found, and omitted does not count them; narrow the query"`
	ServerLimit int       `json:"server_limit,omitempty" jsonschema:"the most the language server lists, which its answer reached"`
	Files       int       `json:"files,omitempty" jsonschema:"how many files a search looked at"`
	Skipped     []Skipped `json:"skipped,omitempty" jsonschema:"files a search selected but did not search (binary, too large, unreadable), and why"`
	// SkippedMore counts the skipped files past those listed.
	SkippedMore int `json:"skipped_more,omitempty" jsonschema:"how many more files were skipped than are listed"`
}

// Skipped is a file a search did not search.
type Skipped struct {
	Path   string `json:"path"`
	Reason string `json:"reason" jsonschema:"why it was not searched, and what to do"`
}

// Location is a place in a file. Lines and columns are 1-based; columns
// count Unicode characters.
type Location struct {
	At        string `json:"at" jsonschema:"path:line:column"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Text      string `json:"text" jsonschema:"the text of that line"`
}

// Symbol is a declaration.
type Symbol struct {
	Name      string `json:"name" jsonschema:"the name; in an outline nested symbols are named by their dotted path (Type.Method)"`
	Kind      string `json:"kind" jsonschema:"function, method, struct, class, interface, variable, constant, field, ..."`
	Detail    string `json:"detail,omitempty" jsonschema:"what the server adds: a signature or a type"`
	Container string `json:"container,omitempty" jsonschema:"what holds it (a workspace search)"`
	At        string `json:"at" jsonschema:"path:line:column of its name"`
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line" jsonschema:"the last line of its declaration"`
}

// Action is a code action offered.
type Action struct {
	ID        string `json:"id" jsonschema:"give it to code_actions {apply: id} to apply the action to the workspace"`
	Title     string `json:"title"`
	Kind      string `json:"kind,omitempty" jsonschema:"quickfix, refactor.extract, source.organizeImports, ..."`
	Preferred bool   `json:"preferred,omitempty"`
	Disabled  string `json:"disabled,omitempty" jsonschema:"why it cannot be applied now"`
}

func answer(a engine.Answer) Answer {
	out := Answer{Step: a.Step, Name: string(a.Name), Hover: a.Hover, Applied: a.Applied, Omitted: a.Omitted, Truncated: a.ServerLimit > 0, ServerLimit: a.ServerLimit, Files: a.Files, SkippedMore: a.SkippedMore}
	for _, s := range a.Skipped {
		out.Skipped = append(out.Skipped, Skipped{Path: s.Path, Reason: s.Reason})
	}
	for _, l := range a.Locations {
		out.Locations = append(out.Locations, Location{
			At: at(l.Path, l.Line, l.Column), Path: l.Path, Line: l.Line, Column: l.Column,
			EndLine: l.EndLine, EndColumn: l.EndColumn, Text: l.Text,
		})
	}
	for _, s := range a.Symbols {
		out.Symbols = append(out.Symbols, Symbol{
			Name: s.Name, Kind: s.Kind, Detail: s.Detail, Container: s.Container,
			At: at(s.Path, s.Line, s.Column), Path: s.Path, Line: s.Line, Column: s.Column, EndLine: s.EndLine,
		})
	}
	for _, c := range a.Actions {
		out.Actions = append(out.Actions, Action{ID: c.ID, Title: c.Title, Kind: c.Kind, Preferred: c.Preferred, Disabled: c.Disabled})
	}
	return out
}

func at(path string, line, col int) string { return fmt.Sprintf("%s:%d:%d", path, line, col) }
