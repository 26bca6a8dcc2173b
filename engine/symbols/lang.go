package symbols

// This file defines the declaration syntax of each language the scanner
// knows. How a language is lexed, and which file extensions it has, is
// engine/lex's: a lex language is supported here when it has an entry in
// [byLex].

import "github.com/devbroker/devbroker/engine/lex"

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

// language is what the declaration parsers need to know about one
// language, and its lexer.
type language struct {
	id     langID
	name   string
	lex    *lex.Language
	python bool // indentation language: extent by indentation

	angles       bool // '<' '>' bracket generic parameters in declaration headers
	nlStmt       bool // a line break can end a statement (Go, JavaScript, Kotlin)
	goSemicolons bool // Go's rule: a line break after certain tokens always ends a statement
	eqBody       bool // '=' (or C#'s '=>') after a function header starts an expression body
	trailingDecl bool // 'struct S { } s;': C and C++ type bodies end at the ';'

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
	jsLang = &language{id: langJS, name: "JavaScript/TypeScript", angles: true, nlStmt: true,
		modifiers: set("export", "default", "declare", "async", "abstract", "const"),
		keywords: set("function", "class", "interface", "type", "enum", "namespace", "module",
			"const", "let", "var")}
	rustLang = &language{id: langRust, name: "Rust", angles: true,
		modifiers: set("pub", "async", "unsafe", "const", "extern", "default", "auto", "safe"),
		keywords: set("fn", "struct", "enum", "union", "trait", "impl", "mod", "const", "static",
			"type", "macro_rules")}
	kotlinLang = &language{id: langKotlin, name: "Kotlin", angles: true, nlStmt: true, eqBody: true,
		modifiers: set("public", "private", "protected", "internal", "open", "abstract", "final",
			"sealed", "data", "inline", "value", "enum", "annotation", "inner", "override",
			"suspend", "operator", "infix", "tailrec", "external", "lateinit", "const",
			"companion", "expect", "actual", "fun", "noinline", "crossinline"),
		keywords: set("fun", "class", "interface", "object", "typealias", "val", "var")}
	javaLang = &language{id: langJava, name: "Java", angles: true,
		modifiers: set("public", "private", "protected", "static", "final", "abstract",
			"sealed", "strictfp", "default", "synchronized", "native"),
		keywords: set("class", "interface", "enum", "record")}
	csharpLang = &language{id: langCSharp, name: "C#", angles: true, eqBody: true,
		modifiers: set("public", "private", "protected", "internal", "static", "sealed",
			"abstract", "partial", "readonly", "ref", "unsafe", "new", "file", "virtual",
			"override", "async", "extern", "record"),
		keywords: set("class", "struct", "interface", "enum", "record", "namespace")}
	cLang = &language{id: langC, name: "C/C++", angles: true, eqBody: true,
		trailingDecl: true,
		modifiers:    set("typedef", "static", "export", "inline", "template", "enum", "extern"),
		keywords:     set("struct", "union", "enum", "class", "namespace")}
)

// byLex maps the name of a lex language to its declaration syntax.
var byLex = map[string]*language{
	"go":         goLang,
	"python":     pythonLang,
	"javascript": jsLang,
	"jsx":        jsLang,
	"rust":       rustLang,
	"kotlin":     kotlinLang,
	"java":       javaLang,
	"c#":         csharpLang,
	"c":          cLang,
	"c++":        cLang,
}

// languages holds a language per lex language in byLex: its declaration
// syntax with that lexer (C and C++ share one syntax, not one lexer).
var languages = func() map[*lex.Language]*language {
	m := make(map[*lex.Language]*language, len(byLex))
	for name, decl := range byLex {
		lx := lex.ByName(name)
		if lx == nil {
			panic("symbols: no lex language " + name)
		}
		l := *decl
		l.lex = lx
		m[lx] = &l
	}
	return m
}()

// languageFor returns the language of filename, or nil.
func languageFor(filename string) *language {
	return languages[lex.ForFile(filename)]
}
