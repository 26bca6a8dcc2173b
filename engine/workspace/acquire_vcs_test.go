package workspace

import (
	"slices"
	"testing"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

func TestGlobSkipsVCSDirectories(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"a.txt", ".git/config", ".git/objects/x", "sub/.git/HEAD", "sub/b.txt"} {
		testtree.Put(t, root, p, "x\n")
	}
	fsys, err := rootfs.New(root)
	if err != nil {
		t.Fatal(err)
	}
	w := New(fsys, Limits{})
	if _, err := w.Acquire([]string{"**"}); err != nil {
		t.Fatal(err)
	}
	if got := w.Paths(); !slices.Equal(got, []string{"a.txt", "sub/b.txt"}) {
		t.Errorf("** acquired %v", got)
	}
	// A glob that names the directory reaches into it.
	if _, err := w.Acquire([]string{".git/*"}); err != nil {
		t.Fatal(err)
	}
	if _, ok := w.Doc(".git/config"); !ok {
		t.Error(".git/* did not acquire .git/config")
	}
}
