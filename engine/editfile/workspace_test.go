package editfile

import (
	"context"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/engine/workspace"
)

// wsEnv is an env whose session shares a real workspace over the same root.
func wsEnv(t *testing.T, files map[string]string, acquire ...string) (*env, *workspace.Workspace) {
	t.Helper()
	e := newEnv(t, files)
	ws := workspace.New(e.fs, workspace.Limits{})
	if _, err := ws.Acquire(acquire); err != nil {
		t.Fatal(err)
	}
	e.s = NewSession(e.fs, ws)
	return e, ws
}

func TestWorkspacePendingRefused(t *testing.T) {
	e, ws := wsEnv(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"}, "*.txt")
	if err := ws.Set("a.txt", text.FromString("A\n")); err != nil {
		t.Fatal(err)
	}
	e.view("a.txt")
	for _, c := range [][]any{
		{"str_replace", "old_str", "a", "new_str", "x"},
		{"insert", "insert_line", 0, "new_str", "x"},
		{"patch", "patch", "@@ -1 +1 @@\n-a\n+x\n"},
	} {
		err := e.fail(fault.Conflict, c[0].(string), "a.txt", c[1:]...)
		contains(t, err, "unwritten changes", "(modified)", "write or discard them first")
	}
	_, err := e.tool("write_file", map[string]any{"file_path": e.abs("a.txt"), "content": "z\n"})
	contains(t, err, "unwritten changes")
	// A file added in the workspace but not written yet blocks creating it.
	tx := ws.Begin()
	if err := tx.Add("new.txt", text.FromString("n\n")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	_, err = e.tool("write_file", map[string]any{"file_path": e.abs("new.txt"), "content": "z\n"})
	contains(t, err, "unwritten changes", "(added)")
	if e.disk("a.txt") != "a\n" {
		t.Fatal("disk changed")
	}
	// After a discard the edit goes through.
	if _, _, err := ws.Discard(nil); err != nil {
		t.Fatal(err)
	}
	e.ok("str_replace", "a.txt", "old_str", "a", "new_str", "x")
}

func TestWorkspaceUndoPendingRefused(t *testing.T) {
	e, ws := wsEnv(t, map[string]string{"a.txt": "a\n"}, "a.txt")
	e.view("a.txt")
	e.ok("str_replace", "a.txt", "old_str", "a", "new_str", "b")
	if err := ws.Set("a.txt", text.FromString("c\n")); err != nil {
		t.Fatal(err)
	}
	contains(t, e.fail(fault.Conflict, "undo_edit", "a.txt"), "unwritten changes")
	if e.disk("a.txt") != "b\n" {
		t.Fatal("undo wrote over a file with workspace changes")
	}
}

func TestWorkspaceRefreshedAfterCommit(t *testing.T) {
	e, ws := wsEnv(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n"}, "*.txt")
	e.view("a.txt")
	e.ok("str_replace", "a.txt", "old_str", "a", "new_str", "x")
	doc, ok := ws.Doc("a.txt")
	if !ok || doc.String() != "x\n" {
		t.Fatalf("workspace copy not refreshed: %v %q", ok, doc)
	}
	if ch := ws.Changes(); len(ch) != 0 {
		t.Errorf("the refresh shows as a workspace change: %+v", ch)
	}
	if _, pending := ws.Pending("a.txt"); pending {
		t.Error("the refresh left a pending change")
	}
	// A later workspace change and write does not report a conflict.
	if err := ws.Set("a.txt", text.FromString("y\n")); err != nil {
		t.Fatal(err)
	}
	written, err := ws.Write(context.Background(), nil)
	if err != nil {
		t.Fatalf("workspace write after edit_file: %v", err)
	}
	if len(written) != 1 || e.disk("a.txt") != "y\n" {
		t.Errorf("written %v, disk %q", written, e.disk("a.txt"))
	}
	// An undo refreshes too, and so does write_file.
	e.view("a.txt")
	e.ok("str_replace", "a.txt", "old_str", "y", "new_str", "z")
	e.ok("undo_edit", "a.txt")
	if doc, _ := ws.Doc("a.txt"); doc.String() != "y\n" {
		t.Errorf("after undo the workspace holds %q", doc.String())
	}
	e.view("b.txt")
	mustTool(e, "write_file", map[string]any{"file_path": e.abs("b.txt"), "content": "B\n"})
	if doc, _ := ws.Doc("b.txt"); doc.String() != "B\n" {
		t.Errorf("after write_file the workspace holds %q", doc.String())
	}
	if _, err := ws.Write(context.Background(), nil); err != nil {
		t.Errorf("nothing to write, yet: %v", err)
	}
}
