package confine

// This file finds what a C, C++ or Objective-C source asks the
// preprocessor to read: its #include, #include_next, #import, #embed and
// #__include_macros directives (and C++'s import of a header), found in
// engine/lex's tokens of the file, each directive read after the
// preprocessor's own line splicing and comment removal.

import (
	"strings"

	"github.com/devbroker/devbroker/engine/lex"
)

// cInclude is one directive that reads a file.
type cInclude struct {
	line int
	// name is the file's name as written; angle: in <...>; computed: not
	// a literal name (a macro names it), so what it reads cannot be told
	// without preprocessing.
	name     string
	angle    bool
	next     bool // #include_next: the search goes on after the includer's directory
	computed bool
}

// readsFile are the directives that read the file they name.
var readsFile = map[string]bool{"include": true, "include_next": true, "import": true, "embed": true, "__include_macros": true}

// cIncludes lists the directives of src that read a file; src is lexed as
// lang (nil: as C++). A source whose text holds trigraphs is also read
// with them replaced (??= is #, ??/ a backslash), as a compiler that
// honours them (-trigraphs, or a strict -std) reads it.
func cIncludes(src string, lang *lex.Language) []cInclude {
	if lang == nil {
		lang = lex.ForFile("x.h")
	}
	out := includesIn(src, lang)
	if strings.Contains(src, "??") {
		if t := replaceTrigraphs(src); t != src {
			out = append(out, includesIn(t, lang)...)
		}
	}
	return out
}

// includesIn is cIncludes of src as it stands.
func includesIn(src string, lang *lex.Language) []cInclude {
	var out []cInclude
	s := lex.New(src, lang, 0)
	// lineStart: only whitespace and comments since the last line break
	// outside a comment (a comment is one space, its line breaks
	// included), so a '#' here begins a directive.
	lineStart := true
	importNext := false // C++: "import" began the line
	for t := s.Next(); t.Kind != lex.EOF; t = s.Next() {
		text := src[t.Start:t.End]
		switch t.Kind {
		case lex.Space:
			if strings.Contains(text, "\n") {
				lineStart = true
			}
			continue
		case lex.Comment:
			// A comment is a space: a line comment ends before its line
			// break (the Space after it holds it), a block comment's
			// breaks are its own.
			continue
		}
		switch {
		case lineStart && (t.Kind == lex.Directive || strings.HasPrefix(text, "#") || strings.HasPrefix(src[t.Start:], "%:")):
			if inc, ok := directiveAt(src, t.Start); ok {
				inc.line = t.Line
				out = append(out, inc)
			}
			// The directive runs to its line's end: the tokens up to the
			// next line break are its own.
			lineStart = false
			importNext = false
			continue
		case importNext && (t.Kind == lex.String || text == "<"):
			if inc, ok := headerName(src[t.Start:], false); ok {
				inc.line = t.Line
				out = append(out, inc)
			}
		}
		importNext = lineStart && t.Kind == lex.Ident && (text == "import" || text == "export") ||
			importNext && t.Kind == lex.Ident && text == "import"
		lineStart = false
	}
	return out
}

// directiveAt reads the directive whose '#' (or "%:") is at src[pos]: its
// logical line, spliced and with comments as spaces, and reports the file
// it reads, if it is one that reads a file.
func directiveAt(src string, pos int) (cInclude, bool) {
	line := logicalLine(src, pos)
	switch {
	case strings.HasPrefix(line, "#"):
		line = line[1:]
	case strings.HasPrefix(line, "%:"):
		line = line[2:]
	default:
		return cInclude{}, false
	}
	line = strings.TrimLeft(line, " \t\f\v\r")
	n := 0
	for n < len(line) && (line[n] == '_' || line[n] >= 'a' && line[n] <= 'z' || line[n] >= 'A' && line[n] <= 'Z' || line[n] >= '0' && line[n] <= '9') {
		n++
	}
	kw := line[:n]
	if !readsFile[kw] {
		return cInclude{}, false
	}
	inc, ok := headerName(strings.TrimLeft(line[n:], " \t\f\v\r"), kw == "include_next")
	if !ok {
		return cInclude{}, false // nothing named: an error, nothing read
	}
	return inc, true
}

// headerName reads the name at the start of s: "name" or <name>; any
// other text names the file through a macro (computed). ok is false when
// s is empty.
func headerName(s string, next bool) (cInclude, bool) {
	s = strings.TrimLeft(s, " \t\f\v\r")
	if s == "" {
		return cInclude{}, false
	}
	inc := cInclude{next: next}
	switch s[0] {
	case '"':
		end := strings.IndexByte(s[1:], '"')
		if end < 0 {
			inc.computed = true
			return inc, true
		}
		inc.name = s[1 : 1+end]
	case '<':
		end := strings.IndexByte(s[1:], '>')
		if end < 0 {
			inc.computed = true
			return inc, true
		}
		inc.name, inc.angle = s[1:1+end], true
	default:
		inc.computed = true
	}
	if strings.ContainsAny(inc.name, "\n") {
		inc.computed = true
	}
	return inc, true
}

// logicalLine is the text of the line that starts at src[pos], as the
// preprocessor sees it: backslash-newlines spliced, each comment one
// space (a block comment may span lines), up to the line's end. A quoted
// name is taken as it stands (a "/*" in it opens no comment).
func logicalLine(src string, pos int) string {
	var b strings.Builder
	inQuote := byte(0)
	for i := pos; i < len(src); i++ {
		c := src[i]
		if c == '\\' {
			if strings.HasPrefix(src[i+1:], "\n") {
				i++
				continue
			}
			if strings.HasPrefix(src[i+1:], "\r\n") {
				i += 2
				continue
			}
		}
		if c == '\n' {
			break
		}
		if inQuote != 0 {
			b.WriteByte(c)
			if c == inQuote {
				inQuote = 0
			}
			continue
		}
		switch {
		case c == '"':
			inQuote = '"'
		case c == '<' && strings.TrimSpace(b.String()) != "" && b.Len() > 0 && isIncludeKeyword(b.String()):
			inQuote = '>'
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			b.WriteByte(' ')
			i += 2 + end + 1
			continue
		case strings.HasPrefix(src[i:], "//"):
			return b.String()
		}
		b.WriteByte(c)
	}
	return b.String()
}

// isIncludeKeyword reports whether the directive text so far is a '#'
// and a keyword that reads a file, so a '<' now opens a header name.
func isIncludeKeyword(sofar string) bool {
	s := strings.TrimSpace(sofar)
	s = strings.TrimPrefix(strings.TrimPrefix(s, "#"), "%:")
	return readsFile[strings.TrimSpace(s)]
}

// replaceTrigraphs replaces the nine trigraphs of C.
func replaceTrigraphs(src string) string {
	return strings.NewReplacer("??=", "#", "??/", `\`, "??'", "^", "??(", "[", "??)", "]", "??!", "|", "??<", "{", "??>", "}", "??-", "~").Replace(src)
}
