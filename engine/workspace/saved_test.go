package workspace

import (
	"context"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// An editor saved the buffer the workspace mirrors: the file has no
// unwritten change left, a later write of everything does not report a
// conflict, and the change against the acquisition baseline stays.
func TestSavedMovesThePersistedBaseline(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n", "b.txt": "two\n"})
	w := open(t, root, nil, "a.txt", "b.txt")
	apply(t, w, func(tx *Txn) error { return tx.Set("a.txt", doc("one, edited\n")) })
	apply(t, w, func(tx *Txn) error { return tx.Add("new.txt", doc("new\n")) })
	testtree.Put(t, root, "a.txt", "one, edited\n") // the editor saves
	testtree.Put(t, root, "new.txt", "new\n")

	if !w.Saved("a.txt", 0o644) || !w.Saved("new.txt", 0o644) {
		t.Fatal("Saved refused a file held at its own path")
	}
	if got := w.Unwritten(); len(got) != 0 {
		t.Fatalf("Unwritten after the save = %v, want none", got)
	}
	ch := w.Changes()
	if !slices.ContainsFunc(ch, func(c Change) bool { return c.Path == "a.txt" && c.Kind == Modified }) {
		t.Errorf("Changes lost the edit of a.txt: %+v", ch)
	}
	apply(t, w, func(tx *Txn) error { return tx.Set("b.txt", doc("two, edited\n")) })
	written, err := w.Write(context.Background(), nil)
	if err != nil {
		t.Fatalf("write after the save: %v", err)
	}
	if !slices.Equal(written, []string{"b.txt"}) {
		t.Errorf("written = %v, want [b.txt]", written)
	}
	// Discard goes back to the saved content, not to what was acquired.
	apply(t, w, func(tx *Txn) error { return tx.Set("a.txt", doc("scratch\n")) })
	discardAll(t, w)
	if d, _ := w.Doc("a.txt"); d.String() != "one, edited\n" {
		t.Errorf("a.txt after Discard = %q, want the saved content", d.String())
	}
}

func TestSavedRefusesRenames(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	w := open(t, root, nil, "a.txt")
	apply(t, w, func(tx *Txn) error { return tx.Move("a.txt", "b.txt") })
	if w.Saved("b.txt", 0o644) {
		t.Error("Saved accepted a rename destination whose source is still on disk")
	}
	apply(t, w, func(tx *Txn) error { return tx.Add("a.txt", doc("again\n")) })
	if w.Saved("a.txt", 0o644) {
		t.Error("Saved accepted a path that a rename still owns on disk")
	}
	if w.Saved("missing.txt", 0o644) {
		t.Error("Saved accepted a path the workspace does not hold")
	}
	if got := w.Unwritten(); !slices.Equal(got, []string{"a.txt", "b.txt"}) {
		t.Errorf("Unwritten = %v, want [a.txt b.txt] unchanged", got)
	}
}
