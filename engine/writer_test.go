package engine

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// outsideAt returns hooks that, once, just before the disk operation op on
// path, run fn: an outside process acting after the write's conflict
// check and before that operation. It returns a setter for fn.
func outsideAt(op, path string) (rootfs.Hooks, func(fn func())) {
	var once sync.Once
	var fn func()
	h := rootfs.Hooks{BeforeOp: func(o, p, _ string) error {
		if o == op && p == path && fn != nil {
			once.Do(fn)
		}
		return nil
	}}
	return h, func(f func()) { fn = f }
}

func writeOutside(t *testing.T, root, p, content string) func() {
	return func() {
		if err := os.WriteFile(filepath.Join(root, p), []byte(content), 0o644); err != nil {
			t.Error(err)
		}
	}
}

// An outside edit made during a multi-file write, after its conflict
// check, is never overwritten: that file is refused as a conflict, the
// files written before it are reported, and the advice works.
func TestWriteRechecksEachFileBeforeItsRename(t *testing.T) {
	hooks, set := outsideAt(rootfs.OpWrite, "b.txt")
	e, root := setup(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"}, Options{Hooks: hooks})
	set(writeOutside(t, root, "b.txt", "outside\n"))
	r := run(t, e, `{"paths":["*.txt"],"ops":[
		{"step":"edit","args":{"path":"a.txt","edits":[{"find":"a","replace":"A"}]}},
		{"step":"edit","args":{"path":"b.txt","edits":[{"find":"b","replace":"B"}]}},
		{"step":"edit","args":{"path":"c.txt","edits":[{"find":"c","replace":"C"}]}},
		{"step":"write"}]}`)
	wantError(t, r, fault.Conflict, "b.txt changed on disk", `discard with paths ["b.txt"]`)
	if !slices.Equal(r.Written, []string{"a.txt"}) || !slices.Equal(r.Error.Written, []string{"a.txt"}) {
		t.Errorf("written %v, error.written %v; want [a.txt] in both", r.Written, r.Error.Written)
	}
	if len(r.Stale) != 1 || r.Stale[0].Path != "b.txt" {
		t.Errorf("stale %+v, want b.txt", r.Stale)
	}
	for p, want := range map[string]string{"a.txt": "A\n", "b.txt": "outside\n", "c.txt": "c\n"} {
		if got := readFile(t, root, p); got != want {
			t.Errorf("%s = %q, want %q", p, got, want)
		}
	}
	// The advice: discard b.txt, redo the change on what is there, write.
	if _, _, err := e.Discard([]string{"b.txt"}); err != nil {
		t.Fatal(err)
	}
	r = run(t, e, `{"paths":[],"ops":[
		{"step":"edit","args":{"path":"b.txt","edits":[{"find":"outside","replace":"outside\nB"}]}},
		{"step":"write"}]}`)
	if !r.OK || !slices.Equal(r.Written, []string{"b.txt", "c.txt"}) {
		t.Fatalf("write after the advice: written %v, error %+v", r.Written, r.Error)
	}
	if got := readFile(t, root, "b.txt"); got != "outside\nB\n" {
		t.Errorf("b.txt = %q", got)
	}
}

// The same holds for a rename's source and a deletion.
func TestWriteRechecksRenamesAndDeletions(t *testing.T) {
	for _, tc := range []struct {
		name, op, path, patch string
	}{
		{"rename", rootfs.OpRename, "r.txt", `*** Begin Patch\n*** Update File: r.txt\n*** Move to: s.txt\n@@\n-r\n+s\n*** End Patch`},
		{"delete", rootfs.OpRemove, "r.txt", `*** Begin Patch\n*** Delete File: r.txt\n*** End Patch`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hooks, set := outsideAt(tc.op, tc.path)
			e, root := setup(t, map[string]string{"r.txt": "r\n"}, Options{Hooks: hooks})
			set(writeOutside(t, root, "r.txt", "outside\n"))
			r := run(t, e, `{"paths":["r.txt"],"ops":[{"step":"apply_patch","args":{"patch":"`+tc.patch+`"}},{"step":"write"}]}`)
			wantError(t, r, fault.Conflict, "r.txt changed on disk")
			if len(r.Written) != 0 {
				t.Errorf("written %v, want none", r.Written)
			}
			if got := readFile(t, root, "r.txt"); got != "outside\n" {
				t.Errorf("r.txt = %q, want the outside content", got)
			}
			if _, err := os.Stat(filepath.Join(root, "s.txt")); !os.IsNotExist(err) {
				t.Errorf("s.txt exists after a refused rename: %v", err)
			}
		})
	}
}

// A file changed by an outside process after it was written, while the
// write went on, is reported in changed_after_write; the write is ok.
func TestWriteReportsFilesChangedAfterTheirWrite(t *testing.T) {
	hooks, set := outsideAt(rootfs.OpWrite, "b.txt")
	e, root := setup(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"}, Options{Hooks: hooks})
	set(writeOutside(t, root, "a.txt", "outside\n"))
	r := run(t, e, `{"paths":["*.txt"],"ops":[
		{"step":"edit","args":{"path":"a.txt","edits":[{"find":"a","replace":"A"}]}},
		{"step":"edit","args":{"path":"b.txt","edits":[{"find":"b","replace":"B"}]}},
		{"step":"write"}]}`)
	if !r.OK || !slices.Equal(r.Written, []string{"a.txt", "b.txt"}) {
		t.Fatalf("written %v, error %+v", r.Written, r.Error)
	}
	if !slices.Equal(r.ChangedAfterWrite, []string{"a.txt"}) {
		t.Errorf("changed_after_write = %v, want [a.txt]", r.ChangedAfterWrite)
	}
	if got := readFile(t, root, "a.txt"); got != "outside\n" {
		t.Errorf("a.txt = %q", got)
	}
}

// An engine holds the write lock given in its options for the whole
// write, so that engines sharing one lock write one at a time.
func TestWriteHoldsTheSharedWriteLock(t *testing.T) {
	var mu sync.Mutex
	held := false
	hooks := rootfs.Hooks{BeforeOp: func(string, string, string) error {
		if mu.TryLock() {
			mu.Unlock()
		} else {
			held = true
		}
		return nil
	}}
	e, _ := setup(t, map[string]string{"a.txt": "a\n"}, Options{Hooks: hooks, WriteLock: &mu})
	if e.WriteLock() != &mu {
		t.Fatal("WriteLock does not return the lock given in the options")
	}
	r := run(t, e, `{"paths":["a.txt"],"ops":[{"step":"edit","args":{"path":"a.txt","edits":[{"find":"a","replace":"A"}]}},{"step":"write"}]}`)
	if !r.OK || !held {
		t.Fatalf("ok %v, lock held during the write: %v (%+v)", r.OK, held, r.Error)
	}
}
