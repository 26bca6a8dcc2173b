package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/testtree"
)

func acquire(t testing.TB, w *Workspace, patterns ...string) []Stale {
	t.Helper()
	stale, err := w.Acquire(patterns)
	if err != nil {
		t.Fatal(err)
	}
	return stale
}

func content(w *Workspace, p string) string {
	d, ok := w.Doc(p)
	if !ok {
		return "<not held>"
	}
	return d.String()
}

// A held file with no unwritten change follows the disk: acquiring it again
// reads the new content, which is neither a change nor a conflict.
func TestAcquireRereadsOutsideChange(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n"})
	w := open(t, root, nil, "a.txt", "b.txt")
	testtree.Put(t, root, "a.txt", "one, changed outside\n")
	if stale := acquire(t, w, "a.txt"); len(stale) != 0 {
		t.Errorf("stale = %+v, want none", stale)
	}
	if got := content(w, "a.txt"); got != "one, changed outside\n" {
		t.Fatalf("a.txt = %q after an outside change, want the disk's content", got)
	}
	if w.Dirty() || len(w.Unwritten()) != 0 || len(w.Changes()) != 0 {
		t.Errorf("the re-read is a change: dirty %v, unwritten %v, changes %+v", w.Dirty(), w.Unwritten(), w.Changes())
	}
	// An edit on the new content writes without a conflict.
	apply(t, w, func(tx *Txn) error { return tx.Set("a.txt", doc("two\n")) })
	if _, err := w.Write(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if d := testtree.Read(t, root); d["a.txt"] != "two\n" {
		t.Errorf("disk = %v", d)
	}
	// Through a glob too.
	testtree.Put(t, root, "b.txt", "bee, changed outside\n")
	acquire(t, w, "*.txt")
	if got := content(w, "b.txt"); got != "bee, changed outside\n" {
		t.Errorf("b.txt = %q after acquiring *.txt", got)
	}
}

// A held file with unwritten changes keeps them and is reported stale.
func TestAcquireReportsStale(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n", "c.txt": "sea\n"})
	w := open(t, root, nil, "a.txt", "b.txt", "c.txt")
	apply(t, w, func(tx *Txn) error {
		if err := tx.Set("a.txt", doc("mine\n")); err != nil {
			return err
		}
		if err := tx.Set("b.txt", doc("mine too\n")); err != nil {
			return err
		}
		return tx.Set("c.txt", doc("unchanged on disk\n"))
	})
	testtree.Put(t, root, "a.txt", "theirs\n")
	if err := os.Remove(filepath.Join(root, "b.txt")); err != nil {
		t.Fatal(err)
	}
	stale := acquire(t, w, "a.txt", "b.txt", "c.txt")
	want := []Stale{
		{Path: "a.txt", Disk: DiskChanged, BaseRevision: doc("one\n").Revision(), DiskRevision: doc("theirs\n").Revision()},
		{Path: "b.txt", Disk: DiskDeleted, BaseRevision: doc("bee\n").Revision()},
	}
	if !slices.Equal(stale, want) {
		t.Errorf("stale =\n  %+v\nwant\n  %+v", stale, want)
	}
	if content(w, "a.txt") != "mine\n" || content(w, "b.txt") != "mine too\n" {
		t.Errorf("the unwritten changes were lost: %v", snapshot(w))
	}
}

// A held file with no unwritten change that is gone from disk leaves the
// workspace, and acquiring it fails as for a file never acquired.
func TestAcquireDropsFileGoneFromDisk(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n"})
	w := open(t, root, nil, "a.txt", "b.txt")
	if err := os.Remove(filepath.Join(root, "a.txt")); err != nil {
		t.Fatal(err)
	}
	_, err := w.Acquire([]string{"a.txt"})
	wantFault(t, err, fault.NotFound, "a.txt does not exist", "deleted on disk")
	wantList(t, "paths", w.Paths(), []string{"b.txt"})
	if len(w.Changes()) != 0 || len(w.Unwritten()) != 0 {
		t.Errorf("leaving is a change: %+v %v", w.Changes(), w.Unwritten())
	}
}

// A pinned file (an open editor buffer) is not read again.
func TestAcquireKeepsPinned(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	w := open(t, root, nil, "a.txt")
	w.Pin("a.txt")
	testtree.Put(t, root, "a.txt", "theirs\n")
	acquire(t, w, "a.txt")
	if got := content(w, "a.txt"); got != "one\n" {
		t.Errorf("pinned a.txt = %q, want it kept", got)
	}
	w.Unpin("a.txt")
	acquire(t, w, "a.txt")
	if got := content(w, "a.txt"); got != "theirs\n" {
		t.Errorf("unpinned a.txt = %q, want the disk's", got)
	}
}

// Discard of some paths drops their changes and takes the disk's content;
// the other paths keep theirs.
func TestDiscardPathsRefreshes(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n", "c.txt": "sea\n"})
	w := open(t, root, nil, "a.txt", "b.txt", "c.txt")
	apply(t, w, func(tx *Txn) error {
		if err := tx.Set("a.txt", doc("mine\n")); err != nil {
			return err
		}
		return tx.Set("b.txt", doc("bee, mine\n"))
	})
	testtree.Put(t, root, "a.txt", "theirs\n")
	testtree.Put(t, root, "c.txt", "sea, theirs\n")
	dropped, left, err := w.Discard([]string{"a.txt", "c.txt"})
	if err != nil {
		t.Fatal(err)
	}
	wantList(t, "dropped", dropped, []string{"a.txt"})
	wantList(t, "left", left, nil)
	wantMap(t, "workspace", snapshot(w), map[string]string{"a.txt": "theirs\n", "b.txt": "bee, mine\n", "c.txt": "sea, theirs\n"})
	wantList(t, "unwritten", w.Unwritten(), []string{"b.txt"})
	if _, err := w.Write(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	wantMap(t, "disk", testtree.Read(t, root), map[string]string{"a.txt": "theirs\n", "b.txt": "bee, mine\n", "c.txt": "sea, theirs\n"})

	_, _, err = w.Discard([]string{"nope.txt"})
	wantFault(t, err, fault.BadArgument, "nope.txt", "match no file")
}

// Discard of everything puts the workspace back to the disk as it is now:
// renames, additions and deletions are dropped, a file gone from disk
// leaves.
func TestDiscardAll(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n", "b.txt": "bee\n", "c.txt": "sea\n", "d.txt": "dee\n"})
	w := open(t, root, nil, "*.txt")
	apply(t, w, func(tx *Txn) error {
		if err := tx.Set("a.txt", doc("mine\n")); err != nil {
			return err
		}
		if err := tx.Move("b.txt", "moved.txt"); err != nil {
			return err
		}
		if err := tx.Delete("c.txt"); err != nil {
			return err
		}
		return tx.Add("new.txt", doc("new\n"))
	})
	testtree.Put(t, root, "a.txt", "theirs\n")
	if err := os.Remove(filepath.Join(root, "d.txt")); err != nil {
		t.Fatal(err)
	}
	dropped, left, err := w.Discard(nil)
	if err != nil {
		t.Fatal(err)
	}
	wantList(t, "dropped", dropped, []string{"a.txt", "b.txt", "c.txt", "moved.txt", "new.txt"})
	wantList(t, "left", left, []string{"d.txt"})
	wantMap(t, "workspace", snapshot(w), map[string]string{"a.txt": "theirs\n", "b.txt": "bee\n", "c.txt": "sea\n"})
	if w.Dirty() || len(w.Changes()) != 0 {
		t.Errorf("after Discard: dirty %v, changes %+v", w.Dirty(), w.Changes())
	}
}

// Discarding either path of a rename drops the whole rename.
func TestDiscardRenameByEitherPath(t *testing.T) {
	for _, sel := range []string{"b.txt", "moved.txt"} {
		root := testtree.New(t, map[string]string{"b.txt": "bee\n"})
		w := open(t, root, nil, "b.txt")
		apply(t, w, func(tx *Txn) error { return tx.Move("b.txt", "moved.txt") })
		if _, _, err := w.Discard([]string{sel}); err != nil {
			t.Fatal(err)
		}
		wantMap(t, "workspace after discarding "+sel, snapshot(w), map[string]string{"b.txt": "bee\n"})
	}
}

// The conflict error's advice, followed literally, works: discard the
// paths it names, make the change again, write.
func TestConflictAdviceWorks(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\ntwo\n"})
	w := open(t, root, nil, "a.txt")
	apply(t, w, func(tx *Txn) error { return tx.Set("a.txt", doc("one\nTWO\n")) })
	testtree.Put(t, root, "a.txt", "zero\none\ntwo\n")
	_, err := w.Write(t.Context(), nil)
	wantFault(t, err, fault.Conflict, `discard with paths ["a.txt"]`, "make it again on the new content after that discard, then write")
	var se *StaleError
	if !errors.As(err, &se) || len(se.Stale) != 1 || se.Stale[0].Path != "a.txt" {
		t.Fatalf("stale = %+v", se)
	}
	if _, _, err := w.Discard([]string{se.Stale[0].Path}); err != nil {
		t.Fatal(err)
	}
	d, _ := w.Doc("a.txt")
	apply(t, w, func(tx *Txn) error { return tx.Set("a.txt", d.ReplaceLines(2, 3, doc("TWO\n").Lines())) })
	if _, err := w.Write(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	if got := testtree.Read(t, root)["a.txt"]; got != "zero\none\nTWO\n" {
		t.Errorf("disk a.txt = %q", got)
	}
}
