package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/merge"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

// TestWriteMerges: a file changed on disk under an unwritten change is
// written merged when the two changes touch different lines: byte for
// byte, its mode kept, the workspace holding what was written, and the
// change reported against the merged-in disk content (the session's part
// only).
func TestWriteMerges(t *testing.T) {
	for _, c := range []struct {
		name, base, ours, theirs, want string
		ours1, theirs1                 merge.Part
	}{
		{name: "lf", base: "a\nb\nc\nd\ne\n", ours: "A\nb\nc\nd\ne\n", theirs: "a\nb\nc\nd\nE\nf\n", want: "A\nb\nc\nd\nE\nf\n",
			ours1: merge.Part{Base: merge.Range{Start: 1, End: 1}, Lines: merge.Range{Start: 1, End: 1}}, theirs1: merge.Part{Base: merge.Range{Start: 5, End: 5}, Lines: merge.Range{Start: 5, End: 6}}},
		{name: "crlf without a final newline", base: "a\r\nb\r\nc\r\nd\r\ne", ours: "a\r\nb1\r\nb2\r\nc\r\nd\r\ne", theirs: "a\r\nb\r\nc\r\nd\r\nE", want: "a\r\nb1\r\nb2\r\nc\r\nd\r\nE",
			ours1: merge.Part{Base: merge.Range{Start: 2, End: 2}, Lines: merge.Range{Start: 2, End: 3}}, theirs1: merge.Part{Base: merge.Range{Start: 5, End: 5}, Lines: merge.Range{Start: 6, End: 6}}},
		{name: "lines deleted on disk", base: "a\nb\nc\nd\ne\n", ours: "a\nb\nc\nd\nE\n", theirs: "c\nd\ne\n", want: "c\nd\nE\n",
			ours1: merge.Part{Base: merge.Range{Start: 5, End: 5}, Lines: merge.Range{Start: 3, End: 3}}, theirs1: merge.Part{Base: merge.Range{Start: 1, End: 2}, Lines: merge.Range{Start: 1, End: 0}}},
		{name: "a BOM kept", base: "\uFEFFa\nb\nc\n", ours: "\uFEFFa\nb\nC\n", theirs: "\uFEFFA\nb\nc\n", want: "\uFEFFA\nb\nC\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := testtree.New(t, map[string]string{"f.go": c.base, "other": "o\n"})
			if err := os.Chmod(filepath.Join(root, "f.go"), 0o755); err != nil {
				t.Fatal(err)
			}
			w := open(t, root, nil, "*")
			apply(t, w, func(tx *Txn) error { return tx.Set("f.go", doc(c.ours)) })
			testtree.Put(t, root, "f.go", c.theirs)
			if err := os.Chmod(filepath.Join(root, "f.go"), 0o755); err != nil {
				t.Fatal(err)
			}
			written, merged, err := w.WriteMerging(t.Context(), nil, WriteOptions{Merge: true})
			if err != nil {
				t.Fatal(err)
			}
			wantList(t, "written", written, []string{"f.go"})
			if got := testtree.Read(t, root)["f.go"]; got != c.want {
				t.Fatalf("disk holds %q, want %q", got, c.want)
			}
			if st, _ := os.Stat(filepath.Join(root, "f.go")); st.Mode().Perm() != 0o755 {
				t.Errorf("mode %v, want 0755", st.Mode().Perm())
			}
			if d, _ := w.Doc("f.go"); d.String() != c.want || w.Dirty() {
				t.Errorf("workspace holds %q (dirty %t), want the merged content, written", d, w.Dirty())
			}
			if len(merged) != 1 {
				t.Fatalf("merged = %+v", merged)
			}
			m := merged[0]
			if m.Path != "f.go" || m.BaseRevision != doc(c.base).Revision() || m.DiskRevision != doc(c.theirs).Revision() || m.Revision != doc(c.want).Revision() {
				t.Errorf("merged = %+v", m)
			}
			if c.ours1 != (merge.Part{}) && (!slices.Equal(m.Ours, []merge.Part{c.ours1}) || !slices.Equal(m.Theirs, []merge.Part{c.theirs1})) {
				t.Errorf("parts ours %v theirs %v, want %v %v", m.Ours, m.Theirs, c.ours1, c.theirs1)
			}
			// Changes are the session's part, against what it merged in.
			ch := w.Changes()
			a, r := LineCounts(doc(c.theirs), doc(c.want))
			if len(ch) != 1 || ch[0].Added != a || ch[0].Removed != r {
				t.Errorf("changes = %+v, want +%d -%d", ch, a, r)
			}
		})
	}
}

// TestWriteMergeRefused: changes that overlap or touch, a file no longer
// text, deleted or moved on disk, and merge off are conflicts as before:
// nothing is written and nothing changes, not even another file that
// would have merged, and the error names the lines both changes touch.
func TestWriteMergeRefused(t *testing.T) {
	base := "a\nb\nc\nd\ne\n"
	for _, c := range []struct {
		name   string
		ours   string
		touch  func(root string)
		noMrg  bool
		subs   []string
		notMrg string
	}{
		{name: "same line", ours: "a\nB\nc\nd\ne\n", touch: put("f", "a\nb2\nc\nd\ne\n"),
			notMrg: "not merged: your change and the change on disk touch the same or adjacent lines of the content the workspace read: lines 2 (your change: lines 2; the change on disk: lines 2)"},
		{name: "adjacent lines", ours: "a\nB\nc\nd\ne\n", touch: put("f", "a\nb\nC\nd\ne\n"), subs: []string{"lines 2-3 (your change: lines 2; the change on disk: lines 3)"}},
		{name: "inserted at one place", ours: "a\nb\nx\nc\nd\ne\n", touch: put("f", "a\nb\ny\nc\nd\ne\n"), subs: []string{"before line 3 (your change: inserted before line 3; the change on disk: inserted before line 3)"}},
		{name: "binary on disk", ours: "A\nb\nc\nd\ne\n", touch: put("f", "a\nb\nc\nd\n\x00\n"), subs: []string{"not merged: the file on disk is no longer text"}},
		{name: "deleted on disk", ours: "A\nb\nc\nd\ne\n", touch: func(root string) { os.Remove(filepath.Join(root, "f")) }, subs: []string{"f was deleted on disk"}},
		{name: "merge off", ours: "A\nb\nc\nd\ne\n", touch: put("f", "a\nb\nc\nd\nE\n"), noMrg: true, subs: []string{"f changed on disk since the workspace read it"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := testtree.New(t, map[string]string{"f": base, "g": base})
			rec := &recorder{}
			w := open(t, root, rec, "*")
			apply(t, w, func(tx *Txn) error {
				if err := tx.Set("g", doc("G\n"+base[2:])); err != nil {
					return err
				}
				return tx.Set("f", doc(c.ours))
			})
			// g would merge: its change on disk is far from the session's.
			testtree.Put(t, root, "g", "a\nb\nc\nd\nE\n")
			c.touch(root)
			before, ws := testtree.Read(t, root), snapshot(w)
			written, merged, err := w.WriteMerging(t.Context(), nil, WriteOptions{Merge: !c.noMrg})
			wantFault(t, err, fault.Conflict, append(c.subs, "nothing was written")...)
			var se *StaleError
			if !errors.As(err, &se) {
				t.Fatalf("no stale files in %v", err)
			}
			if c.notMrg != "" {
				if i := slices.IndexFunc(se.Stale, func(s Stale) bool { return s.Path == "f" }); i < 0 || se.Stale[i].NotMerged != c.notMrg {
					t.Errorf("stale = %+v, want f not merged: %q", se.Stale, c.notMrg)
				}
			}
			if slices.ContainsFunc(se.Stale, func(s Stale) bool { return s.Path == "g" }) == !c.noMrg {
				t.Errorf("g stale = %v with merge %t: %+v", !c.noMrg, !c.noMrg, se.Stale)
			}
			if len(written) != 0 || len(merged) != 0 || len(rec.ops) != 0 {
				t.Errorf("a refused write wrote %v, merged %v, did %v", written, merged, rec.ops)
			}
			wantMap(t, "disk", testtree.Read(t, root), before)
			wantMap(t, "workspace", snapshot(w), ws)
		})
	}
}

// TestWriteMergeRechecksBeforeRename: a change made on disk after the
// merge, before the merged file replaces it, stops the write as a
// conflict; the merge is not written over it.
func TestWriteMergeRechecksBeforeRename(t *testing.T) {
	root := testtree.New(t, map[string]string{"f": "a\nb\nc\nd\ne\n"})
	w := open(t, root, nil, "*")
	apply(t, w, func(tx *Txn) error { return tx.Set("f", doc("A\nb\nc\nd\ne\n")) })
	testtree.Put(t, root, "f", "a\nb\nc\nd\nE\n")
	w.fs = w.fs.WithHooks(rootfs.Hooks{BeforeOp: func(op, path, _ string) error {
		if op == rootfs.OpWrite && path == "f" {
			testtree.Put(t, root, "f", "late\n")
		}
		return nil
	}})
	_, _, err := w.WriteMerging(t.Context(), nil, WriteOptions{Merge: true})
	wantFault(t, err, fault.Conflict, "write stopped before f")
	if got := testtree.Read(t, root)["f"]; got != "late\n" {
		t.Errorf("disk holds %q, want the late change kept", got)
	}
}

func put(p, content string) func(string) {
	return func(root string) {
		if err := os.WriteFile(filepath.Join(root, p), []byte(content), 0o644); err != nil {
			panic(err)
		}
	}
}
