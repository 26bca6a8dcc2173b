package workspace

import (
	"slices"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// wantChanges compares w's changes with want.
func wantChanges(t *testing.T, w *Workspace, want ...Change) {
	t.Helper()
	if got := w.Changes(); !slices.Equal(got, want) {
		t.Errorf("changes =\n%+v\nwant\n%+v", got, want)
	}
}

func TestChanges(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"mod.txt": "one\ntwo\nthree\n", "del.txt": "x\ny\n", "old.txt": "keep\n",
		"moved.txt": "m1\nm2\n", "same.txt": "s\n", "re.txt": "r1\nr2\n",
	})
	w := open(t, root, nil, "*.txt")
	apply(t, w, func(tx *Txn) error {
		for _, err := range []error{
			tx.Set("mod.txt", doc("one\nTWO\n2\nthree\n")),
			tx.Delete("del.txt"),
			tx.Add("new/n.txt", doc("n1\nn2\nn3\n")),
			tx.Move("old.txt", "sub/new-name.txt"),
			tx.Move("moved.txt", "moved2.txt"),
			tx.Set("moved2.txt", doc("m1\nM2\n")),
			tx.Set("same.txt", doc("s\n")), // set to equal content
			tx.Delete("re.txt"),
			tx.Add("re.txt", doc("r1\nR2\n")), // deleted and created again
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	wantChanges(t, w,
		Change{Path: "del.txt", Kind: Deleted, Removed: 2},
		Change{Path: "mod.txt", Kind: Modified, Added: 2, Removed: 1},
		Change{Path: "moved2.txt", Kind: Renamed, From: "moved.txt", Added: 1, Removed: 1},
		Change{Path: "new/n.txt", Kind: Added, Added: 3},
		Change{Path: "re.txt", Kind: Modified, Added: 1, Removed: 1},
		Change{Path: "sub/new-name.txt", Kind: Renamed, From: "old.txt"})
}

func TestChangesCycles(t *testing.T) {
	w := open(t, testtree.New(t, map[string]string{"a": "A\n", "b": "B\n", "c": "C\n"}), nil, "*")
	// a→b→a is no change at all; b and c swapping are two renames.
	apply(t, w, func(tx *Txn) error {
		for _, err := range []error{
			tx.Move("a", "x"), tx.Move("x", "a"),
			tx.Move("b", "t"), tx.Move("c", "b"), tx.Move("t", "c"),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	wantChanges(t, w, Change{Path: "b", Kind: Renamed, From: "c"}, Change{Path: "c", Kind: Renamed, From: "b"})
}

func TestChangesAddedWhereMovedAway(t *testing.T) {
	w := open(t, testtree.New(t, map[string]string{"a": "A\n"}), nil, "a")
	apply(t, w, func(tx *Txn) error {
		if err := tx.Move("a", "b"); err != nil {
			return err
		}
		return tx.Add("a", doc("new\n"))
	})
	wantChanges(t, w, Change{Path: "a", Kind: Added, Added: 1}, Change{Path: "b", Kind: Renamed, From: "a"})
}

func TestLineCounts(t *testing.T) {
	for _, tc := range []struct {
		name, before, after string
		added, removed      int
	}{
		{"same", "a\nb\n", "a\nb\n", 0, 0},
		{"empty to text", "", "a\nb\n", 2, 0},
		{"text to empty", "a\nb\n", "", 0, 2},
		{"replace middle", "a\nb\nc\n", "a\nB\nc\n", 1, 1},
		{"insert", "a\nc\n", "a\nb\nc\n", 1, 0},
		{"remove", "a\nb\nc\n", "a\nc\n", 0, 1},
		{"duplicate lines", "x\nx\nx\n", "x\nx\n", 0, 1},
		{"final newline dropped", "a\nb\n", "a\nb", 1, 1},
		{"final newline added", "a\nb", "a\nb\n", 1, 1},
		{"crlf to lf counts every line", "a\r\nb\r\n", "a\nb\n", 2, 2},
		{"one terminator changed", "a\nb\nc\n", "a\nb\r\nc\n", 1, 1},
		{"bom only", "a\n", "\uFEFFa\n", 0, 0},
		{"blank lines", "\n\n\n", "\n\n", 0, 1},
		{"move a block", "1\n2\n3\n4\n", "3\n4\n1\n2\n", 2, 2},
		{"prefix and suffix overlap", "a\na\n", "a\na\na\n", 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, r := LineCounts(doc(tc.before), doc(tc.after))
			if a != tc.added || r != tc.removed {
				t.Errorf("LineCounts = +%d -%d, want +%d -%d", a, r, tc.added, tc.removed)
			}
		})
	}
}
