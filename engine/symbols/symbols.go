// Package symbols finds declarations in source files lexically, for the
// edit_file tool's view by symbol and replace_symbol: no parser, no language
// server, just the token stream of engine/lex, which skips strings, runes,
// raw strings, template literals, regular expressions and comments, and a
// scanner that recognizes declaration keywords at the start of statements.
// The languages and their extensions are engine/lex's.
//
// The principal type is [Symbol], found by [Lookup], whose errors are
// [*NotFoundError] and [*AmbiguousError].
//
// # Extents
//
// A declaration's lines run from [Symbol.StartLine] to [Symbol.EndLine]:
//
//   - It starts with its decorators, attributes, annotations and modifiers
//     (Python @decorator lines, Rust #[derive], Java/Kotlin/TypeScript
//     @Annotation, C# [Attribute], export, pub(crate), template<...>), and
//     above them with its doc comment: the run of comment-only lines that
//     ends on the line directly above (no blank line between).
//     [Symbol.HeadLine] is where the code starts, after that comment.
//   - In the brace languages it ends with the '}' matching the first '{' of
//     the body. Parameter lists, generic brackets and Go's struct{...} and
//     TypeScript's object types in a header are skipped, so their braces do
//     not open the body. A declaration without a body (Go 'type X int',
//     'type X = Y;', Rust 'struct Unit;', an abstract method) ends at its
//     ';', at the line break that ends its statement (Go, JavaScript,
//     Kotlin), or where its enclosing block closes. Variables, constants and
//     type aliases end at the end of their statement. C and C++ type bodies
//     end at the ';' after the '}'.
//   - In Python it ends with the last line of code of its indented suite;
//     blank and comment lines inside do not end it, and those after it are
//     not part of it.
//   - A spec inside a Go group (type ( ... ), var ( ... ), const ( ... )) is
//     that one spec; its DeclLine is the line of its name.
//
// # Limitations
//
// The scan is lexical. JSX text is lexed as code: a quote in it that no
// quote closes on its line is punctuation, and '//' starts a comment; a
// '/' after '}' is taken for a division, never a regular expression;
// C-style function and method declarations without a keyword (C, C++,
// Java, C#) are not found, only their types; Kotlin property accessors on
// the lines after a property are not part of it.
package symbols

import (
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Symbol is one declaration found in a file. Lines are 1-based and
// StartLine <= HeadLine <= DeclLine <= EndLine.
type Symbol struct {
	Name string
	// Qualified is the name with its container, when it has one: "Type.method"
	// for a method, a member, or a Go method's receiver type; "Trait for Type"
	// for a Rust trait impl. Find accepts it as a name.
	Qualified string
	// Kind is the normalized kind: "function", "method", "class", "struct",
	// "interface", "enum", "trait", "impl", "union", "type", "module",
	// "object", "record", "macro", "var", "const", "field".
	Kind string
	// Keyword is the declaring keyword as written: "func", "def", "async def",
	// "class", "fn", "const", "get"/"set" for accessors, "" for a member
	// declared without one.
	Keyword   string
	StartLine int // the first line, doc comment included
	HeadLine  int // the first line after the doc comment: the first decorator or modifier
	DeclLine  int // the line of the declaring keyword (of the name, for a member or a Go group's spec)
	EndLine   int // the last line, inclusive
}

// ErrUnsupported reports a file whose language is not understood.
var ErrUnsupported = errors.New("symbols are not supported for this file type")

// Lookup returns the declaration of name in src (file content with "\n"
// line ends), for the language chosen by filename's extension, when
// exactly one declaration matches. name may be qualified (see
// [Symbol.Qualified]). kind, when not "", narrows by kind or keyword
// ("function", "func", "type", "class", "method"); when nothing matches
// exactly, it narrows by family: "function" also admits methods, "type"
// every type-like kind, "var" constants and fields. No match is a
// [*NotFoundError] naming similar declarations; several are an
// [*AmbiguousError] listing them. Only the one match's extent is computed:
// the symbols in those errors have EndLine equal to DeclLine.
func Lookup(filename, src, name, kind string) (Symbol, error) {
	m, err := find(filename, src, name, kind)
	if err != nil {
		return Symbol{}, err
	}
	switch len(m.decls) {
	case 1:
		syms, err := m.symbols(true)
		if err != nil {
			return Symbol{}, err
		}
		return syms[0], nil
	case 0:
		e := &NotFoundError{File: filename, Name: name, Kind: kind}
		if kind != "" {
			if all, err := find(filename, src, name, ""); err == nil {
				e.OtherKinds, _ = all.symbols(false)
			}
		}
		if len(e.OtherKinds) == 0 {
			e.Similar = similar(filename, src, name)
		}
		return Symbol{}, e
	}
	syms, _ := m.symbols(false)
	return Symbol{}, &AmbiguousError{File: filename, Name: name, Kind: kind, Matches: syms}
}

// matches are the declarations found for a name.
type matches struct {
	file, src string
	lang      *language
	decls     []*decl
	names     []string // the name each matched by
}

// find returns the declarations of name that kind admits.
func find(filename, src, name, kind string) (*matches, error) {
	lang := languageFor(filename)
	if lang == nil {
		return nil, fmt.Errorf("%s: %w", filename, ErrUnsupported)
	}
	name = strings.TrimSpace(name)
	if name == "" {
		return nil, errors.New("the symbol name is empty")
	}
	m := &matches{file: filename, src: src, lang: lang}
	if lang.id != langGo && !strings.Contains(src, baseName(name)) {
		return m, nil // (a Go scan looks for the name first)
	}
	var found []*decl
	var names []string
	err := scanFor(src, lang, baseName(name), func(d *decl) error {
		if n := d.matches(name); n != "" {
			d := *d
			found = append(found, &d)
			names = append(names, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	keep := narrow(found, kind)
	for i, d := range found {
		if keep[i] {
			m.decls = append(m.decls, d)
			m.names = append(m.names, names[i])
		}
	}
	return m, nil
}

// symbols returns the Symbols of m, with their extents if extents is set
// (else EndLine is DeclLine).
func (m *matches) symbols(extents bool) ([]Symbol, error) {
	var out []Symbol
	for i, d := range m.decls {
		end := d.declLine
		if extents {
			var err error
			if end, err = d.extent(m.src, m.lang); err != nil {
				return nil, fmt.Errorf("%s: %w", m.file, err)
			}
		}
		out = append(out, d.symbol(m.names[i], end))
	}
	return out, nil
}

// scan calls visit for each declaration of src.
func scan(src string, lang *language, visit func(*decl) error) error {
	if lang.python {
		return scanPython(src, lang, visit)
	}
	return scanBraces(src, lang, visit)
}

// scanFor calls visit for each declaration of src whose header may hold
// base, and perhaps for others, in order: in Go, only around base's
// occurrences (see goskip.go); elsewhere, for every declaration.
func scanFor(src string, lang *language, base string, visit func(*decl) error) error {
	if lang.id == langGo {
		return scanGoAround(src, lang, base, visit)
	}
	return scan(src, lang, visit)
}

// baseName returns the last part of a qualified name.
func baseName(name string) string {
	if i := strings.LastIndexAny(name, ". "); i >= 0 {
		return name[i+1:]
	}
	return name
}

// matches returns the name of d that name matches, or "".
func (d *decl) matches(name string) string {
	switch {
	case d.name == name:
		return name
	case d.outer != "" && len(name) == len(d.outer)+len(d.separator())+len(d.name) &&
		strings.HasPrefix(name, d.outer) && strings.HasSuffix(name, d.name) &&
		name[len(d.outer):len(name)-len(d.name)] == d.separator():
		return d.name
	}
	for _, m := range d.more {
		if m == name {
			return m
		}
	}
	return ""
}

// families are the kinds a symbol_kind admits when nothing matches it
// exactly.
var families = map[string][]string{
	"function": {"function", "method"},
	"func":     {"function", "method"},
	"fn":       {"function", "method"},
	"fun":      {"function", "method"},
	"def":      {"function", "method"},
	"type":     {"type", "struct", "interface", "class", "enum", "trait", "union", "record", "object"},
	"class":    {"class", "struct", "object", "record"},
	"var":      {"var", "const", "field"},
	"variable": {"var", "const", "field"},
	"method":   {"method", "function"},
}

// narrow reports which of ds kind admits.
func narrow(ds []*decl, kind string) []bool {
	keep := make([]bool, len(ds))
	kind = strings.ToLower(strings.TrimSpace(kind))
	matched := false
	for i, d := range ds {
		keep[i] = kind == "" || d.kind == kind || d.keyword == kind ||
			slices.Contains(strings.Fields(d.keyword), kind) // "async def", "enum class"
		matched = matched || keep[i]
	}
	if matched || kind == "" {
		return keep
	}
	for i, d := range ds {
		for _, k := range families[kind] {
			keep[i] = keep[i] || d.kind == k
		}
	}
	return keep
}

// symbol makes the Symbol of d, named name, ending on line end.
func (d *decl) symbol(name string, end int) Symbol {
	s := Symbol{
		Name:      name,
		Qualified: d.qualified(),
		Kind:      d.kind,
		Keyword:   d.keyword,
		StartLine: d.startLine,
		HeadLine:  d.startLine,
		DeclLine:  d.declLine,
		EndLine:   end,
	}
	if name != d.name {
		s.Qualified = ""
	}
	if d.doc != 0 && d.doc < s.StartLine {
		s.StartLine = d.doc
	}
	return s
}

func (d *decl) separator() string {
	if d.sep == "" {
		return "."
	}
	return d.sep
}

// qualified returns d's qualified name, or "".
func (d *decl) qualified() string {
	if d.outer == "" {
		return ""
	}
	return d.outer + d.separator() + d.name
}
