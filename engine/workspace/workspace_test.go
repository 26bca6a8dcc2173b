package workspace

import (
	"encoding/json"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/testtree"
)

func TestReadLines(t *testing.T) {
	w := open(t, testtree.New(t, map[string]string{"a": "one\r\ntwo\nthree", "e": "", "b": "\uFEFFx\n"}), nil, "*")
	for _, tc := range []struct {
		path       string
		start, end int
		want       string
		kind       fault.Kind
		sub        string
	}{
		{"a", 1, 0, "one\ntwo\nthree", "", ""},
		{"a", 2, 2, "two", "", ""},
		{"a", 2, 99, "two\nthree", "", ""},
		{"b", 1, 1, "x", "", ""},
		{"a", 4, 0, "", fault.Bounds, "the file has 3 lines"},
		{"a", 3, 2, "", fault.Bounds, "end 2 is before start 3"},
		{"a", 0, 0, "", fault.BadArgument, "positive"},
		{"e", 1, 0, "", fault.Bounds, "the file has 0 lines"},
		{"zz", 1, 0, "", fault.NotFound, "not in the workspace"},
	} {
		got, err := w.ReadLines(tc.path, tc.start, tc.end)
		if tc.kind != "" {
			wantFault(t, err, tc.kind, tc.sub)
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ReadLines(%s, %d, %d) = %q, %v; want %q", tc.path, tc.start, tc.end, got, err, tc.want)
		}
	}
}

func TestDiscardDirtyUnwritten(t *testing.T) {
	root := testtree.New(t, map[string]string{"a": "a\n", "b": "b\n", "c": "c\n", "d": "d\n"})
	w := open(t, root, nil, "*")
	if w.Dirty() || len(w.Unwritten()) != 0 {
		t.Fatalf("fresh workspace dirty: %v", w.Unwritten())
	}
	apply(t, w, func(tx *Txn) error {
		for _, err := range []error{
			tx.Set("a", doc("A\n")), tx.Delete("b"), tx.Move("c", "e"), tx.Add("n", doc("n\n")),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if !w.Dirty() {
		t.Error("not dirty after changes")
	}
	wantList(t, "unwritten", w.Unwritten(), []string{"a", "b", "c", "e", "n"})
	discardAll(t, w)
	if w.Dirty() || len(w.Unwritten()) != 0 || len(w.Changes()) != 0 {
		t.Errorf("after Discard: dirty %v, unwritten %v, changes %+v", w.Dirty(), w.Unwritten(), w.Changes())
	}
	wantMap(t, "workspace after Discard", snapshot(w), map[string]string{"a": "a\n", "b": "b\n", "c": "c\n", "d": "d\n"})
	if w.bytes != 8 {
		t.Errorf("bytes = %d", w.bytes)
	}
	// Content-only round trip is not dirty.
	apply(t, w, func(tx *Txn) error { return tx.Set("a", doc("a\n")) })
	if w.Dirty() || len(w.Unwritten()) != 0 {
		t.Errorf("equal content counts as dirty: %v", w.Unwritten())
	}
	// A net-zero move chain is not dirty either.
	apply(t, w, func(tx *Txn) error {
		if err := tx.Move("a", "z"); err != nil {
			return err
		}
		return tx.Move("z", "a")
	})
	if w.Dirty() {
		t.Error("a→z→a is dirty")
	}
	// A pure move is.
	apply(t, w, func(tx *Txn) error { return tx.Move("d", "dd") })
	if !w.Dirty() {
		t.Error("a move is not dirty")
	}
	wantList(t, "unwritten", w.Unwritten(), []string{"d", "dd"})
}

// TestDiscardAfterWrite: Discard goes back to the persisted baseline, and
// changes written earlier are still reported against the acquisition
// baseline, renames included.
func TestDiscardAfterWrite(t *testing.T) {
	root := testtree.New(t, map[string]string{"a": "a\n", "b": "b\n", "c": "c\n"})
	w := open(t, root, nil, "*")
	apply(t, w, func(tx *Txn) error {
		if err := tx.Move("a", "x"); err != nil {
			return err
		}
		if err := tx.Delete("b"); err != nil {
			return err
		}
		return tx.Add("b", doc("B\n"))
	})
	if _, err := w.Write(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(w.Changes())
	apply(t, w, func(tx *Txn) error { return tx.Set("c", doc("C\n")) })
	discardAll(t, w)
	got, _ := json.Marshal(w.Changes())
	if string(got) != string(want) {
		t.Errorf("changes after Discard =\n%s\nwant\n%s", got, want)
	}
	wantMap(t, "workspace", snapshot(w), testtree.Read(t, root))
}

// TestRefreshThenDiscardKeepsHistory covers a file refreshed by edit_file
// and then discarded: it still descends from the acquired file, so a later
// move is a rename, not a deletion and an addition.
func TestRefreshThenDiscardKeepsHistory(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "a\n"})
	w := open(t, root, nil, "*.txt")
	testtree.Put(t, root, "a.txt", "A\n")
	w.Refresh("a.txt", doc("A\n"), 0o644)
	discardAll(t, w)
	apply(t, w, func(tx *Txn) error { return tx.Move("a.txt", "b.txt") })
	got, _ := json.Marshal(w.Changes())
	want, _ := json.Marshal([]Change{{Path: "b.txt", Kind: Renamed, From: "a.txt"}})
	if string(got) != string(want) {
		t.Errorf("changes =\n%s\nwant\n%s", got, want)
	}
}
