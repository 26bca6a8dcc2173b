package lsp

// This file defines the wire types of the requests that answer about code
// (definition, references, hover, symbols) and their lenient decoding:
// every answer comes in several shapes (a Location or a list of them or
// of LocationLinks; hover contents as MarkupContent, a MarkedString or a
// list of them; symbols as a DocumentSymbol tree or flat
// SymbolInformation), and an element that cannot be read is left out
// rather than failing the whole answer.

import (
	"encoding/json"
	"strings"
)

// Location is a range in a file. Path is its absolute path, "" when the
// server named something that is not a file (a URI of another scheme).
type Location struct {
	Path  string
	Range Range
}

// location is LSP's Location, or a LocationLink (target* fields).
type location struct {
	URI                  string `json:"uri"`
	Range                *Range `json:"range"`
	TargetURI            string `json:"targetUri"`
	TargetSelectionRange *Range `json:"targetSelectionRange"`
	TargetRange          *Range `json:"targetRange"`
}

func (l *location) decode(paths map[string]string) (Location, bool) {
	switch {
	case l.TargetURI != "":
		r := l.TargetSelectionRange
		if r == nil {
			r = l.TargetRange
		}
		if r == nil {
			return Location{}, false
		}
		return Location{Path: pathOf(paths, l.TargetURI), Range: *r}, true
	case l.URI != "" && l.Range != nil:
		return Location{Path: pathOf(paths, l.URI), Range: *l.Range}, true
	}
	return Location{}, false
}

// pathOf is [Path] of u, remembered in paths: an answer names the same
// files many times.
func pathOf(paths map[string]string, u string) string {
	p, ok := paths[u]
	if !ok {
		p = Path(u)
		paths[u] = p
	}
	return p
}

// decodeLocations reads null, a Location, or a list of Locations or
// LocationLinks. Locations that are not files are left out.
func decodeLocations(raw json.RawMessage) []Location {
	// The usual answer, a list of well-formed elements, is read in one
	// pass; any other shape element by element.
	var ls []location
	if json.Unmarshal(raw, &ls) == nil {
		return fromLocations(ls)
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		list = []json.RawMessage{raw}
	}
	ls = ls[:0]
	for _, r := range list {
		var l location
		if json.Unmarshal(r, &l) == nil {
			ls = append(ls, l)
		}
	}
	return fromLocations(ls)
}

// fromLocations keeps the decoded locations that are files, each URI
// turned into a path once.
func fromLocations(ls []location) []Location {
	out := make([]Location, 0, len(ls))
	paths := map[string]string{}
	for _, l := range ls {
		loc, ok := l.decode(paths)
		if ok && loc.Path != "" {
			out = append(out, loc)
		}
	}
	return out
}

// decodeHover reads a Hover's contents as text: MarkupContent's value,
// a MarkedString (a string, or a {language, value} shown as a fenced
// code block), or a list of MarkedStrings joined by blank lines. null is
// "".
func decodeHover(raw json.RawMessage) string {
	var h struct {
		Contents json.RawMessage `json:"contents"`
	}
	if json.Unmarshal(raw, &h) != nil || len(h.Contents) == 0 {
		return ""
	}
	var list []json.RawMessage
	if json.Unmarshal(h.Contents, &list) != nil {
		list = []json.RawMessage{h.Contents}
	}
	var parts []string
	for _, r := range list {
		if s := strings.TrimSpace(markedString(r)); s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// markedString is a MarkedString's or MarkupContent's text.
func markedString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var m struct {
		Kind     string `json:"kind"`
		Language string `json:"language"`
		Value    string `json:"value"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return ""
	}
	if m.Language != "" {
		return "```" + m.Language + "\n" + m.Value + "\n```"
	}
	return m.Value
}

// Symbol is a declaration a server lists: a document outline's entry
// (with its Children) or a workspace search's find.
type Symbol struct {
	Name   string
	Detail string
	// Kind is LSP's SymbolKind (12 function, 6 method, 23 struct, ...).
	Kind int
	// Container names what holds the symbol (flat answers only).
	Container string
	// Path is the file's absolute path.
	Path string
	// Range is the whole declaration; Selection its name.
	Range, Selection Range
	Children         []Symbol
}

// symbol is a DocumentSymbol, a SymbolInformation or a WorkspaceSymbol
// (whose location may lack a range).
type symbol struct {
	Name           string          `json:"name"`
	Detail         string          `json:"detail"`
	Kind           int             `json:"kind"`
	ContainerName  string          `json:"containerName"`
	Range          *Range          `json:"range"`
	SelectionRange *Range          `json:"selectionRange"`
	Children       json.RawMessage `json:"children"`
	Location       *location       `json:"location"`
}

// maxSymbolDepth bounds the nesting of a document outline that is read.
const maxSymbolDepth = 64

// decodeSymbols reads a documentSymbol or workspace/symbol answer: a list
// of DocumentSymbols (in the document at path) or of SymbolInformation or
// WorkspaceSymbols. A symbol without a name or a place is left out.
func decodeSymbols(raw json.RawMessage, path string) []Symbol {
	return symbolList(raw, path, 0)
}

func symbolList(raw json.RawMessage, path string, depth int) []Symbol {
	if depth > maxSymbolDepth {
		return nil
	}
	// The usual answer, a list of well-formed elements, is read in one
	// pass; any other element by element.
	var syms []symbol
	if json.Unmarshal(raw, &syms) != nil {
		var list []json.RawMessage
		if json.Unmarshal(raw, &list) != nil {
			return nil
		}
		syms = syms[:0]
		for _, r := range list {
			var s symbol
			if json.Unmarshal(r, &s) == nil {
				syms = append(syms, s)
			}
		}
	}
	var out []Symbol
	paths := map[string]string{}
	for _, s := range syms {
		if s.Name == "" {
			continue
		}
		sym := Symbol{Name: s.Name, Detail: s.Detail, Kind: s.Kind, Container: s.ContainerName, Path: path}
		switch {
		case s.Location != nil:
			sym.Path = pathOf(paths, s.Location.URI)
			if s.Location.Range != nil {
				sym.Range, sym.Selection = *s.Location.Range, *s.Location.Range
			}
		case s.Range != nil:
			sym.Range, sym.Selection = *s.Range, *s.Range
			if s.SelectionRange != nil {
				sym.Selection = *s.SelectionRange
			}
			if len(s.Children) > 0 {
				sym.Children = symbolList(s.Children, path, depth+1)
			}
		default:
			continue
		}
		if sym.Path == "" {
			continue
		}
		out = append(out, sym)
	}
	return out
}

// SymbolKindName is the lower-case word for an LSP SymbolKind.
func SymbolKindName(k int) string {
	if k >= 1 && k < len(symbolKinds) {
		return symbolKinds[k]
	}
	return "symbol"
}

var symbolKinds = []string{"", "file", "module", "namespace", "package", "class", "method", "property", "field",
	"constructor", "enum", "interface", "function", "variable", "constant", "string", "number", "boolean",
	"array", "object", "key", "null", "enum member", "struct", "event", "operator", "type parameter"}

// textDocumentPositionParams asks about one place in a document.
type textDocumentPositionParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
	Position     Position               `json:"position"`
}

type referenceParams struct {
	textDocumentPositionParams
	Context struct {
		IncludeDeclaration bool `json:"includeDeclaration"`
	} `json:"context"`
}

type renameParams struct {
	textDocumentPositionParams
	NewName string `json:"newName"`
}

type documentSymbolParams struct {
	TextDocument textDocumentIdentifier `json:"textDocument"`
}

type workspaceSymbolParams struct {
	Query string `json:"query"`
}
