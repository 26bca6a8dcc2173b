package syntax

// This file defines [lexicons], the language families the delimiter check
// knows: how each writes comments and strings, which is all the check needs
// to skip them.

// lexicon describes one language family's comments and literals.
type lexicon struct {
	name string   // family name, for tests and documentation
	exts []string // lower case, with the dot

	lineComments          []string // "//", "#"
	blockOpen, blockClose string   // "/*", "*/"; "" for none
	nested                bool     // block comments nest (Rust, Swift, Kotlin, Scala)
	directives            bool     // lines starting with '#' are preprocessor directives and are skipped (C, C++, C#)

	quotes    string // characters that open an ordinary string
	multiline bool   // ordinary strings may span lines (Rust, PHP); otherwise a string that reaches the end of its line is an error
	lenient   bool   // JSX: a quote whose string reaches the end of its line was text (Don't), not a string
	charQuote bool   // ' opens a character literal only when one character or an escape and a closing ' follow; otherwise it is ordinary (Rust lifetimes, Scala symbols)
	digitSep  bool   // ' separates digits inside numbers (C++14, C23)

	triple        string // quote characters that open a triple-quoted (multi-line) string
	tripleEscapes bool   // backslash escapes apply inside triple-quoted strings (Python, Java, Swift)
	tripleRun     bool   // a triple-quoted string ends at the end of a run of three or more quotes (Kotlin, Scala)

	templates      bool // `...${...}...` template literals, holes nesting (JavaScript, TypeScript)
	backtickIdents bool // `...` quoted identifiers on one line (Kotlin, Scala, Swift)
	regex          bool // /.../ regular expression literals where an operand may start (JavaScript, TypeScript)
	rustRaw        bool // r"...", r#"..."#, br"...", cr"..."
	cppRaw         bool // R"delim(...)delim" and its u8R, uR, UR, LR forms
	swiftRaw       bool // #"..."#, ##"..."##
	csharp         bool // @"..." verbatim strings with "" escapes, $"...", and """...""" raw strings of any quote count
	cssURL         bool // url(...) with an unquoted URL is one token
	php            bool // text outside <?php ... ?> is HTML and skipped; # comments; heredoc and nowdoc
}

// Common comment sets.
var (
	slashComments = []string{"//"}
	hashComments  = []string{"#"}
)

// lexicons is the registry of delimiter-checked language families. Every
// family's check is named "delimiters".
var lexicons = []*lexicon{
	{
		name: "c", exts: []string{".c", ".h"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/", directives: true,
		quotes: `"`, charQuote: true, digitSep: true,
	},
	{
		name: "c++", exts: []string{".cc", ".cpp", ".cxx", ".c++", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".tpp"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/", directives: true,
		quotes: `"`, charQuote: true, digitSep: true, cppRaw: true,
	},
	{
		name: "c#", exts: []string{".cs"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/", directives: true,
		quotes: `"`, charQuote: true, csharp: true,
	},
	{
		name: "java", exts: []string{".java"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/",
		quotes: `"`, charQuote: true, triple: `"`, tripleEscapes: true,
	},
	{
		name: "kotlin", exts: []string{".kt", ".kts"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/", nested: true,
		quotes: `"`, charQuote: true, triple: `"`, tripleRun: true, backtickIdents: true,
	},
	{
		name: "scala", exts: []string{".scala", ".sc"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/", nested: true,
		quotes: `"`, charQuote: true, triple: `"`, tripleRun: true, backtickIdents: true,
	},
	{
		name: "swift", exts: []string{".swift"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/", nested: true,
		quotes: `"`, triple: `"`, tripleEscapes: true, backtickIdents: true, swiftRaw: true,
	},
	{
		name: "rust", exts: []string{".rs"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/", nested: true,
		quotes: `"`, multiline: true, charQuote: true, rustRaw: true,
	},
	{
		// Plain modules and TypeScript cannot hold JSX, so their strings
		// must end on their line.
		name: "javascript", exts: []string{".mjs", ".cjs", ".ts", ".mts", ".cts"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/",
		quotes: `"'`, templates: true, regex: true,
	},
	{
		// JSX text may hold apostrophes (<p>Don't</p>), so an unclosed
		// quote on a line is taken for text.
		name: "jsx", exts: []string{".js", ".jsx", ".tsx"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/",
		quotes: `"'`, lenient: true, templates: true, regex: true,
	},
	{
		name: "php", exts: []string{".php"},
		lineComments: []string{"//", "#"}, blockOpen: "/*", blockClose: "*/",
		quotes: `"'`, multiline: true, php: true,
	},
	{
		name: "python", exts: []string{".py", ".pyi", ".pyw"},
		lineComments: hashComments,
		quotes:       `"'`, triple: `"'`, tripleEscapes: true,
	},
	{
		name: "css", exts: []string{".css"},
		blockOpen: "/*", blockClose: "*/",
		quotes: `"'`, cssURL: true,
	},
	{
		name: "scss", exts: []string{".scss", ".less"},
		lineComments: slashComments, blockOpen: "/*", blockClose: "*/",
		quotes: `"'`, cssURL: true,
	},
}

// delimiterCheckers returns a checker for each lexicon.
func delimiterCheckers() []checker {
	cs := make([]checker, 0, len(lexicons))
	for _, lx := range lexicons {
		cs = append(cs, checker{
			name:  "delimiters",
			exts:  lx.exts,
			check: func(src []byte) []Error { return checkDelimiters(lx, src) },
		})
	}
	return cs
}
