package workspace

import (
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// Restore takes back every change since Save: edits, moves, deletions,
// additions and acquisitions, and what left to make room comes back.
func TestSaveRestore(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n", "late.txt": "l\n"})
	w := open(t, root, nil, "a.txt", "b.txt", "c.txt")
	apply(t, w, func(tx *Txn) error { return tx.Set("a.txt", doc("A, before\n")) })
	before, changes, unwritten, bytes := snapshot(w), w.Changes(), w.Unwritten(), w.bytes

	s := w.Save()
	apply(t, w, func(tx *Txn) error {
		if err := tx.Set("a.txt", doc("A, after\n")); err != nil {
			return err
		}
		if err := tx.Delete("b.txt"); err != nil {
			return err
		}
		if err := tx.Move("c.txt", "d/c.txt"); err != nil {
			return err
		}
		return tx.Add("n.txt", doc("n\n"))
	})
	if _, err := w.Acquire([]string{"late.txt"}); err != nil {
		t.Fatal(err)
	}
	if len(w.Unwritten()) != 5 {
		t.Fatalf("unwritten before restore = %v", w.Unwritten())
	}
	w.Restore(s)

	wantMap(t, "workspace after restore", snapshot(w), before)
	wantList(t, "unwritten after restore", w.Unwritten(), unwritten)
	if got := w.Changes(); len(got) != len(changes) || got[0] != changes[0] {
		t.Errorf("changes after restore = %+v, want %+v", got, changes)
	}
	if w.bytes != bytes {
		t.Errorf("bytes after restore = %d, want %d", w.bytes, bytes)
	}
	// The state can be restored again, and later changes still work.
	w.Restore(s)
	wantMap(t, "workspace after a second restore", snapshot(w), before)
	apply(t, w, func(tx *Txn) error { return tx.Set("b.txt", doc("B\n")) })
	wantList(t, "unwritten after a later change", w.Unwritten(), []string{"a.txt", "b.txt"})
	discardAll(t, w)
	wantMap(t, "disk", testtree.Read(t, root), map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n", "late.txt": "l\n"})
}

// Restore takes back the steps' changes, not the disk: a file with no
// unwritten change that was read again since Save (someone else changed
// it on disk) keeps what the disk holds.
func TestRestoreKeepsDiskRefresh(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "a\n", "y.txt": "y\n"})
	w := open(t, root, nil, "a.txt", "y.txt")
	s := w.Save()
	apply(t, w, func(tx *Txn) error { return tx.Set("a.txt", doc("A\n")) })
	testtree.Put(t, root, "y.txt", "y, changed elsewhere\n")
	w.FollowDisk()
	w.Restore(s)
	wantMap(t, "workspace after restore", snapshot(w), map[string]string{"a.txt": "a\n", "y.txt": "y, changed elsewhere\n"})
	wantList(t, "unwritten after restore", w.Unwritten(), nil)
	if got := w.Changes(); len(got) != 0 {
		t.Errorf("changes after restore = %+v, want none", got)
	}
	if want := int64(len("a\n") + len("y, changed elsewhere\n")); w.bytes != want {
		t.Errorf("bytes after restore = %d, want %d", w.bytes, want)
	}
}
