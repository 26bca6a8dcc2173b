// Package gitignore reads .gitignore files and tells which paths they
// ignore, as git does: blank lines and `#` comments are skipped, trailing
// spaces dropped unless escaped, `!` re-includes, a trailing `/` matches
// directories only, a pattern with a `/` before its end is anchored to
// its file's directory and one without matches a name at any depth below
// it, `*` and `?` stay within a segment, `**` as a whole segment spans
// directories (`abc/**` matches what is inside abc, not abc), and `\`
// escapes. Within a file the last matching pattern wins, and a deeper
// file's patterns win over its parents'.
//
// A file under an ignored directory is ignored whatever it matches (git
// cannot re-include it): callers that walk a tree leave ignored
// directories unread, so [Stack.Ignored] asks only about one path's own
// name, not about its parents.
//
// Patterns become doublestar globs; a pattern doublestar cannot parse
// (git's POSIX classes such as `[[:alpha:]]`) is dropped, so it ignores
// nothing.
package gitignore

import (
	"strings"

	"github.com/bmatcuk/doublestar/v4"
)

// File is the patterns of one .gitignore file.
type File struct {
	// Dir is the slash path of the directory the file is in, relative to
	// the root ("" for the root).
	Dir      string
	patterns []pattern
}

type pattern struct {
	glob     string // doublestar pattern
	negate   bool   // it started with "!": a match re-includes
	dirOnly  bool   // it ended with "/": it matches directories only
	anchored bool   // it holds a "/": match the path below Dir, not the name
	// inside is, for a glob ending in "/**", the glob before it: the
	// pattern matches below what inside matches, not that itself.
	inside string
}

// Parse reads the patterns of the .gitignore file in the directory dir
// (a slash path relative to the root, "" for the root).
func Parse(dir string, data []byte) *File {
	f := &File{Dir: dir}
	for line := range strings.SplitSeq(string(data), "\n") {
		if p, ok := parseLine(line); ok {
			f.patterns = append(f.patterns, p)
		}
	}
	return f
}

// Len is the number of patterns kept.
func (f *File) Len() int { return len(f.patterns) }

// parseLine turns one line of a .gitignore file into a pattern; ok is
// false for a blank line, a comment or a pattern that cannot be used.
func parseLine(line string) (p pattern, ok bool) {
	line = strings.TrimSuffix(line, "\r")
	line = trimTrailingSpaces(line)
	if line == "" || line[0] == '#' {
		return p, false
	}
	if line[0] == '!' {
		p.negate, line = true, line[1:]
	}
	if strings.HasSuffix(line, "/") {
		p.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if strings.Contains(line, "/") {
		p.anchored, line = true, strings.TrimPrefix(line, "/")
	}
	glob, ok := translate(line)
	if !ok || glob == "" || !doublestar.ValidatePattern(glob) {
		return p, false
	}
	p.glob = glob
	if before, found := strings.CutSuffix(glob, "/**"); found && before != "" && before != "**" {
		p.inside = before
	}
	return p, true
}

// trimTrailingSpaces drops the spaces that end line unless a backslash
// escapes them ("a\ " keeps one).
func trimTrailingSpaces(line string) string {
	end := len(line)
	for end > 0 && line[end-1] == ' ' {
		end--
	}
	if end < len(line) && escaped(line, end) {
		end++
	}
	return line[:end]
}

// escaped reports whether the byte at i is escaped: an odd number of
// backslashes comes before it.
func escaped(s string, i int) bool {
	n := 0
	for i > 0 && s[i-1] == '\\' {
		n++
		i--
	}
	return n%2 == 1
}

// translate turns a git wildmatch pattern into a doublestar one: braces
// are literal in git, so they are escaped; a run of stars is `**` only as
// a whole segment, else `*`; a class's leading `]` is literal. A pattern
// that ends in a lone backslash is invalid in git, and one with a POSIX
// class cannot be translated (ok false for both).
func translate(p string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch c {
		case '\\':
			if i+1 == len(p) {
				return "", false
			}
			b.WriteByte('\\')
			b.WriteByte(p[i+1])
			i++
		case '{', '}':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '*':
			j := i
			for j < len(p) && p[j] == '*' {
				j++
			}
			whole := (i == 0 || p[i-1] == '/') && (j == len(p) || p[j] == '/')
			if j-i >= 2 && whole {
				b.WriteString("**")
			} else {
				b.WriteByte('*')
			}
			i = j - 1
		case '[':
			end := classEnd(p, i)
			if end < 0 {
				b.WriteString(`\[`) // no closing bracket: git takes it literally
				continue
			}
			if strings.Contains(p[i+1:end], "[:") {
				return "", false // a POSIX class, which doublestar lacks
			}
			b.WriteString(classGlob(p[i : end+1]))
			i = end
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// classEnd returns the index of the `]` that closes the class opened at
// p[i] ("[", an optional "!" or "^", then a `]` that is literal), or -1.
func classEnd(p string, i int) int {
	j := i + 1
	if j < len(p) && (p[j] == '!' || p[j] == '^') {
		j++
	}
	if j < len(p) && p[j] == ']' {
		j++
	}
	for ; j < len(p); j++ {
		switch p[j] {
		case '\\':
			j++
		case ']':
			return j
		case '/':
			return -1 // a class never spans segments
		}
	}
	return -1
}

// classGlob writes a class for doublestar: its leading literal `]` and its
// braces escaped.
func classGlob(class string) string {
	var b strings.Builder
	b.WriteByte('[')
	body := class[1 : len(class)-1]
	if body != "" && (body[0] == '!' || body[0] == '^') {
		b.WriteByte(body[0])
		body = body[1:]
	}
	if strings.HasPrefix(body, "]") {
		b.WriteString(`\]`)
		body = body[1:]
	}
	for i := 0; i < len(body); i++ {
		switch c := body[i]; c {
		case '\\':
			b.WriteByte(c)
			if i+1 < len(body) {
				i++
				b.WriteByte(body[i])
			}
		case '{', '}':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte(']')
	return b.String()
}

// match reports how f decides rel (a slash path under f.Dir): decided is
// false when no pattern matches; ignored is the last matching pattern's
// verdict.
func (f *File) match(rel string, dir bool) (ignored, decided bool) {
	sub := rel
	if f.Dir != "" {
		var ok bool
		if sub, ok = strings.CutPrefix(rel, f.Dir+"/"); !ok {
			return false, false
		}
	}
	base := sub[strings.LastIndexByte(sub, '/')+1:]
	for i := len(f.patterns) - 1; i >= 0; i-- {
		p := &f.patterns[i]
		if p.dirOnly && !dir {
			continue
		}
		subject := base
		if p.anchored {
			subject = sub
		}
		if ok, _ := doublestar.Match(p.glob, subject); !ok {
			continue
		}
		if p.inside != "" {
			if self, _ := doublestar.Match(p.inside, subject); self {
				continue
			}
		}
		return !p.negate, true
	}
	return false, false
}

// Stack is the .gitignore files that apply to a directory: its own and
// its ancestors', the root's first.
type Stack []*File

// Ignored reports whether rel, a file (dir false) or directory in the
// directory the stack is for, is ignored by its own name: the deepest
// file with a matching pattern decides.
func (s Stack) Ignored(rel string, dir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		if ignored, decided := s[i].match(rel, dir); decided {
			return ignored
		}
	}
	return false
}

// At returns the files of s that apply in the directory dir (a slash
// path, "" for the root): those of dir and its ancestors. A walk keeps one
// stack and trims it with At as it moves from one directory to the next.
func (s Stack) At(dir string) Stack {
	n := len(s)
	for n > 0 && !within(dir, s[n-1].Dir) {
		n--
	}
	return s[:n:n]
}

// Push returns s with f on top, for the directory f is in (s must be At
// that directory); a nil or empty f adds nothing.
func (s Stack) Push(f *File) Stack {
	if f == nil || f.Len() == 0 {
		return s
	}
	return append(s[:len(s):len(s)], f)
}

// within reports whether dir is ancestor or below it.
func within(dir, ancestor string) bool {
	return ancestor == "" || dir == ancestor || strings.HasPrefix(dir, ancestor+"/")
}
