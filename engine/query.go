package engine

// This file defines the language steps' side of the contract with the
// capabilities: the kinds a language server answers besides diagnostics
// (definition, references, hover, symbols, rename, code_actions), the
// [Query] a request carries, and the values an answer holds ([Location],
// [Symbol], [Action]). A step's answer reaches the result as an [Answer].

// The language kinds: what a language server answers about code.
const (
	Definition  Kind = "definition"
	References  Kind = "references"
	Hover       Kind = "hover"
	Symbols     Kind = "symbols"
	Rename      Kind = "rename"
	CodeActions Kind = "code_actions"
)

// LanguageKinds lists the language kinds, in the order the steps are.
func LanguageKinds() []Kind {
	return []Kind{Definition, References, Hover, Symbols, Rename, CodeActions}
}

// MaxLocations caps the locations, symbols and matches an answer lists;
// the answer counts the rest in Omitted.
const MaxLocations = 100

// Query is what a language request asks about. Lines and columns are
// 1-based; columns count Unicode characters. The engine has resolved a
// step's symbol to Line and Column before it asks.
type Query struct {
	// Path is the file asked about; "" for a workspace symbol search.
	Path string
	// Line and Column point at the code asked about (definition,
	// references, hover, rename); for code_actions, Line and Column start
	// the range (0: the whole file) and EndLine and EndColumn end it (0:
	// the end of Line).
	Line, Column       int
	EndLine, EndColumn int
	// IncludeDeclaration asks references to list the declaration too.
	IncludeDeclaration bool
	// Text is a workspace symbol search's query (symbols without Path).
	Text string
	// NewName is rename's new name.
	NewName string
	// Only narrows code_actions to these kinds and their sub-kinds
	// ("quickfix", "refactor", "source.organizeImports").
	Only []string
	// Apply is, for code_actions, the listed action to apply; nil lists.
	Apply *Action
}

// Location is a place in a file: a range and the text of its first line.
type Location struct {
	Path               string
	Line, Column       int
	EndLine, EndColumn int
	// Text is the text of Line, without its terminator.
	Text string
}

// Symbol is a declaration in a document outline or a workspace symbol
// search.
type Symbol struct {
	// Name is the symbol's name; in an outline, nested symbols are named
	// by their dotted path ("Type.Method").
	Name string
	// Kind is the symbol's kind in lower case: function, method, struct,
	// class, interface, variable, constant, field, ...
	Kind string
	// Detail is what the server adds (a signature, a type).
	Detail string
	// Container is the name of what holds it, for a workspace search.
	Container string
	// Path, Line and Column are where its name is; EndLine is the last
	// line of its whole declaration.
	Path         string
	Line, Column int
	EndLine      int
}

// Action is a code action a server offers: a quick fix or a refactoring.
type Action struct {
	// ID names the action to code_actions' apply; the engine sets it from
	// the file, its content and the action, so the same listing gives the
	// same ids.
	ID        string
	Title     string
	Kind      string
	Preferred bool
	// Disabled says why the server offers the action but cannot apply it
	// now; "" when it can.
	Disabled string
	// Data is the driver's own record of the action, opaque to the
	// engine, which hands it back with Query.Apply.
	Data []byte
}

// FileRename is a file a rename or a code action moves.
type FileRename struct {
	From, To string
}

// Answer is one language or search step's answer in a [Result].
type Answer struct {
	// Step is the 1-based index of the step in the plan.
	Step int
	Name StepName
	// Locations are definition's, references' and search's places, sorted
	// by path, line and column, at most MaxLocations.
	Locations []Location
	// Symbols are the outline, or the workspace search's finds.
	Symbols []Symbol
	// Hover is the server's hover text (signature and documentation).
	Hover string
	// Actions are the code actions offered.
	Actions []Action
	// Applied is the title of the code action applied.
	Applied string
	// Omitted counts what was found beyond what is listed.
	Omitted int
	// ServerLimit is, when the language server's own list stopped at
	// the most it lists (Response.ServerLimit), that limit: more may
	// match than were found. 0 otherwise.
	ServerLimit int
	// Files counts the files a search looked at.
	Files int
	// Skipped names the files a search selected but did not search
	// (binary, too large, unreadable), at most search.MaxSkipped;
	// SkippedMore counts the rest.
	Skipped     []SkippedFile
	SkippedMore int
}

// SkippedFile is a file a search did not search, and why.
type SkippedFile struct {
	Path, Reason string
}
