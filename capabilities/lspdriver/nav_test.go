package lspdriver_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// navFiles is a module whose b uses a's F on a line with characters
// outside the BMP before it, and whose c calls fmt.
var navFiles = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"a/a.go": "package a\n\n// F returns one.\nfunc F() int { return 1 }\n\n// T is a type.\ntype T struct{ n int }\n\n// M is a method.\nfunc (t *T) M() int { return t.n }\n",
	"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nvar s, X = \"𝄞𝄞é\", a.F()\n",
	"c/c.go": "package c\n\nimport \"fmt\"\n\nfunc P() { fmt.Println() }\n",
}

func navWorkspace(t *testing.T) (string, map[string]*text.Doc) {
	t.Helper()
	return tree(t, navFiles)
}

// tree writes files to a new root and returns it with its workspace.
func tree(t *testing.T, files map[string]string) (string, map[string]*text.Doc) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	testtree.Write(t, root, files)
	all := map[string]*text.Doc{}
	for p, c := range files {
		all[p] = text.FromString(c)
	}
	return root, all
}

// column is the 1-based character column of the first sub in line.
func column(line, sub string) int {
	return utf8.RuneCountInString(line[:strings.Index(line, sub)]) + 1
}

func ask(t *testing.T, d capabilities.Driver, root string, all map[string]*text.Doc, kind engine.Kind, q engine.Query, changed ...string) *capabilities.Result {
	t.Helper()
	req := &capabilities.Request{Kind: kind, Root: root, All: all, Changed: changed, Query: &q}
	if q.Path != "" {
		req.Files = []string{q.Path}
	}
	res := d.Run(context.Background(), req)
	if res.Status != engine.StatusOK {
		t.Fatalf("%s %+v: %s: %s", kind, q, res.Status, res.Message)
	}
	return res
}

// TestNavigateGo: definition across packages (columns in characters on a
// line with characters outside the BMP), references with and without the
// declaration, hover with the signature and the doc, the outline with a
// method named by its type, a workspace search, and a definition outside
// the root (the standard library) by its absolute path, without text.
func TestNavigateGo(t *testing.T) {
	root, all := navWorkspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	if p := d.Probe(context.Background()); !slices.Equal(p.Offers, append([]engine.Kind{engine.Check, engine.Lint, engine.Format}, engine.LanguageKinds()...)) {
		t.Fatalf("gopls's probe offers %v", p.Offers)
	}
	bline := "var s, X = \"𝄞𝄞é\", a.F()"
	at := engine.Query{Path: "b/b.go", Line: 5, Column: column(bline, "F()")}
	res := ask(t, d, root, all, engine.Definition, at)
	want := engine.Location{Path: "a/a.go", Line: 4, Column: 6, EndLine: 4, EndColumn: 7, Text: "func F() int { return 1 }"}
	if len(res.Locations) != 1 || res.Locations[0] != want {
		t.Fatalf("definition: %+v, want %+v", res.Locations, want)
	}
	def := engine.Query{Path: "a/a.go", Line: 4, Column: 6}
	res = ask(t, d, root, all, engine.References, def)
	wantRef := engine.Location{Path: "b/b.go", Line: 5, Column: at.Column, EndLine: 5, EndColumn: at.Column + 1, Text: bline}
	if len(res.Locations) != 1 || res.Locations[0] != wantRef {
		t.Fatalf("references: %+v, want %+v", res.Locations, wantRef)
	}
	def.IncludeDeclaration = true
	if res = ask(t, d, root, all, engine.References, def); len(res.Locations) != 2 {
		t.Fatalf("references with the declaration: %+v", res.Locations)
	}
	res = ask(t, d, root, all, engine.Hover, at)
	if !strings.Contains(res.Hover, "func a.F() int") || !strings.Contains(res.Hover, "F returns one.") {
		t.Fatalf("hover: %q", res.Hover)
	}
	res = ask(t, d, root, all, engine.Symbols, engine.Query{Path: "a/a.go"})
	kinds := map[string]string{}
	for _, s := range res.Symbols {
		kinds[s.Name] = s.Kind
	}
	if kinds["F"] != "function" || kinds["T"] != "struct" || kinds["(*T).M"] != "method" || kinds["T.n"] != "field" {
		t.Fatalf("outline: %+v", res.Symbols)
	}
	res = ask(t, d, root, all, engine.Symbols, engine.Query{Text: "F"})
	if len(res.Symbols) == 0 || res.Symbols[0].Path != "a/a.go" || res.Symbols[0].Name != "F" {
		t.Fatalf("workspace search: %+v", res.Symbols)
	}
	res = ask(t, d, root, all, engine.Definition, engine.Query{Path: "c/c.go", Line: 5, Column: column("func P() { fmt.Println() }", "Println")})
	if len(res.Locations) != 1 || !filepath.IsAbs(res.Locations[0].Path) || !strings.HasSuffix(res.Locations[0].Path, filepath.Join("fmt", "print.go")) || res.Locations[0].Text != "" {
		t.Fatalf("definition in the standard library: %+v", res.Locations)
	}
	// gopls answers references on a keyword with an error: it declined
	// (unchecked, its reason), it did not crash.
	req := &capabilities.Request{Kind: engine.References, Root: root, All: all, Files: []string{"a/a.go"}, Query: &engine.Query{Path: "a/a.go", Line: 1, Column: 1}}
	if res = d.Run(context.Background(), req); res.Status != engine.StatusUnchecked || !strings.Contains(res.Message, "no identifier") {
		t.Fatalf("references on a keyword: %s: %s", res.Status, res.Message)
	}
}

// TestRenameGo: a rename of an exported function used in two packages
// edits both files (b's from the disk, with its base revision, when the
// workspace does not hold it) and writes nothing; a function that exists
// only in the workspace content is found and renamed there.
func TestRenameGo(t *testing.T) {
	root, all := navWorkspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	delete(all, "b/b.go")
	res := ask(t, d, root, all, engine.Rename, engine.Query{Path: "a/a.go", Line: 4, Column: 6, NewName: "One"})
	if got := res.Edits["a/a.go"].Content(); !strings.Contains(got, "func One() int") || !strings.Contains(got, "// One returns one.") {
		t.Fatalf("a/a.go after the rename:\n%s", got)
	}
	if got := res.Edits["b/b.go"].Content(); got != strings.Replace(navFiles["b/b.go"], "a.F()", "a.One()", 1) {
		t.Fatalf("b/b.go after the rename:\n%s", got)
	}
	if res.Bases["b/b.go"] != text.Revision([]byte(navFiles["b/b.go"])) || res.Bases["a/a.go"] != "" || len(res.Edits) != 2 {
		t.Fatalf("bases %v, edits %v", res.Bases, res.Edits)
	}
	for p, c := range navFiles {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != c {
			t.Fatalf("%s changed on disk:\n%s", p, b)
		}
	}

	// H exists only in the workspace: the server sees the unsaved content.
	all["a/a.go"] = text.FromString(navFiles["a/a.go"] + "\nfunc H() {}\n")
	all["b/b.go"] = text.FromString(navFiles["b/b.go"] + "\nfunc init() { a.H() }\n")
	changed := []string{"a/a.go", "b/b.go"}
	res = ask(t, d, root, all, engine.Definition, engine.Query{Path: "b/b.go", Line: 7, Column: 18}, changed...)
	if len(res.Locations) != 1 || res.Locations[0].Path != "a/a.go" || res.Locations[0].Line != 12 || res.Locations[0].Text != "func H() {}" {
		t.Fatalf("definition of the unsaved H: %+v", res.Locations)
	}
	res = ask(t, d, root, all, engine.Rename, engine.Query{Path: "b/b.go", Line: 7, Column: 18, NewName: "K"}, changed...)
	if !strings.HasSuffix(res.Edits["a/a.go"].Content(), "func K() {}\n") || !strings.HasSuffix(res.Edits["b/b.go"].Content(), "a.K() }\n") || len(res.Bases) != 0 {
		t.Fatalf("rename of the unsaved H: %v %v", res.Edits, res.Bases)
	}
}

// TestReferencesPastTheCap: of more references than the engine lists,
// the driver lists the first engine.MaxLocations in the engine's order
// (path, line, column in characters, on lines where characters outside
// the BMP come first), each with its text (a changed file's from the
// workspace), and counts the rest in Omitted.
func TestReferencesPastTheCap(t *testing.T) {
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"r/r.go": "package r\n\n// R returns x.\nfunc R(x int) int { return x }\n",
	}
	var want []engine.Location
	for f := range 3 {
		p := fmt.Sprintf("u/f%d.go", f)
		src := "package u\n\nimport \"example.com/m/r\"\n\n"
		for i := range 25 {
			line := fmt.Sprintf("var _, v%d_%d = \"é𝄞\", r.R(%d) + r.R(1)", f, i, i)
			src += line + "\n"
			for _, col := range []int{column(line, "R("), column(line, "+ r.R(1)") + 4} {
				want = append(want, engine.Location{Path: p, Line: 5 + i, Column: col, EndLine: 5 + i, EndColumn: col + 1, Text: line})
			}
		}
		files[p] = src
	}
	root, all := tree(t, files)
	// u/f0.go is changed in the workspace: a line before its uses.
	all["u/f0.go"] = text.FromString(strings.Replace(files["u/f0.go"], "\n\n", "\n\n// changed\n", 1))
	for i := range 50 {
		want[i].Line++
		want[i].EndLine++
	}
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	res := ask(t, d, root, all, engine.References, engine.Query{Path: "r/r.go", Line: 4, Column: 6}, "u/f0.go")
	if res.Omitted != len(want)-engine.MaxLocations || !slices.Equal(res.Locations, want[:engine.MaxLocations]) {
		t.Fatalf("references: %d listed, %d omitted, want %d and %d:\n%+v\nwant\n%+v", len(res.Locations), res.Omitted, engine.MaxLocations, len(want)-engine.MaxLocations, res.Locations, want[:engine.MaxLocations])
	}
}

// TestNavigateFollowsDiskWithoutEvents: the check of the server's inputs
// that runs alongside a navigation request finds a file rewritten on disk
// that no event reported (no watcher): the answer lists the uses the disk
// holds, every time, and goes on doing so.
func TestNavigateFollowsDiskWithoutEvents(t *testing.T) {
	lspdriver.SetNoWatch(true)
	t.Cleanup(func() { lspdriver.SetNoWatch(false) })
	root, all := navWorkspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	def := engine.Query{Path: "a/a.go", Line: 4, Column: 6}
	b := navFiles["b/b.go"]
	for i := range 4 {
		res := ask(t, d, root, all, engine.References, def)
		if len(res.Locations) != i+1 {
			t.Fatalf("round %d: %d references, want %d: %+v", i, len(res.Locations), i+1, res.Locations)
		}
		if i > 0 && res.Locations[i].Line != 5+i {
			t.Fatalf("round %d: the last reference %+v, want line %d", i, res.Locations[i], 5+i)
		}
		for range 2 { // unchanged: the same answer
			if again := ask(t, d, root, all, engine.References, def); !slices.Equal(again.Locations, res.Locations) {
				t.Fatalf("round %d, asked again: %+v, want %+v", i, again.Locations, res.Locations)
			}
		}
		// One more use, on disk only (the workspace follows, as the
		// engine's acquisition does before a request).
		b += fmt.Sprintf("var Y%d = a.F()\n", i)
		testtree.Put(t, root, "b/b.go", b)
		all["b/b.go"] = text.FromString(b)
	}
}
