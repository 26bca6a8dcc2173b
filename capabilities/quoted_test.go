package capabilities

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

// gccOutput is what gopls reports, as one diagnostic's message, for a cgo
// package whose preamble includes a file outside the root: the go
// command's header, gcc's include chain, and each error with the line of
// the outside file it quotes, a caret and a fix-it; then an error in the
// root's own file, whose excerpt stays.
const gccOutput = `# example.com/m/a
In file included from a/a.go:3:
a/../../outside/secret.h:1:1: error: unknown type name ‘SECRETK00abc’
    1 | SECRETK00abc
      | ^~~~~~~~~~~~
a/../../outside/secret.h:4:17: error: ‘SECRETK04xyz’ undeclared here (not in a function); did you mean ‘SECRETK03’?
    4 | int SECRETK03 = SECRETK04xyz;
      |                 ^~~~~~~~~~~~
      |                 SECRETK03
/abs/outside/other.h: In function ‘SECRETK05fn’:
/abs/outside/other.h:2:3: warning: implicit declaration of function ‘SECRETK06’
In file included from /abs/outside/other.h:1,
                 from a/a.go:4:
/abs/outside/third.h:7: note: SECRETK07 here
a/a.go:5:9: note: in expansion of macro ‘M’
    5 | int y = M;
      |         ^`

const gccWithheld = `# example.com/m/a
In file included from a/a.go:3:
a/../../outside/secret.h:1:1: error: ` + Withheld + `
a/../../outside/secret.h:4:17: error: ` + Withheld + `
/abs/outside/other.h: ` + Withheld + `
/abs/outside/other.h:2:3: warning: ` + Withheld + `
In file included from /abs/outside/other.h:1,
                 from a/a.go:4:
/abs/outside/third.h:7: note: ` + Withheld + `
a/a.go:5:9: note: in expansion of macro ‘M’
    5 | int y = M;
      |         ^`

// TestWithholdOutside: what a compiler says about a place in a file
// outside the root keeps its place and severity and loses its text and
// the excerpt under it; the rest stays as the tool wrote it.
func TestWithholdOutside(t *testing.T) {
	inside := func(p string) bool { return !strings.Contains(p, "outside") }
	if got := withholdOutside(gccOutput, inside); got != gccWithheld {
		t.Fatalf("got\n%s\nwant\n%s", got, gccWithheld)
	}
	for _, msg := range []string{
		"F redeclared in this block",
		"a/a.go:3:1: error: expected ‘;’\n    3 | int x\n      |      ^",
		"cannot use x (variable of type int) as string value in assignment: need type conversion",
		"go list failed to return CompiledGoFiles for \"a\".\nThis may indicate failure to perform cgo processing; try building at the command line. See https://golang.org/issue/38990.",
		"",
	} {
		if got := withholdOutside(msg, inside); got != msg {
			t.Errorf("%q changed to %q", msg, got)
		}
	}
}

// TestShownFrom: a path a tool printed is the root's to show only when it
// is from every directory the tool may have resolved it from (the root,
// or one between it and the diagnostic's file), and no symlink on the way
// leaves the root.
func TestShownFrom(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	testtree.Write(t, root, map[string]string{"a/a.go": "package a\n", "a/in.h": "int x;\n", "x.h": "int y;\n"})
	testtree.Write(t, filepath.Join(base, "outside"), map[string]string{"secret.h": "SECRET\n"})
	if err := os.Symlink(filepath.Join(base, "outside"), filepath.Join(root, "a", "link")); err != nil {
		t.Fatal(err)
	}
	fsys, err := rootfs.New(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		file, p string
		want    bool
	}{
		{"a/a.go", "a/in.h", true},
		{"a/a.go", "./a/in.h", true},
		{"a/a.go", "x.h", true},
		{"a/a.go", filepath.Join(root, "a", "in.h"), true},
		{"a/a.go", "a/../../outside/secret.h", false},
		{"a/a.go", "../outside/secret.h", false},
		{"a/a.go", filepath.Join(base, "outside", "secret.h"), false},
		{"a/a.go", "a/link/secret.h", false},
		{"a/a.go", "link/secret.h", false}, // a/link from a/
		{"", "link/secret.h", true},        // no file: the root's link/ (none)
		{"a/a.go", "/etc/passwd", false},
		{"a/a.go", "../x.h", false}, // from a/, the root's x.h; from the root, outside
	} {
		if got := shownFrom(fsys, tc.file, tc.p); got != tc.want {
			t.Errorf("shownFrom(%q, %q) = %v, want %v", tc.file, tc.p, got, tc.want)
		}
	}
	if shownFrom(nil, "", "x.h") {
		t.Error("with no root, a path is shown")
	}
}

// FuzzWithholdOutside: whatever the output, every line that survives
// outside-judged places is a line of the input or a place with the
// withheld note, and a tool that names no outside file is left as it is.
func FuzzWithholdOutside(f *testing.F) {
	f.Add(gccOutput)
	f.Add("a.go:1:1: error: x\n  1 | y\n")
	f.Add("In file included from x.h:2,\n                 from y.c:1:\nz.h:3:4: fatal error: w\n")
	f.Add("p: In function ‘f’:\np:1: note: q")
	f.Fuzz(func(t *testing.T, msg string) {
		if got := withholdOutside(msg, func(string) bool { return true }); got != msg {
			t.Fatalf("with every file inside, %q changed to %q", msg, got)
		}
		got := withholdOutside(msg, func(string) bool { return false })
		in := map[string]bool{}
		for _, l := range strings.Split(msg, "\n") {
			in[l] = true
		}
		for _, l := range strings.Split(got, "\n") {
			if !in[l] && !strings.HasSuffix(l, Withheld) && !placeLine.MatchString(l) {
				t.Fatalf("%q: line %q is neither the input's nor a place", msg, l)
			}
		}
		if again := withholdOutside(got, func(string) bool { return false }); again != got {
			t.Fatalf("not settled: %q, then %q", got, again)
		}
	})
}

// TestDropRepeatedKeepsRelated: one finding reported by several drivers
// is one diagnostic, and it keeps the related places of whichever report
// had them.
func TestDropRepeatedKeepsRelated(t *testing.T) {
	rel := []engine.Related{{Path: "a.go", Line: 3, Column: 6, Message: "other declaration of F"}}
	for _, ds := range [][]engine.Diagnostic{
		{{Path: "b.go", Line: 3, Message: "F redeclared", Severity: engine.SeverityError, Source: "staticcheck"}, {Path: "b.go", Line: 3, Message: "F redeclared", Severity: engine.SeverityError, Source: "gopls", Related: rel}},
		{{Path: "b.go", Line: 3, Message: "F redeclared", Severity: engine.SeverityWarning, Source: "gopls", Related: rel}, {Path: "b.go", Line: 3, Message: "F redeclared", Severity: engine.SeverityError, Source: "go-vet"}},
	} {
		got := dropRepeated(ds)
		if len(got) != 1 || len(got[0].AlsoFrom) != 1 || !slices.Equal(got[0].Related, rel) {
			t.Errorf("%+v: got %+v", ds, got)
		}
	}
}

// BenchmarkConfine is what withholding costs an answer at the diagnostic
// cap (200): 199 type errors of the usual shape and gopls's report of a
// cgo include outside the root.
func BenchmarkConfine(b *testing.B) {
	root := b.TempDir()
	s := &Set{root: root}
	ds := make([]engine.Diagnostic, 0, 200)
	for i := range 199 {
		ds = append(ds, engine.Diagnostic{Path: fmt.Sprintf("p%d/a.go", i%10), Line: i + 1, Message: "cannot use x (variable of type int) as string value in assignment: need type conversion"})
	}
	ds = append(ds, engine.Diagnostic{Path: "a/a.go", Line: 1, Message: gccOutput})
	b.ReportAllocs()
	for b.Loop() {
		resp := &engine.Response{Output: engine.Output{Diagnostics: slices.Clone(ds)}}
		s.confine(resp)
	}
}
