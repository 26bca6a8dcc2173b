package editfile

import (
	"fmt"
	"os"
	"sync"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// An outside writer changes the file between view and str_replace: the
// edit is refused and the outside change survives.
func TestRaceBetweenViewAndEdit(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\nb\n"})
	e.view("f.txt")
	e.outside("f.txt", "a\nb\nOUTSIDE\n")
	err := e.fail(fault.Conflict, "str_replace", "f.txt", "old_str", "a", "new_str", "x")
	contains(t, err, "view it again")
	if e.disk("f.txt") != "a\nb\nOUTSIDE\n" || e.undoDepth("f.txt") != 0 {
		t.Fatal("the outside change was lost")
	}
}

// An outside writer changes the file after the edit loaded it and after
// the read check, right before the write (rootfs.Hooks.BeforeOp).
func TestRaceBeforeWrite(t *testing.T) {
	var e *env
	armed := false
	e = newEnvHooks(t, map[string]string{"f.txt": "a\nb\n"}, rootfs.Hooks{BeforeOp: func(op, path, to string) error {
		if armed && (path == "f.txt" || to == "f.txt") {
			armed = false
			if err := os.WriteFile(e.abs("f.txt"), []byte("a\nb\nOUTSIDE\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
		return nil
	}})
	e.view("f.txt")
	armed = true
	_, err := e.call("str_replace", "f.txt", "old_str", "a", "new_str", "x")
	// The check runs again inside rootfs.FS.WriteFileIf, after the hook
	// and right before the rename.
	if got := e.disk("f.txt"); got != "a\nb\nOUTSIDE\n" {
		t.Fatalf("the outside change was overwritten: disk %q, err %v", got, err)
	}
	if fault.KindOf(err) != fault.Conflict {
		t.Fatalf("err %v, want a conflict", err)
	}
	if e.undoDepth("f.txt") != 0 {
		t.Fatal("a refused edit pushed an undo entry")
	}
}

// An outside writer changes the file after undo_edit checked it, right
// before undo's write: the outside change is kept, as for an edit.
func TestRaceBeforeUndoWrite(t *testing.T) {
	var e *env
	armed := false
	e = newEnvHooks(t, map[string]string{"f.txt": "a\nb\n"}, rootfs.Hooks{BeforeOp: func(op, path, to string) error {
		if armed && (path == "f.txt" || to == "f.txt") {
			armed = false
			if err := os.WriteFile(e.abs("f.txt"), []byte("x\nb\nOUTSIDE\n"), 0o644); err != nil {
				t.Error(err)
			}
		}
		return nil
	}})
	e.view("f.txt")
	e.ok("str_replace", "f.txt", "old_str", "a", "new_str", "x")
	armed = true
	_, err := e.call("undo_edit", "f.txt")
	if got := e.disk("f.txt"); got != "x\nb\nOUTSIDE\n" {
		t.Fatalf("the outside change was overwritten by undo: disk %q, err %v", got, err)
	}
	if fault.KindOf(err) != fault.Conflict {
		t.Fatalf("err %v, want a conflict", err)
	}
	contains(t, err, "cannot undo", "changed since your last edit")
	if e.undoDepth("f.txt") != 1 {
		t.Fatal("a refused undo popped its entry")
	}
}

// One session used from several goroutines (go test -race).
func TestSessionConcurrentUse(t *testing.T) {
	files := map[string]string{}
	for i := range 8 {
		files[fmt.Sprintf("f%d.txt", i)] = "0\n"
	}
	e := newEnv(t, files)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p := fmt.Sprintf("f%d.txt", i)
			e.view(p)
			for j := 1; j <= 20; j++ {
				e.ok("str_replace", p, "old_str", fmt.Sprintf("%d\n", j-1), "new_str", fmt.Sprintf("%d\n", j))
			}
			for range 5 {
				e.ok("undo_edit", p)
			}
		}()
	}
	wg.Wait()
	for i := range 8 {
		if got := e.disk(fmt.Sprintf("f%d.txt", i)); got != "15\n" {
			t.Errorf("f%d.txt = %q", i, got)
		}
	}
}
