package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

func limited(t testing.TB, files map[string]string, l Limits) (string, *Workspace) {
	t.Helper()
	root := testtree.New(t, files)
	fsys, err := rootfs.New(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, New(fsys, l)
}

// When the file limit needs room, the least recently used file without
// unwritten changes leaves; a file with unwritten changes never does.
func TestEvictLeastRecentlyUsed(t *testing.T) {
	files := map[string]string{"a": "a\n", "b": "b\n", "c": "c\n", "d": "d\n", "e": "e\n"}
	_, w := limited(t, files, Limits{MaxFiles: 3})
	acquire(t, w, "a")
	acquire(t, w, "b")
	acquire(t, w, "c")
	apply(t, w, func(tx *Txn) error { return tx.Set("a", doc("A\n")) }) // unwritten: stays
	if _, err := w.ReadLines("b", 1, 0); err != nil {                   // b is now used after c
		t.Fatal(err)
	}
	acquire(t, w, "d")
	wantList(t, "paths after acquiring d", w.Paths(), []string{"a", "b", "d"})
	// Acquiring a held file counts as a use: b is newer than d now.
	acquire(t, w, "b")
	acquire(t, w, "e")
	wantList(t, "paths after acquiring e", w.Paths(), []string{"a", "b", "e"})
	if content(w, "a") != "A\n" {
		t.Errorf("the unwritten change to a was lost")
	}
	if len(w.Changes()) != 1 || w.Changes()[0].Path != "a" {
		t.Errorf("changes = %+v, want only a", w.Changes())
	}
	// An evicted file comes back when acquired again.
	acquire(t, w, "c")
	wantList(t, "paths after acquiring c again", w.Paths(), []string{"a", "c", "e"})
}

// A file added by a change makes room the same way.
func TestEvictForAddedFile(t *testing.T) {
	_, w := limited(t, map[string]string{"a": "a\n", "b": "b\n"}, Limits{MaxFiles: 2})
	acquire(t, w, "a", "b")
	acquire(t, w, "a")
	apply(t, w, func(tx *Txn) error { return tx.Add("n", doc("n\n")) })
	wantList(t, "paths", w.Paths(), []string{"a", "n"})
}

// The byte limit makes room too.
func TestEvictForBytes(t *testing.T) {
	_, w := limited(t, map[string]string{"a": "aaaa\n", "b": "bbbb\n", "c": "cccc\n"}, Limits{MaxTotalBytes: 12})
	acquire(t, w, "a")
	acquire(t, w, "b")
	acquire(t, w, "c")
	wantList(t, "paths", w.Paths(), []string{"b", "c"})
	if w.bytes != 10 {
		t.Errorf("bytes = %d, want 10", w.bytes)
	}
}

// When even the files without unwritten changes leaving cannot make room,
// the error says how to release the others.
func TestEvictLimitError(t *testing.T) {
	files := map[string]string{"a": "a\n", "b": "b\n", "c": "c\n"}
	_, w := limited(t, files, Limits{MaxFiles: 2})
	acquire(t, w, "a", "b")
	apply(t, w, func(tx *Txn) error {
		if err := tx.Set("a", doc("A\n")); err != nil {
			return err
		}
		return tx.Set("b", doc("B\n"))
	})
	_, err := w.Acquire([]string{"c"})
	wantFault(t, err, fault.Bounds, "c: the workspace would hold 3 files, over its limit of 2 files (limits.max_files in .devbroker.toml)",
		"cannot leave to make room", "write their changes (write) or drop them (discard)")
	wantList(t, "paths after the failure", w.Paths(), []string{"a", "b"})
	// Writing releases them.
	if _, err := w.Write(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	acquire(t, w, "c")
	wantList(t, "paths after the write", w.Paths(), []string{"b", "c"})

	// An acquisition never evicts its own files.
	_, w = limited(t, files, Limits{MaxFiles: 2})
	_, err = w.Acquire([]string{"*"})
	wantFault(t, err, fault.Bounds, "over its limit of 2 files")
	// Nor does it evict to fit more bytes than the limit.
	_, w = limited(t, files, Limits{MaxTotalBytes: 5})
	apply(t, w, func(tx *Txn) error { return tx.Add("n", doc("nnnn\n")) })
	_, err = w.Acquire([]string{"a"})
	wantFault(t, err, fault.Bounds, "total limit of 5 bytes", "discard")
}

// Reading files again before a check never makes room by dropping others:
// every file the plan acquired must reach the drivers. The next
// acquisition brings the workspace back under its limit.
func TestFollowDiskDoesNotEvict(t *testing.T) {
	root, w := limited(t, map[string]string{"a": "aaaa\n", "b": "bbbb\n"}, Limits{MaxTotalBytes: 12})
	acquire(t, w, "a", "b")
	if err := os.WriteFile(filepath.Join(root, "b"), []byte("bbbbbbbbbb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if left := w.FollowDisk(); len(left) != 0 {
		t.Fatalf("left = %v", left)
	}
	wantList(t, "paths after FollowDisk", w.Paths(), []string{"a", "b"})
	if content(w, "b") != "bbbbbbbbbb\n" {
		t.Errorf("b = %q, want what the disk holds", content(w, "b"))
	}
	acquire(t, w, "b")
	wantList(t, "paths after the next acquisition", w.Paths(), []string{"b"})
}
