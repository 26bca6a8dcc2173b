package lspdriver

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// changeRoot is a root with a.go (in the workspace, changed there), d/
// (x.go and y.go on disk, z.go in the workspace only), w.go (on disk
// and, older, in the workspace) and sub, a symlink to a directory
// outside the root.
func changeRoot(t *testing.T) (*view, *capabilities.Request, string) {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	testtree.Write(t, root, map[string]string{"a.go": "package a\n", "d/x.go": "package d\n", "d/y.go": "package d\n", "w.go": "package w // new\n"})
	testtree.Write(t, outside, map[string]string{"o.go": "package o\n"})
	if err := os.Symlink(outside, filepath.Join(root, "sub")); err != nil {
		t.Fatal(err)
	}
	fsys, err := rootfs.New(root)
	if err != nil {
		t.Fatal(err)
	}
	v := &view{root: root, docs: map[string]lsp.Document{}, deleted: map[string]bool{}, outside: map[string]bool{}, fs: fsys}
	v.docs["a.go"] = lsp.Document{Path: filepath.Join(root, "a.go"), Text: "package a // changed\n"}
	req := &capabilities.Request{Root: root, All: map[string]*text.Doc{
		"a.go": text.FromString("package a // changed\n"), "d/z.go": text.FromString("package d\n"), "w.go": text.FromString("package w\n"),
	}}
	return v, req, outside
}

func edit(abs string, line, col int, s string) lsp.FileOp {
	pos := lsp.Position{Line: line, Character: col}
	return lsp.FileOp{Kind: lsp.OpEdit, Path: abs, URI: lsp.URI(abs), Edits: []lsp.TextEdit{{Range: lsp.Range{Start: pos, End: pos}, NewText: s}}}
}

// TestChangeRefusedWhole: a change that touches a file outside the root,
// one reached through a symlink that leaves it, that creates a file, or
// edits a file whose disk content is not the workspace's, is refused
// whole, naming the file.
func TestChangeRefusedWhole(t *testing.T) {
	v, req, outside := changeRoot(t)
	ok := edit(filepath.Join(v.root, "a.go"), 0, 0, "// ok\n")
	for _, tc := range []struct {
		op   lsp.FileOp
		want string
	}{
		{edit(filepath.Join(outside, "o.go"), 0, 0, "x"), filepath.Join(outside, "o.go") + ", outside the workspace root"},
		{edit(filepath.Join(v.root, "sub", "o.go"), 0, 0, "x"), "sub/o.go, which is reached through a symlink that leaves the root"},
		{lsp.FileOp{Kind: lsp.OpCreate, Path: filepath.Join(v.root, "n.go"), URI: lsp.URI(filepath.Join(v.root, "n.go"))}, "would create the file"},
		{lsp.FileOp{Kind: lsp.OpRename, Path: filepath.Join(v.root, "a.go"), NewPath: filepath.Join(v.root, "sub", "a.go")}, "sub/a.go, which is reached through a symlink"},
		{edit(filepath.Join(v.root, "w.go"), 0, 0, "x"), "edits w.go as the disk holds it, which is not the workspace's copy"},
	} {
		res, err := change(v, req, "the rename", []lsp.FileOp{ok, tc.op})
		if res != nil || !errors.Is(err, errRefused) || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("%+v: %v, %v; want a refusal saying %q", tc.op, res, err, tc.want)
		}
	}
}

// TestChangeRenamesDirectory: a renamed directory is the renames of the
// files under it, on disk and in the workspace; an edit after the rename
// is reported by the file's path before it; a file the workspace does not
// hold is edited from the disk, with its revision in Bases.
func TestChangeRenamesDirectory(t *testing.T) {
	v, req, _ := changeRoot(t)
	ops := []lsp.FileOp{
		{Kind: lsp.OpRename, Path: filepath.Join(v.root, "d"), NewPath: filepath.Join(v.root, "e")},
		edit(filepath.Join(v.root, "e", "x.go"), 0, 8, "e"),
	}
	ops[1].Edits[0].Range.End.Character = 9
	res, err := change(v, req, "the rename", ops)
	if err != nil {
		t.Fatal(err)
	}
	want := []engine.FileRename{{From: "d/x.go", To: "e/x.go"}, {From: "d/y.go", To: "e/y.go"}, {From: "d/z.go", To: "e/z.go"}}
	if len(res.Renames) != 3 || res.Renames[0] != want[0] || res.Renames[1] != want[1] || res.Renames[2] != want[2] {
		t.Fatalf("renames %+v", res.Renames)
	}
	if len(res.Edits) != 1 || res.Edits["d/x.go"].Content() != "package e\n" || res.Bases["d/x.go"] != text.Revision([]byte("package d\n")) {
		t.Fatalf("edits %v, bases %v", res.Edits, res.Bases)
	}
}

// TestLocationsOutsideTheRoot: a location outside the root keeps its
// absolute path and the server's columns, without text; one reached
// through a symlink that leaves the root is left out and counted. They
// come in the engine's order (by path: an absolute one first).
func TestLocationsOutsideTheRoot(t *testing.T) {
	v, req, outside := changeRoot(t)
	ms := &mappers{v: v, req: req, m: map[string]*text.Mapper{}}
	r := lsp.Range{Start: lsp.Position{Line: 0, Character: 8}, End: lsp.Position{Line: 0, Character: 9}}
	got, omitted, dropped := locations(v, ms, []lsp.Location{
		{Path: filepath.Join(v.root, "a.go"), Range: r},
		{Path: filepath.Join(outside, "o.go"), Range: r},
		{Path: filepath.Join(v.root, "sub", "o.go"), Range: r},
	})
	want := []engine.Location{
		{Path: filepath.Join(outside, "o.go"), Line: 1, Column: 9, EndLine: 1, EndColumn: 10},
		{Path: "a.go", Line: 1, Column: 9, EndLine: 1, EndColumn: 10, Text: "package a // changed"},
	}
	if dropped != 1 || omitted != 0 || len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("got %+v (%d dropped), want %+v (1 dropped)", got, dropped, want)
	}
}
