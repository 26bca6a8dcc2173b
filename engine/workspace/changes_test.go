package workspace

import (
	"encoding/json"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

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
	got, _ := json.Marshal(w.Changes())
	want := `[` +
		`{"path":"del.txt","kind":"deleted","added":0,"removed":2},` +
		`{"path":"mod.txt","kind":"modified","added":2,"removed":1},` +
		`{"path":"moved2.txt","kind":"renamed","from":"moved.txt","added":1,"removed":1},` +
		`{"path":"new/n.txt","kind":"added","added":3,"removed":0},` +
		`{"path":"re.txt","kind":"modified","added":1,"removed":1},` +
		`{"path":"sub/new-name.txt","kind":"renamed","from":"old.txt","added":0,"removed":0}]`
	if string(got) != want {
		t.Errorf("changes =\n%s\nwant\n%s", got, want)
	}
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
	got, _ := json.Marshal(w.Changes())
	want := `[{"path":"b","kind":"renamed","from":"c","added":0,"removed":0},{"path":"c","kind":"renamed","from":"b","added":0,"removed":0}]`
	if string(got) != want {
		t.Errorf("changes =\n%s\nwant\n%s", got, want)
	}
}

func TestChangesAddedWhereMovedAway(t *testing.T) {
	w := open(t, testtree.New(t, map[string]string{"a": "A\n"}), nil, "a")
	apply(t, w, func(tx *Txn) error {
		if err := tx.Move("a", "b"); err != nil {
			return err
		}
		return tx.Add("a", doc("new\n"))
	})
	got, _ := json.Marshal(w.Changes())
	want := `[{"path":"a","kind":"added","added":1,"removed":0},{"path":"b","kind":"renamed","from":"a","added":0,"removed":0}]`
	if string(got) != want {
		t.Errorf("changes =\n%s\nwant\n%s", got, want)
	}
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
