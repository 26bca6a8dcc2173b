package editfile

import (
	"fmt"
	"os"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestUndoDeep(t *testing.T) {
	const n = 30 // more than the 25 the contract asks for
	e := newEnv(t, map[string]string{"f.txt": "v0\n"})
	e.view("f.txt")
	for i := 1; i <= n; i++ {
		e.ok("str_replace", "f.txt", "old_str", fmt.Sprintf("v%d\n", i-1), "new_str", fmt.Sprintf("v%d\n", i))
	}
	for i := n - 1; i >= 0; i-- {
		r := e.ok("undo_edit", "f.txt")
		want := fmt.Sprintf("v%d\n", i)
		if got := e.disk("f.txt"); got != want {
			t.Fatalf("undo to v%d: disk %q", i, got)
		}
		contains(t, r, "Undid", "revision: "+rev(want))
		if r.Revision != rev(want) || !r.Changed {
			t.Fatalf("undo result %+v", r)
		}
	}
	contains(t, e.fail(fault.NotFound, "undo_edit", "f.txt"), "nothing to undo")
	// An undo marks the file read: editing right after works.
	e.ok("str_replace", "f.txt", "old_str", "v0", "new_str", "w")
	if UndoDepth < 25 {
		t.Errorf("UndoDepth %d < 25", UndoDepth)
	}
}

func TestUndoDepthBounded(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "0\n"})
	e.view("f.txt")
	for i := 1; i <= UndoDepth+5; i++ {
		e.ok("str_replace", "f.txt", "old_str", fmt.Sprintf("%d\n", i-1), "new_str", fmt.Sprintf("%d\n", i))
	}
	if d := e.undoDepth("f.txt"); d != UndoDepth {
		t.Errorf("undo stack %d deep, want %d", d, UndoDepth)
	}
}

func TestUndoRefusesAfterOutsideChange(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\n"})
	e.view("f.txt")
	r := e.ok("str_replace", "f.txt", "old_str", "a", "new_str", "b")
	e.outside("f.txt", "c\n")
	err := e.fail(fault.Conflict, "undo_edit", "f.txt")
	contains(t, err, "cannot undo", "changed since your last edit", r.Revision, rev("c\n"), "would lose that change")
	if e.disk("f.txt") != "c\n" {
		t.Error("the refused undo wrote")
	}
	// Deleted since: refused as well.
	os.Remove(e.abs("f.txt"))
	contains(t, e.fail(fault.Conflict, "undo_edit", "f.txt"), "(deleted)")
}

func TestUndoWriteFileCreation(t *testing.T) {
	e := newEnv(t, map[string]string{})
	r, err := e.tool("write_file", map[string]any{"file_path": e.abs("dir/new.txt"), "content": "hello\n"})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, r, "Created", "revision: "+rev("hello\n"))
	if e.disk("dir/new.txt") != "hello\n" {
		t.Fatal("not written")
	}
	r = e.ok("undo_edit", "dir/new.txt")
	contains(t, r, "removed")
	if _, err := os.Stat(e.abs("dir/new.txt")); !os.IsNotExist(err) {
		t.Errorf("undo of a creation left the file: %v", err)
	}
}

func TestUndoOnlyOwnEdits(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\n"})
	contains(t, e.fail(fault.NotFound, "undo_edit", "f.txt"), "has not edited it")
	contains(t, e.fail(fault.BadArgument, "undo_edit", "f.txt", "revision", rev("a\n")), "does not take revision")
}
