package symbols

// This file defines the language table: which file extensions are
// understood, and how each language family is lexed.

import (
	"path/filepath"
	"strings"
)

// langID names one language the scanner knows.
type langID uint8

const (
	langGo langID = iota + 1
	langPython
	langJS // JavaScript and TypeScript, with JSX
	langRust
	langKotlin
	langJava
	langCSharp
	langC // C and C++
)

// quote describes one kind of string literal: how it ends and what may
// appear inside.
type quote struct {
	delim     string // the closing delimiter
	esc       bool   // a backslash escapes the next byte
	multiline bool   // the literal may span lines (else a newline ends it)
	doubled   bool   // a doubled delimiter is an escaped delimiter (C# @"")
	interp    uint8  // how an interpolated expression opens
	spec      bool   // ':' at the top of an interpolation starts a format spec (Python, C#)
}

// Interpolation openers.
const (
	interpNone   = iota
	interpDollar // ${ expr } (JavaScript, Kotlin)
	interpBrace  // { expr }, with {{ and }} as literal braces (Python, C#)
)

// The string literals, shared between languages.
var (
	qDouble     = &quote{delim: `"`, esc: true}
	qSingle     = &quote{delim: `'`, esc: true}
	qDoubleML   = &quote{delim: `"`, esc: true, multiline: true} // Rust
	qGoRaw      = &quote{delim: "`", multiline: true}
	qJSTemplate = &quote{delim: "`", esc: true, multiline: true, interp: interpDollar}
	qKtString   = &quote{delim: `"`, esc: true, interp: interpDollar}
	qKtRaw      = &quote{delim: `"""`, multiline: true, interp: interpDollar}
	qTextBlock  = &quote{delim: `"""`, esc: true, multiline: true} // Java
	qKtIdent    = &quote{delim: "`"}                               // Kotlin `quoted names`
	qCSVerbatim = &quote{delim: `"`, multiline: true, doubled: true}
	qCSInterp   = &quote{delim: `"`, esc: true, interp: interpBrace, spec: true}
	qCSVerbInt  = &quote{delim: `"`, multiline: true, doubled: true, interp: interpBrace, spec: true}
)

// pyQuotes holds the Python string literals, indexed by
// [triple][f-string][quote is '].
var pyQuotes [2][2][2]*quote

func init() {
	for t := range 2 {
		for f := range 2 {
			for s := range 2 {
				d := `"`
				if s == 1 {
					d = `'`
				}
				q := &quote{delim: d, esc: true}
				if t == 1 {
					q.delim = strings.Repeat(d, 3)
					q.multiline = true
				}
				if f == 1 {
					q.interp = interpBrace
					q.spec = true
				}
				pyQuotes[t][f][s] = q
			}
		}
	}
}

// language is what the lexer and the declaration parsers need to know about
// one language.
type language struct {
	id     langID
	name   string
	python bool // indentation language: extent by indentation, '#' comments

	nestedComments bool // /* /* */ */ nests (Rust, Kotlin)
	directives     bool // a '#' first on its line starts a preprocessor line (C, C++, C#)
	dollarIdent    bool // '$' is an identifier character (JavaScript, Kotlin)
	regex          bool // '/' may start a regular-expression literal (JavaScript)
	angles         bool // '<' '>' bracket generic parameters in declaration headers
	nlStmt         bool // a line break can end a statement (Go, JavaScript, Kotlin)
	goSemicolons   bool // Go's rule: a line break after certain tokens always ends a statement
	eqBody         bool // '=' (or C#'s '=>') after a function header starts an expression body
	trailingDecl   bool // 'struct S { } s;': C and C++ type bodies end at the ';'
	digitSep       bool // C++14 digit separators: 1'000

	modifiers map[string]bool // words that may precede a declaration keyword
	keywords  map[string]bool // declaration keywords
}

func set(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

var (
	goLang = &language{id: langGo, name: "Go", nlStmt: true, goSemicolons: true,
		modifiers: set(), keywords: set("func", "type", "var", "const")}
	pythonLang = &language{id: langPython, name: "Python", python: true,
		modifiers: set("async"), keywords: set("def", "class")}
	jsLang = &language{id: langJS, name: "JavaScript/TypeScript", dollarIdent: true, regex: true,
		angles: true, nlStmt: true,
		modifiers: set("export", "default", "declare", "async", "abstract", "const"),
		keywords: set("function", "class", "interface", "type", "enum", "namespace", "module",
			"const", "let", "var")}
	rustLang = &language{id: langRust, name: "Rust", nestedComments: true, angles: true,
		modifiers: set("pub", "async", "unsafe", "const", "extern", "default", "auto", "safe"),
		keywords: set("fn", "struct", "enum", "union", "trait", "impl", "mod", "const", "static",
			"type", "macro_rules")}
	kotlinLang = &language{id: langKotlin, name: "Kotlin", nestedComments: true, dollarIdent: true,
		angles: true, nlStmt: true, eqBody: true,
		modifiers: set("public", "private", "protected", "internal", "open", "abstract", "final",
			"sealed", "data", "inline", "value", "enum", "annotation", "inner", "override",
			"suspend", "operator", "infix", "tailrec", "external", "lateinit", "const",
			"companion", "expect", "actual", "fun", "noinline", "crossinline"),
		keywords: set("fun", "class", "interface", "object", "typealias", "val", "var")}
	javaLang = &language{id: langJava, name: "Java", angles: true,
		modifiers: set("public", "private", "protected", "static", "final", "abstract",
			"sealed", "strictfp", "default", "synchronized", "native"),
		keywords: set("class", "interface", "enum", "record")}
	csharpLang = &language{id: langCSharp, name: "C#", directives: true, angles: true, eqBody: true,
		modifiers: set("public", "private", "protected", "internal", "static", "sealed",
			"abstract", "partial", "readonly", "ref", "unsafe", "new", "file", "virtual",
			"override", "async", "extern", "record"),
		keywords: set("class", "struct", "interface", "enum", "record", "namespace")}
	cLang = &language{id: langC, name: "C/C++", directives: true, angles: true, eqBody: true,
		trailingDecl: true, digitSep: true,
		modifiers: set("typedef", "static", "export", "inline", "template", "enum", "extern"),
		keywords:  set("struct", "union", "enum", "class", "namespace")}
)

// byExt maps a lower-case file extension to its language.
var byExt = map[string]*language{
	".go":   goLang,
	".py":   pythonLang,
	".pyi":  pythonLang,
	".pyw":  pythonLang,
	".js":   jsLang,
	".jsx":  jsLang,
	".mjs":  jsLang,
	".cjs":  jsLang,
	".ts":   jsLang,
	".tsx":  jsLang,
	".mts":  jsLang,
	".cts":  jsLang,
	".rs":   rustLang,
	".kt":   kotlinLang,
	".kts":  kotlinLang,
	".java": javaLang,
	".cs":   csharpLang,
	".c":    cLang,
	".h":    cLang,
	".cc":   cLang,
	".cpp":  cLang,
	".cxx":  cLang,
	".c++":  cLang,
	".hh":   cLang,
	".hpp":  cLang,
	".hxx":  cLang,
	".h++":  cLang,
	".ino":  cLang,
}

// languageFor returns the language of filename, or nil.
func languageFor(filename string) *language {
	return byExt[strings.ToLower(filepath.Ext(filename))]
}

// Supported reports whether [Find] understands the language of filename,
// which is chosen by its extension.
func Supported(filename string) bool {
	return languageFor(filename) != nil
}
