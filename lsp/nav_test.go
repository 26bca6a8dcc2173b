package lsp_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// navModule is module (a.F used by b) with a method and a doc comment.
func navModule(t *testing.T) (string, []lsp.Document) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(module(t))
	src := "package a\n\n// F returns one.\nfunc F() int { return 1 }\n\n// T is a type.\ntype T struct{ n int }\n\n// M is a method.\nfunc (t *T) M() int { return t.n }\n"
	testtree.Put(t, root, "a/a.go", src)
	return root, []lsp.Document{
		{Path: filepath.Join(root, "a/a.go"), LanguageID: "go", Text: src},
		{Path: filepath.Join(root, "b/b.go"), LanguageID: "go", Text: "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n"},
	}
}

func TestNavigateGopls(t *testing.T) {
	root, docs := navModule(t)
	s := newGopls(t, root)
	ctx := context.Background()
	a, b := docs[0].Path, docs[1].Path
	// b.go line 5 "var X = a.F()": F at character 10.
	defs, err := s.Definition(ctx, docs, b, lsp.Position{Line: 4, Character: 10})
	if err != nil || len(defs) != 1 || defs[0].Path != a || defs[0].Range.Start != (lsp.Position{Line: 3, Character: 5}) {
		t.Fatalf("definition: %+v, %v", defs, err)
	}
	refs, err := s.References(ctx, docs, a, lsp.Position{Line: 3, Character: 5}, false)
	if err != nil || len(refs) != 1 || refs[0].Path != b {
		t.Fatalf("references without the declaration: %+v, %v", refs, err)
	}
	refs, err = s.References(ctx, docs, a, lsp.Position{Line: 3, Character: 5}, true)
	if err != nil || len(refs) != 2 {
		t.Fatalf("references with the declaration: %+v, %v", refs, err)
	}
	hover, err := s.Hover(ctx, docs, b, lsp.Position{Line: 4, Character: 10})
	if err != nil || !strings.Contains(hover, "func a.F() int") || !strings.Contains(hover, "F returns one.") {
		t.Fatalf("hover: %q, %v", hover, err)
	}
	syms, err := s.DocumentSymbols(ctx, docs, a)
	var names []string
	for _, sym := range syms {
		names = append(names, sym.Name)
	}
	if err != nil || !strings.Contains(strings.Join(names, ","), "(*T).M") {
		t.Fatalf("document symbols: %v, %v", names, err)
	}
	found, err := s.WorkspaceSymbols(ctx, docs, "M")
	if err != nil || len(found) == 0 {
		t.Fatalf("workspace symbols: %+v, %v", found, err)
	}
	w, err := s.Rename(ctx, docs, a, lsp.Position{Line: 3, Character: 5}, "G")
	if err != nil {
		t.Fatal(err)
	}
	edited := map[string]bool{}
	for _, op := range w.Ops() {
		edited[op.Path] = op.Kind == lsp.OpEdit && len(op.Edits) > 0
	}
	if !edited[a] || !edited[b] || len(edited) != 2 {
		t.Fatalf("rename edits: %+v", w.Ops())
	}
	_, err = s.Rename(ctx, docs, a, lsp.Position{Line: 0, Character: 0}, "G")
	if !errors.Is(err, lsp.ErrCannotRename) {
		t.Fatalf("rename of a keyword: %v", err)
	}
	t.Logf("offers: %v", s.Offers())
}

// TestNotOffered: a server whose initialize answer offers none of the
// requests about code fails each with ErrNotOffered, naming it.
func TestNotOffered(t *testing.T) {
	root := t.TempDir()
	exe, _ := os.Executable()
	s := lsp.NewServer(lsp.Config{Name: "fake", Command: []string{exe}, Root: root, Env: []string{lsptest.EnvVar + "=" + lsptest.NoRename}})
	t.Cleanup(func() { _ = s.Close() })
	ctx := context.Background()
	file := filepath.Join(root, "x.txt")
	docs := []lsp.Document{{Path: file, LanguageID: "text", Text: "hello\n"}}
	_, err := s.Rename(ctx, docs, file, lsp.Position{}, "y")
	if !errors.Is(err, lsp.ErrNotOffered) || !strings.Contains(err.Error(), "does not offer rename") {
		t.Fatalf("rename: %v", err)
	}
	offers := s.Offers()
	if offers[lsp.MethodRename] || !offers[lsp.MethodDefinition] {
		t.Fatalf("offers: %v", offers)
	}
	locs, err := s.Definition(ctx, docs, file, lsp.Position{})
	if err != nil || len(locs) != 1 {
		t.Fatalf("definition from the fake: %+v, %v", locs, err)
	}
}
