package editfile

import (
	"os"
	"sync"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// A session given the root's write lock holds it over each write (edit,
// write_file, undo), so that writers sharing the lock write one at a time.
func TestWritesHoldTheSharedWriteLock(t *testing.T) {
	var mu sync.Mutex
	writes, unlocked := 0, 0
	e := newEnvHooks(t, map[string]string{"f.txt": "a\n"}, rootfs.Hooks{BeforeOp: func(string, string, string) error {
		writes++
		if mu.TryLock() {
			mu.Unlock()
			unlocked++
		}
		return nil
	}})
	e.s.SetWriteLock(&mu)
	e.view("f.txt")
	e.ok("str_replace", "f.txt", "old_str", "a", "new_str", "b")
	if _, err := e.tool("write_file", map[string]any{"file_path": e.abs("f.txt"), "content": "c\n"}); err != nil {
		t.Fatal(err)
	}
	e.ok("undo_edit", "f.txt")
	e.ok("undo_edit", "f.txt")
	if writes != 4 || unlocked != 0 {
		t.Fatalf("%d writes, %d of them without the shared lock", writes, unlocked)
	}
}

// A file that something outside changes right after an edit wrote it is
// reported: the edit succeeded, and the caller is told to view it again.
func TestEditReportsAChangeRightAfterItsWrite(t *testing.T) {
	var e *env
	armed := false
	e = newEnv(t, map[string]string{"f.txt": "a\n"})
	e.fs = e.fs.WithObserver(func([]string) {
		if armed {
			armed = false
			if err := os.WriteFile(e.abs("f.txt"), []byte("outside\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
	})
	e.s = NewSession(e.fs, nil)
	e.view("f.txt")
	armed = true
	r := e.ok("str_replace", "f.txt", "old_str", "a", "new_str", "b")
	if !r.ChangedAfterWrite || r.Revision != rev("b\n") {
		t.Fatalf("changed_after_write %v, revision %s", r.ChangedAfterWrite, r.Revision)
	}
	contains(t, r.Text, "changed on disk right after this write", "view it again")
	// The next edit is refused until the caller views the file again.
	e.fail(fault.Conflict, "str_replace", "f.txt", "old_str", "outside", "new_str", "x")
	e.fail(fault.Conflict, "str_replace", "f.txt", "old_str", "outside", "new_str", "x", "revision", rev("b\n"))
	if e.disk("f.txt") != "outside\n" {
		t.Fatalf("the outside change was lost: %q", e.disk("f.txt"))
	}
}
