package gitignore

import (
	"path"
	"strings"
	"testing"
)

// rootIgnore and subIgnore are the .gitignore files of the tree the table
// of TestLikeGit was taken from: git 2.39's check-ignore on that tree.
const rootIgnore = "# comment\n*.log\n!keep.log\n/build\nout/\ndoc/*.txt\na/**/z\nx/**\n!x/keep\n**/deep\n" +
	"trail\\ \nspaces   \n\\#hash\n\\!bang\n{brace}\n[ab]c.md\nf[!0-9].c\n***star\na**b\nsub/anchored.txt\n"

const subIgnore = "!important.log\n*.tmp\n/local\n"

// ignoredPath reports whether p is ignored, its parents included, as
// git check-ignore says: a walk asks about each directory on the way.
func ignoredPath(files map[string]*File, p string, dir bool) bool {
	s := Stack{}.Push(files[""])
	segs := strings.Split(p, "/")
	for i := range segs {
		rel := strings.Join(segs[:i+1], "/")
		parent := path.Dir(rel)
		if parent == "." {
			parent = ""
		}
		s = s.At(parent)
		last := i == len(segs)-1
		if s.Ignored(rel, !last || dir) {
			return true
		}
		if !last {
			s = s.At(rel).Push(files[rel])
		}
	}
	return false
}

func TestLikeGit(t *testing.T) {
	files := map[string]*File{
		"":    Parse("", []byte(rootIgnore)),
		"sub": Parse("sub", []byte(subIgnore)),
	}
	want := map[string]bool{
		"a.log": true, "keep.log": false, "sub/b.log": true, "sub/important.log": false,
		"build/x": true, "sub/build/y": false, "out/x": true, "sub/out/y": true,
		"doc/r.txt": true, "doc/more/r.txt": false, "a/z/f": true, "a/b/c/z/f": true, "a/zz": false,
		"x/y/f": true, "x/keep": false, "x/kept": true, "sub/deep/q/f": true, "deep": true, "src/deep": true,
		"trail ": true, "trail": false, "spaces": true, "#hash": true, "!bang": true, "{brace}": true,
		"ac.md": true, "cc.md": false, "bc.md": true, "fa.c": true, "f1.c": false,
		"star": true, "xstar": true, "ab": true, "axb": true, "a/b": false,
		"sub/anchored.txt": true, "anchored.txt": false, "sub/sub/anchored.txt": false,
		"sub/x.tmp": true, "sub/local": true, "sub/q/local": false, "local": false, "x.tmp": false,
	}
	for p, w := range want {
		if got := ignoredPath(files, p, p == "a/b"); got != w {
			t.Errorf("%q: ignored %v, git says %v", p, got, w)
		}
	}
}

func TestParseSkips(t *testing.T) {
	f := Parse("", []byte("\n# c\n   \n/\n!\nend\\\n[[:alpha:]]\nok\r\n"))
	if f.Len() != 1 {
		t.Fatalf("kept %d patterns, want 1 (ok): %+v", f.Len(), f.patterns)
	}
	if !(Stack{f}).Ignored("ok", false) {
		t.Error("a CRLF line's pattern does not match")
	}
}

func TestStackAt(t *testing.T) {
	root, a, ab := Parse("", []byte("r")), Parse("a", []byte("x")), Parse("a/b", []byte("y"))
	s := Stack{}.Push(root).At("a").Push(a).At("a/b").Push(ab)
	if got := s.At("a/c"); len(got) != 2 || got[1] != a {
		t.Errorf("At(a/c) = %v, want root and a", got)
	}
	if got := s.At("ab"); len(got) != 1 {
		t.Errorf("At(ab) kept %d files, want only the root's", len(got))
	}
	if !s.Ignored("a/b/y", false) || s.At("a/c").Ignored("a/c/y", false) {
		t.Error("a file's patterns apply outside its directory")
	}
}
