package lex

// This file defines the languages: how each writes comments, strings and
// the other literals that hide brackets, as data, and the one table that
// maps a file extension to its language.

import (
	"path/filepath"
	"strings"
)

// Language describes how one language family writes comments and literals.
// The zero value of a field means the language lacks the form.
type Language struct {
	Name string   // the family name: "c++", "python", "jsx"
	Exts []string // the extensions lexed as this language: lower case, with the dot

	LineComments   []string // the openers of comments that end with the line: "//", "#"
	BlockOpen      string   // the opener of block comments: "/*"; "" for none
	BlockClose     string   // the closer of block comments: "*/"
	NestedComments bool     // block comments nest (Rust, Kotlin, Scala, Swift)
	Directives     bool     // a '#' first on its line starts a preprocessor line (C, C++, C#)
	NoShebang      bool     // a first line "#!..." is code, not a comment (CSS)
	LineJoin       bool     // a backslash at the end of a line joins the next (Python)

	Quotes      string // the characters that open an ordinary string: `"'`
	Multiline   bool   // ordinary strings may span lines (Rust, PHP); else one that reaches the end of its line is unterminated
	Lenient     bool   // JSX: an ordinary string that reaches the end of its line was text (Don't), and its quote is punctuation
	CharQuote   bool   // ' opens a character literal only when one character or escape and a ' follow; else a lifetime, label or symbol ('a)
	DigitSep    bool   // ' separates digits in numbers (C++14, C23)
	DollarIdent bool   // '$' is an identifier character (JavaScript, Kotlin, PHP)

	Triple        string // the quote characters that open triple-quoted (multi-line) strings
	TripleEscapes bool   // backslash escapes apply in triple-quoted strings (Python, Java, Swift)
	TripleRun     bool   // a triple-quoted string ends at the end of a run of three or more quotes (Kotlin, Scala)

	Template       bool // `...${expr}...` template literals (JavaScript, TypeScript)
	BacktickRaw    bool // `...` raw strings (Go)
	BacktickIdents bool // `...` quoted identifiers on one line (Kotlin, Scala, Swift)
	DollarInterp   bool // "...${expr}..." in ordinary and triple-quoted strings (Kotlin)
	Regex          bool // /.../ regular expressions where an operand may start (JavaScript, TypeScript)

	PyPrefixes bool // Python: r, b, u, f, t prefixes, f and t strings interpolating {expr}
	RustRaw    bool // r"...", r#"..."#, br"...", cr"..."; r#ident raw identifiers
	CppRaw     bool // R"delim(...)delim" and its u8R, uR, UR, LR forms
	SwiftRaw   bool // #"..."#, ##"..."##, #"""..."""#
	CSharp     bool // @"..." verbatim, $"...{expr}..." interpolated, """...""" raw strings of any quote count
	CSSURL     bool // url(...) with an unquoted URL is one token
	PHP        bool // text outside <?php ... ?> is HTML; # comments but #[ attributes; heredoc and nowdoc

	forms  forms     // the string forms, derived from the fields above
	starts [256]bool // the bytes that may start something other than a punctuator (see startBytes)
}

// Common comment forms.
var (
	slash = []string{"//"}
	hash  = []string{"#"}
)

// cLike returns a language with C's comments.
func cLike(l Language) *Language {
	l.LineComments, l.BlockOpen, l.BlockClose = slash, "/*", "*/"
	return &l
}

// languages is the one language table: every extension devbroker lexes is
// here, once.
var languages = []*Language{
	cLike(Language{Name: "go", Exts: []string{".go"}, Quotes: `"'`, BacktickRaw: true}),
	cLike(Language{Name: "c", Exts: []string{".c"},
		Directives: true, Quotes: `"`, CharQuote: true, DigitSep: true}),
	// A header may be C or C++: lexed as C++, whose only additions, raw
	// strings, C code cannot write (a macro R before a string aside).
	cLike(Language{Name: "c++", Exts: []string{".h", ".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp", ".ino"},
		Directives: true, Quotes: `"`, CharQuote: true, DigitSep: true, CppRaw: true}),
	cLike(Language{Name: "c#", Exts: []string{".cs"},
		Directives: true, Quotes: `"`, CharQuote: true, CSharp: true}),
	cLike(Language{Name: "java", Exts: []string{".java"},
		Quotes: `"`, CharQuote: true, Triple: `"`, TripleEscapes: true}),
	cLike(Language{Name: "kotlin", Exts: []string{".kt", ".kts"}, NestedComments: true, DollarIdent: true,
		Quotes: `"`, CharQuote: true, Triple: `"`, TripleRun: true, BacktickIdents: true, DollarInterp: true}),
	cLike(Language{Name: "scala", Exts: []string{".scala", ".sc"}, NestedComments: true,
		Quotes: `"`, CharQuote: true, Triple: `"`, TripleRun: true, BacktickIdents: true}),
	cLike(Language{Name: "swift", Exts: []string{".swift"}, NestedComments: true,
		Quotes: `"`, Triple: `"`, TripleEscapes: true, BacktickIdents: true, SwiftRaw: true}),
	cLike(Language{Name: "rust", Exts: []string{".rs"}, NestedComments: true,
		Quotes: `"`, Multiline: true, CharQuote: true, RustRaw: true}),
	// Plain modules and TypeScript cannot hold JSX, so their strings must
	// end on their line.
	cLike(Language{Name: "javascript", Exts: []string{".mjs", ".cjs", ".ts", ".mts", ".cts"},
		DollarIdent: true, Quotes: `"'`, Template: true, Regex: true}),
	// JSX text may hold apostrophes (<p>Don't</p>).
	cLike(Language{Name: "jsx", Exts: []string{".js", ".jsx", ".tsx"},
		DollarIdent: true, Quotes: `"'`, Lenient: true, Template: true, Regex: true}),
	{Name: "php", Exts: []string{".php"}, LineComments: []string{"//", "#"}, BlockOpen: "/*", BlockClose: "*/",
		DollarIdent: true, Quotes: `"'`, Multiline: true, PHP: true},
	{Name: "python", Exts: []string{".py", ".pyi", ".pyw"}, LineComments: hash, LineJoin: true,
		Quotes: `"'`, Triple: `"'`, TripleEscapes: true, PyPrefixes: true},
	{Name: "css", Exts: []string{".css"}, BlockOpen: "/*", BlockClose: "*/", NoShebang: true,
		Quotes: `"'`, CSSURL: true},
	cLike(Language{Name: "scss", Exts: []string{".scss", ".less"}, NoShebang: true,
		Quotes: `"'`, CSSURL: true}),
}

// byExt maps a lower-case extension to its language.
var byExt = func() map[string]*Language {
	m := make(map[string]*Language)
	for _, l := range languages {
		l.forms, l.starts = makeForms(l), startBytes(l)
		for _, ext := range l.Exts {
			if _, dup := m[ext]; dup {
				panic("lex: extension " + ext + " registered twice")
			}
			m[ext] = l
		}
	}
	return m
}()

// startBytes returns the bytes at which scan may find more than a
// punctuator in l: an identifier, number, comment, directive or literal,
// or a PHP tag. (A shebang, only at offset 0, is checked apart.) scan
// skips its tests for every other byte.
func startBytes(l *Language) (t [256]bool) {
	for c := range 256 {
		t[c] = isIdentByte(byte(c), l.DollarIdent)
	}
	for _, lc := range l.LineComments {
		t[lc[0]] = true
	}
	if l.BlockOpen != "" {
		t[l.BlockOpen[0]] = true
	}
	for _, c := range "\"'`" {
		t[c] = true
	}
	mark := func(on bool, bytes string) {
		for i := range len(bytes) {
			t[bytes[i]] = t[bytes[i]] || on
		}
	}
	mark(l.Directives || l.SwiftRaw, "#")
	mark(l.Regex, "/")
	mark(l.CSharp, "@$")
	mark(l.PHP, "?<")
	return t
}

// ForFile returns the language of filename, chosen by its extension
// (matched case-insensitively), or nil.
func ForFile(filename string) *Language {
	return byExt[strings.ToLower(filepath.Ext(filename))]
}

// ByName returns the language named name, or nil.
func ByName(name string) *Language {
	for _, l := range languages {
		if l.Name == name {
			return l
		}
	}
	return nil
}

// Languages returns every language, in table order.
func Languages() []*Language {
	return append([]*Language(nil), languages...)
}
