package workspace

import (
	"slices"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/testtree"
)

func TestTxnFailureLeavesWorkspace(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"})
	w := open(t, root, nil, "*.txt")
	before := snapshot(w)
	bytes := w.bytes
	tx := w.Begin()
	for _, err := range []error{
		tx.Set("a.txt", doc("A\n")),
		tx.Delete("b.txt"),
		tx.Move("c.txt", "d/c.txt"),
		tx.Add("n.txt", doc("n\n")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	// The transaction sees its own changes...
	if d, _ := tx.Doc("a.txt"); d.String() != "A\n" {
		t.Errorf("txn a.txt = %q", d.String())
	}
	if _, ok := tx.Doc("b.txt"); ok {
		t.Error("txn still sees b.txt")
	}
	if d, ok := tx.Doc("d/c.txt"); !ok || d.String() != "c\n" {
		t.Error("txn does not see d/c.txt")
	}
	got := tx.Touched()
	slices.Sort(got)
	wantList(t, "touched", got, []string{"a.txt", "b.txt", "c.txt", "d/c.txt", "n.txt"})
	// ...and the workspace sees none until commit; a failing operation
	// ends the change, which is dropped.
	wantFault(t, tx.Set("zzz.txt", doc("z\n")), fault.NotFound, "zzz.txt", "not in the workspace")
	wantMap(t, "workspace after a dropped txn", snapshot(w), before)
	if w.bytes != bytes || len(w.Changes()) != 0 || w.Dirty() {
		t.Errorf("dropped txn left traces: bytes %d→%d, changes %+v", bytes, w.bytes, w.Changes())
	}
	// Byte-identical: the very same Docs as acquired.
	for p := range before {
		if w.files[p].doc != w.acq[p] {
			t.Errorf("%s: Doc replaced", p)
		}
	}
}

func TestTxnRules(t *testing.T) {
	files := map[string]string{"a.txt": "a\n", "b.txt": "b\n", "disk-only.txt": "d\n"}
	for _, tc := range []struct {
		name string
		fn   func(*Txn) error
		kind fault.Kind // "" = success
		subs []string
	}{
		{"add onto workspace path", func(tx *Txn) error { return tx.Add("a.txt", doc("x\n")) },
			fault.Conflict, []string{"a.txt", "already exists in the workspace"}},
		{"add onto disk path", func(tx *Txn) error { return tx.Add("disk-only.txt", doc("x\n")) },
			fault.Conflict, []string{"disk-only.txt", "already exists on disk"}},
		{"add twice", func(tx *Txn) error {
			if err := tx.Add("n.txt", doc("x\n")); err != nil {
				return err
			}
			return tx.Add("n.txt", doc("y\n"))
		}, fault.Conflict, []string{"n.txt"}},
		{"add outside the root", func(tx *Txn) error { return tx.Add("../n.txt", doc("x\n")) },
			fault.BadArgument, []string{"../n.txt"}},
		{"add under a file", func(tx *Txn) error { return tx.Add("a.txt/n.txt", doc("x\n")) },
			fault.BadArgument, []string{"a.txt/n.txt"}},
		{"move onto workspace path", func(tx *Txn) error { return tx.Move("a.txt", "b.txt") },
			fault.Conflict, []string{"b.txt"}},
		{"move onto disk path", func(tx *Txn) error { return tx.Move("a.txt", "disk-only.txt") },
			fault.Conflict, []string{"disk-only.txt"}},
		{"move missing", func(tx *Txn) error { return tx.Move("nope.txt", "x.txt") },
			fault.NotFound, []string{"nope.txt"}},
		{"delete missing", func(tx *Txn) error { return tx.Delete("nope.txt") },
			fault.NotFound, []string{"nope.txt"}},
		{"delete twice", func(tx *Txn) error {
			if err := tx.Delete("a.txt"); err != nil {
				return err
			}
			return tx.Delete("a.txt")
		}, fault.NotFound, []string{"a.txt"}},
		{"update missing", func(tx *Txn) error { return tx.Set("nope.txt", doc("x\n")) },
			fault.NotFound, []string{"nope.txt"}},
		{"update moved away", func(tx *Txn) error {
			if err := tx.Move("a.txt", "c.txt"); err != nil {
				return err
			}
			return tx.Set("a.txt", doc("x\n"))
		}, fault.NotFound, []string{"a.txt"}},
		{"add where deleted", func(tx *Txn) error {
			if err := tx.Delete("a.txt"); err != nil {
				return err
			}
			return tx.Add("a.txt", doc("new\n"))
		}, "", nil},
		{"add where moved away", func(tx *Txn) error {
			if err := tx.Move("a.txt", "c.txt"); err != nil {
				return err
			}
			return tx.Add("a.txt", doc("new\n"))
		}, "", nil},
		{"move onto deleted", func(tx *Txn) error {
			if err := tx.Delete("b.txt"); err != nil {
				return err
			}
			return tx.Move("a.txt", "b.txt")
		}, "", nil},
		{"move to itself", func(tx *Txn) error { return tx.Move("a.txt", "a.txt") }, "", nil},
		// A file and a directory cannot share a path, in the workspace as
		// on disk: write would fail halfway through.
		{"add under a file added in the workspace", func(tx *Txn) error {
			if err := tx.Add("n", doc("x\n")); err != nil {
				return err
			}
			return tx.Add("n/b.txt", doc("y\n"))
		}, fault.BadArgument, []string{"n/b.txt", `"n" is a file in the workspace`}},
		{"add over a directory of the workspace", func(tx *Txn) error {
			if err := tx.Add("d/e/b.txt", doc("x\n")); err != nil {
				return err
			}
			return tx.Add("d", doc("y\n"))
		}, fault.BadArgument, []string{`cannot add d`, `"d/e/b.txt"`}},
		{"move under a file added in the workspace", func(tx *Txn) error {
			if err := tx.Add("n", doc("x\n")); err != nil {
				return err
			}
			return tx.Move("a.txt", "n/a.txt")
		}, fault.BadArgument, []string{"n/a.txt", `"n" is a file in the workspace`}},
		{"add where a deleted directory's file was", func(tx *Txn) error {
			if err := tx.Add("n/b.txt", doc("x\n")); err != nil {
				return err
			}
			if err := tx.Delete("n/b.txt"); err != nil {
				return err
			}
			return tx.Add("n", doc("y\n"))
		}, "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := open(t, testtree.New(t, files), nil, "a.txt", "b.txt")
			before := snapshot(w)
			tx := w.Begin()
			err := tc.fn(tx)
			if tc.kind != "" {
				wantFault(t, err, tc.kind, tc.subs...)
				wantMap(t, "workspace", snapshot(w), before)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := tx.Commit(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestTxnAddWhereDeletedInEarlierCommit covers Add of a path that an
// earlier, committed change deleted or moved away: the path is on disk but
// the workspace owns it.
func TestTxnAddWhereDeletedInEarlierCommit(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"})
	w := open(t, root, nil, "*.txt")
	apply(t, w, func(tx *Txn) error { return tx.Delete("a.txt") })
	apply(t, w, func(tx *Txn) error { return tx.Move("b.txt", "c.txt") })
	apply(t, w, func(tx *Txn) error {
		if err := tx.Add("a.txt", doc("A\n")); err != nil {
			return err
		}
		return tx.Add("b.txt", doc("B\n"))
	})
	wantMap(t, "workspace", snapshot(w), map[string]string{"a.txt": "A\n", "b.txt": "B\n", "c.txt": "b\n"})
	written, err := w.Write(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wantList(t, "written", written, []string{"c.txt", "a.txt", "b.txt"})
	wantMap(t, "disk", testtree.Read(t, root), snapshot(w))
}

func TestSetOutsideTxn(t *testing.T) {
	w := open(t, testtree.New(t, map[string]string{"a.txt": "a\n"}), nil, "a.txt")
	if err := w.Set("a.txt", doc("b\n")); err != nil {
		t.Fatal(err)
	}
	wantFault(t, w.Set("b.txt", doc("b\n")), fault.NotFound, "b.txt")
	if r, _ := w.Revision("a.txt"); r != doc("b\n").Revision() {
		t.Errorf("revision = %s", r)
	}
	if _, ok := w.Revision("b.txt"); ok {
		t.Error("revision of a missing file")
	}
}
