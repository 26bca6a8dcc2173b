package search

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/engine/workspace"
)

// setup writes files under a new root and returns its filesystem and an
// empty workspace over it.
func setup(t *testing.T, files map[string]string) (*rootfs.FS, *workspace.Workspace) {
	t.Helper()
	fsys, err := rootfs.New(testtree.New(t, files))
	if err != nil {
		t.Fatal(err)
	}
	return fsys, workspace.New(fsys, workspace.Limits{})
}

// change acquires paths and runs fn over the workspace in one transaction.
func change(t *testing.T, ws *workspace.Workspace, paths []string, fn func(*workspace.Txn) error) {
	t.Helper()
	if _, err := ws.Acquire(paths); err != nil {
		t.Fatal(err)
	}
	tx := ws.Begin()
	if err := fn(tx); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
}

func run(t *testing.T, fsys *rootfs.FS, ws Workspace, q Query) *Result {
	t.Helper()
	r, err := Search(context.Background(), fsys, ws, q)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// places lists matches as "path:line:column-endcolumn".
func places(r *Result) []string {
	var out []string
	for _, m := range r.Matches {
		out = append(out, fmt.Sprintf("%s:%d:%d-%d", m.Path, m.Line, m.Column, m.EndColumn))
	}
	return out
}

func same(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("matches\n got %v\nwant %v", got, want)
	}
}

func TestWorkspaceShadowsDisk(t *testing.T) {
	fsys, ws := setup(t, map[string]string{
		"a.go":     "package a // needle on disk\n",
		"gone.go":  "needle\n",
		"old.go":   "x\nneedle\n",
		"plain.go": "y needle\n",
	})
	change(t, ws, []string{"a.go", "gone.go", "old.go"}, func(tx *workspace.Txn) error {
		if err := tx.Set("a.go", text.FromString("package a\n\n// the needle, changed\n")); err != nil {
			return err
		}
		if err := tx.Delete("gone.go"); err != nil {
			return err
		}
		if err := tx.Add("new.go", text.FromString("needle needle\n")); err != nil {
			return err
		}
		return tx.Move("old.go", "sub/moved.go")
	})
	r := run(t, fsys, ws, Query{Pattern: "needle"})
	same(t, places(r), []string{"a.go:3:8-14", "new.go:1:1-7", "new.go:1:8-14", "plain.go:1:3-9", "sub/moved.go:2:1-7"})
	if r.Matches[0].Text != "// the needle, changed" {
		t.Errorf("text %q, want the workspace's line", r.Matches[0].Text)
	}
	if r.Files != 4 || r.Omitted != 0 {
		t.Errorf("files %d omitted %d, want 4 and 0", r.Files, r.Omitted)
	}
}

func TestGitignore(t *testing.T) {
	fsys, ws := setup(t, map[string]string{
		".gitignore":         "*.log\nbuild/\n/top.txt\n",
		"a.log":              "hit\n",
		"keep/.gitignore":    "!*.log\n",
		"keep/b.log":         "hit\n",
		"build/out.txt":      "hit\n",
		"top.txt":            "hit\n",
		"sub/top.txt":        "hit\n",
		"sub/.gitignore":     "secret*\n",
		"sub/secret.txt":     "hit\n",
		".git/config":        "hit\n",
		"bin.dat":            "hit\x00\n",
		"held/.gitignore":    "*\n",
		"held/in.txt":        "hit\n",
		"held/other.txt":     "hit\n",
		"src/main.go":        "hit\n",
		"src/vendor/v.go":    "hit\n",
		"node_modules/m.js":  "hit\n",
		"keep/nested/c.log":  "hit\n",
		"keep/nested/d.logx": "hit\n",
	})
	if _, err := ws.Acquire([]string{"held/in.txt"}); err != nil {
		t.Fatal(err)
	}
	r := run(t, fsys, ws, Query{Pattern: "hit"})
	same(t, places(r), []string{
		"held/in.txt:1:1-4", "keep/b.log:1:1-4", "keep/nested/c.log:1:1-4", "keep/nested/d.logx:1:1-4",
		"node_modules/m.js:1:1-4", "src/main.go:1:1-4", "src/vendor/v.go:1:1-4", "sub/top.txt:1:1-4",
	})
	// A path the caller names is searched though .gitignore ignores it;
	// what lies below it is still filtered.
	r = run(t, fsys, ws, Query{Pattern: "hit", Paths: []string{"build", "a.log", "sub"}})
	same(t, places(r), []string{"a.log:1:1-4", "build/out.txt:1:1-4", "sub/top.txt:1:1-4"})
	// A workspace copy of .gitignore is the one read.
	change(t, ws, []string{".gitignore"}, func(tx *workspace.Txn) error {
		return tx.Set(".gitignore", text.FromString("*.log\n*.go\n"))
	})
	r = run(t, fsys, ws, Query{Pattern: "hit", Paths: []string{"build/**", "top.txt", "sub/*.txt"}})
	same(t, places(r), []string{"build/out.txt:1:1-4", "sub/top.txt:1:1-4", "top.txt:1:1-4"})
	if _, err := Search(context.Background(), fsys, ws, Query{Pattern: "hit", Paths: []string{"src/**"}}); fault.KindOf(err) != fault.NotFound {
		t.Errorf("a glob whose files .gitignore ignores: %v, want not_found", err)
	}
}

func TestRegexAndLiteral(t *testing.T) {
	fsys, ws := setup(t, map[string]string{
		"a.txt": "a.c abc\nfoo(x)\nend foo\n",
		"b.txt": "foo at start\n",
	})
	same(t, places(run(t, fsys, ws, Query{Pattern: "a.c"})), []string{"a.txt:1:1-4"})
	same(t, places(run(t, fsys, ws, Query{Pattern: "a.c", Regex: true})), []string{"a.txt:1:1-4", "a.txt:1:5-8"})
	same(t, places(run(t, fsys, ws, Query{Pattern: "foo(x)"})), []string{"a.txt:2:1-7"})
	same(t, places(run(t, fsys, ws, Query{Pattern: "^foo", Regex: true})), []string{"a.txt:2:1-4", "b.txt:1:1-4"})
	same(t, places(run(t, fsys, ws, Query{Pattern: `foo$`, Regex: true})), []string{"a.txt:3:5-8"})
	same(t, places(run(t, fsys, ws, Query{Pattern: `\Afoo`, Regex: true})), []string{"a.txt:2:1-4", "b.txt:1:1-4"})
	same(t, places(run(t, fsys, ws, Query{Pattern: `c\nfoo`, Regex: true})), nil)
}

func TestBadArguments(t *testing.T) {
	fsys, ws := setup(t, map[string]string{"a.txt": "x\n"})
	for _, c := range []struct {
		q    Query
		kind fault.Kind
		want string
	}{
		{Query{Pattern: ""}, fault.BadArgument, "pattern is empty"},
		{Query{Pattern: "a(", Regex: true}, fault.BadArgument, "missing closing )"},
		{Query{Pattern: "a\nb"}, fault.BadArgument, "within one line"},
		{Query{Pattern: "x", Paths: []string{"../a"}}, fault.BadArgument, ".."},
		{Query{Pattern: "x", Paths: []string{"a/[b"}}, fault.BadArgument, "not a valid glob"},
		{Query{Pattern: "x", Paths: []string{"nope.txt"}}, fault.NotFound, `"nope.txt" matches no file`},
		{Query{Pattern: "x", Paths: []string{"**/*.go"}}, fault.NotFound, `"**/*.go" matches no file`},
	} {
		_, err := Search(context.Background(), fsys, ws, c.q)
		if fault.KindOf(err) != c.kind || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v (%s), want %s with %q", c.q, err, fault.KindOf(err), c.kind, c.want)
		}
	}
}

func TestCapAndOmitted(t *testing.T) {
	files := map[string]string{}
	for i := range 30 {
		files[fmt.Sprintf("f%02d.txt", i)] = strings.Repeat("x x\n", 5)
	}
	fsys, ws := setup(t, files)
	r := run(t, fsys, ws, Query{Pattern: "x"})
	if len(r.Matches) != MaxMatches || r.Omitted != 300-MaxMatches || r.Files != 30 {
		t.Fatalf("%d matches, %d omitted, %d files; want %d, %d, 30", len(r.Matches), r.Omitted, r.Files, MaxMatches, 300-MaxMatches)
	}
	if last := r.Matches[MaxMatches-1]; last.Path != "f09.txt" || last.Line != 5 || last.Column != 3 {
		t.Errorf("the last listed match is %+v, want f09.txt:5:3", last)
	}
	r = run(t, fsys, ws, Query{Pattern: "x", Regex: true, Max: 7})
	if len(r.Matches) != 7 || r.Omitted != 293 {
		t.Errorf("regex: %d matches, %d omitted; want 7 and 293", len(r.Matches), r.Omitted)
	}
}

func TestColumnsAndLines(t *testing.T) {
	long := strings.Repeat("é", 300) + "needle" + strings.Repeat("z", 300)
	fsys, ws := setup(t, map[string]string{
		"crlf.txt":  "one\r\ntwo needle\r\nneedle\r\n",
		"utf8.txt":  "héllo wörld 😀 needle\n",
		"bom.txt":   "\uFEFFneedle\n",
		"long.txt":  long + "\n",
		"final.txt": "no newline needle",
	})
	r := run(t, fsys, ws, Query{Pattern: "needle"})
	same(t, places(r), []string{
		"bom.txt:1:1-7", "crlf.txt:2:5-11", "crlf.txt:3:1-7", "final.txt:1:12-18",
		"long.txt:1:301-307", "utf8.txt:1:15-21",
	})
	if got := r.Matches[1].Text; got != "two needle" {
		t.Errorf("a CRLF line's text is %q", got)
	}
	if got := r.Matches[4].Text; !strings.HasPrefix(got, "…") || !strings.HasSuffix(got, "…") || !strings.Contains(got, "needle") || len([]rune(got)) != maxText+2 {
		t.Errorf("a long line's text is %q", got)
	}
	// $ before "\r\n" ends the line.
	same(t, places(run(t, fsys, ws, Query{Pattern: "needle$", Regex: true, Paths: []string{"crlf.txt"}})), []string{"crlf.txt:2:5-11", "crlf.txt:3:1-7"})
}

// TestSkippedFilesAreNamed: a search says which selected files it did not
// search and why (it answered "nothing found in 0 files" for a named 58
// MB file, and skipped large and binary files without a word); a file a
// path names is searched up to MaxNamedFileBytes.
func TestSkippedFilesAreNamed(t *testing.T) {
	big := strings.Repeat("filler line\n", (MaxFileBytes/12)+10) + "needle here\n"
	huge := strings.Repeat("x", MaxNamedFileBytes+1)
	fsys, ws := setup(t, map[string]string{
		"a.txt":    "needle\n",
		"big.log":  big,
		"blob.bin": "needle\x00\x01",
		"huge.txt": huge,
	})

	r := run(t, fsys, ws, Query{Pattern: "needle"})
	same(t, places(r), []string{"a.txt:1:1-7"})
	reasons := map[string]string{}
	for _, s := range r.Skipped {
		reasons[s.Path] = s.Reason
	}
	for path, want := range map[string]string{
		"big.log":  "name the file in paths to search it",
		"blob.bin": "binary",
		"huge.txt": "over the 2 MiB",
	} {
		if !strings.Contains(reasons[path], want) {
			t.Errorf("%s: skipped for %q, want a reason with %q (all: %v)", path, reasons[path], want, r.Skipped)
		}
	}
	if r.Files != 1 {
		t.Errorf("files searched %d, want 1", r.Files)
	}

	// Named, the large file is searched; the huge one is over the named
	// limit, and the answer says so.
	r = run(t, fsys, ws, Query{Pattern: "needle", Paths: []string{"big.log"}})
	if len(r.Matches) != 1 || r.Matches[0].Path != "big.log" || len(r.Skipped) != 0 {
		t.Errorf("named big.log: matches %v, skipped %v", places(r), r.Skipped)
	}
	r = run(t, fsys, ws, Query{Pattern: "needle", Paths: []string{"huge.txt"}})
	if len(r.Skipped) != 1 || !strings.Contains(r.Skipped[0].Reason, "over the 64 MiB a search reads of a file named in paths") {
		t.Errorf("named huge.txt: skipped %v", r.Skipped)
	}
}

// TestSkippedListIsCapped: past MaxSkipped, the rest are counted.
func TestSkippedListIsCapped(t *testing.T) {
	files := map[string]string{}
	for i := range MaxSkipped + 5 {
		files[fmt.Sprintf("b%02d.bin", i)] = "\x00"
	}
	fsys, ws := setup(t, files)
	r := run(t, fsys, ws, Query{Pattern: "x"})
	if len(r.Skipped) != MaxSkipped || r.SkippedMore != 5 {
		t.Errorf("skipped %d listed, %d more; want %d and 5", len(r.Skipped), r.SkippedMore, MaxSkipped)
	}
}
