package gitignore

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse: any .gitignore parses and answers without panicking; a
// pattern followed by its own negation ignores nothing; a name with every
// character escaped ignores exactly that name, at any depth.
func FuzzParse(f *testing.F) {
	for _, line := range strings.Split(rootIgnore+subIgnore, "\n") {
		f.Add(line, "a/b.log", false)
	}
	f.Add("[]a]x", "]x", false)
	f.Add("abc/**", "abc", true)
	f.Add("a\\", "a", false)
	f.Fuzz(func(t *testing.T, line, rel string, dir bool) {
		if rel == "" || strings.HasPrefix(rel, "/") || strings.HasSuffix(rel, "/") || strings.Contains(rel, "//") {
			return
		}
		file := Parse("", []byte(line))
		one := Stack{file}
		ignored := one.Ignored(rel, dir)
		if one.Ignored(rel, dir) != ignored {
			t.Fatal("not deterministic")
		}
		if file.Len() == 1 && !file.patterns[0].negate && !strings.Contains(line, "\n") {
			both := Stack{Parse("", []byte(line+"\n!"+line))}
			if both.Ignored(rel, dir) {
				t.Errorf("%q then its negation still ignores %q", line, rel)
			}
		}
		name := rel[strings.LastIndexByte(rel, '/')+1:]
		if !utf8.ValidString(name) || strings.ContainsAny(name, "\r\n\x00") {
			return
		}
		var esc strings.Builder
		for _, r := range name {
			esc.WriteByte('\\')
			esc.WriteRune(r)
		}
		lit := Stack{Parse("", []byte(esc.String()))}
		if !lit.Ignored(rel, dir) {
			t.Errorf("the escaped name %q does not ignore %q", esc.String(), rel)
		}
		if lit.Ignored(rel+"x", dir) {
			t.Errorf("the escaped name %q ignores %q", esc.String(), rel+"x")
		}
	})
}
