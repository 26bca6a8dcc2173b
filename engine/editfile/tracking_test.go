package editfile

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

// These tests cover docs/semantics.md's "read this turn".

func TestEditNeedsRead(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\nb\n"})
	for _, c := range [][]any{
		{"str_replace", "old_str", "a", "new_str", "x"},
		{"insert", "insert_line", 0, "new_str", "x"},
		{"patch", "patch", "@@ -1 +1 @@\n-a\n+x\n"},
	} {
		err := e.fail(fault.Conflict, c[0].(string), "f.txt", c[1:]...)
		contains(t, err, "read "+e.abs("f.txt")+" before editing it", "view it")
	}
	e2 := newEnv(t, map[string]string{"p.go": goSymbols})
	e2.fail(fault.Conflict, "replace_symbol", "p.go", "symbol", "Thing2", "new_str", "func Thing2() { }")
}

func TestReadMarks(t *testing.T) {
	src := "a\nb\n"
	marks := map[string]func(e *env){
		"view":        func(e *env) { e.view("f.txt") },
		"view range":  func(e *env) { e.ok("view", "f.txt", "view_range", []int{2, 2}) },
		"view anchor": func(e *env) { e.ok("view", "f.txt", "anchor", "b") },
		"read_file":   func(e *env) { mustTool(e, "read_file", map[string]any{"file_path": e.abs("f.txt")}) },
		"read_file part": func(e *env) {
			mustTool(e, "read_file", map[string]any{"file_path": e.abs("f.txt"), "offset": 2, "limit": 1})
		},
		"write_file": func(e *env) {
			e.view("f.txt")
			mustTool(e, "write_file", map[string]any{"file_path": e.abs("f.txt"), "content": src + "c\n"})
		},
		"own edit": func(e *env) {
			e.view("f.txt")
			e.ok("str_replace", "f.txt", "old_str", "b", "new_str", "B")
		},
		"own undo": func(e *env) {
			e.view("f.txt")
			e.ok("str_replace", "f.txt", "old_str", "b", "new_str", "B")
			e.ok("undo_edit", "f.txt")
		},
	}
	for name, mark := range marks {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, map[string]string{"f.txt": src})
			mark(e)
			e.ok("str_replace", "f.txt", "old_str", "a", "new_str", "A")
		})
	}
}

func mustTool(e *env, name string, m map[string]any) *Result {
	e.t.Helper()
	r, err := e.tool(name, m)
	if err != nil {
		e.t.Fatalf("%s: %v", name, err)
	}
	return r
}

func TestOutsideChangeInvalidatesRead(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\nb\n"})
	seen := e.view("f.txt").Revision
	e.outside("f.txt", "a\nb\nc\n")
	err := e.fail(fault.Conflict, "str_replace", "f.txt", "old_str", "a", "new_str", "x")
	contains(t, err, "changed since you read it", seen, rev("a\nb\nc\n"), "view it again")
	if e.disk("f.txt") != "a\nb\nc\n" {
		t.Fatal("outside change lost")
	}
	// Viewing again makes the edit possible.
	e.view("f.txt")
	e.ok("str_replace", "f.txt", "old_str", "a", "new_str", "x")
	// Another session's read does not count for this one.
	other := &env{t: t, fs: e.fs, s: NewSession(e.fs, nil)}
	other.fail(fault.Conflict, "str_replace", "f.txt", "old_str", "x", "new_str", "y")
}

func TestFailedReadMarksNothing(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\nb\n"})
	e.fail(fault.Bounds, "view", "f.txt", "view_range", []int{9, -1})
	e.fail(fault.NoMatch, "view", "f.txt", "anchor", "zzz")
	e.fail(fault.Ambiguous, "view", "f.txt", "anchor", "\n")
	if _, err := e.tool("read_file", map[string]any{"file_path": e.abs("f.txt"), "offset": 7}); err == nil {
		t.Fatal("read_file past EOF succeeded")
	}
	e.fail(fault.Conflict, "str_replace", "f.txt", "old_str", "a", "new_str", "x")
}

func TestDryRunMarksNothing(t *testing.T) {
	src := "a\nb\n"
	e := newEnv(t, map[string]string{"f.txt": src})
	// A dry run with the current revision is allowed (the revision
	// counts as read) but does not mark the file read.
	r := e.ok("str_replace", "f.txt", "old_str", "a", "new_str", "x", "dry_run", true, "revision", rev(src))
	e.fail(fault.Conflict, "str_replace", "f.txt", "old_str", "a", "new_str", "x")
	// Nor does it mark the would-be revision: if that content appears
	// on disk from elsewhere, the session has not seen it.
	e.view("f.txt")
	e.ok("str_replace", "f.txt", "old_str", "a", "new_str", "x", "dry_run", true)
	e.outside("f.txt", "x\nb\n")
	if rev("x\nb\n") != r.Revision {
		t.Fatalf("dry run's would-be revision %s, want %s", r.Revision, rev("x\nb\n"))
	}
	e.fail(fault.Conflict, "str_replace", "f.txt", "old_str", "b", "new_str", "y")
}

func TestRevisionCountsAsRead(t *testing.T) {
	src := "a\nb\n"
	e := newEnv(t, map[string]string{"f.txt": src})
	r := e.ok("str_replace", "f.txt", "old_str", "a", "new_str", "x", "revision", rev(src))
	// The returned revision works for the next edit, and a stale one
	// is refused naming both and saying to view again.
	e.ok("str_replace", "f.txt", "old_str", "b", "new_str", "y", "revision", r.Revision)
	err := e.fail(fault.Conflict, "str_replace", "f.txt", "old_str", "x", "new_str", "z", "revision", r.Revision)
	contains(t, err, r.Revision, rev("x\ny\n"), "View it again")
	// A stale revision is refused even when the session has read the
	// current content.
	e.view("f.txt")
	e.fail(fault.Conflict, "insert", "f.txt", "insert_line", 0, "new_str", "q", "revision", rev(src))
	if e.disk("f.txt") != "x\ny\n" {
		t.Error("a refused edit wrote")
	}
}

// TestLargeFileChangedOutside covers files large enough for the session's
// revision cache: a change on disk of the same size is still a change,
// and the revisions the session reports are those of the bytes.
func TestLargeFileChangedOutside(t *testing.T) {
	big := strings.Repeat("line of text\n", revCacheMin/10) + "last\n"
	e := newEnv(t, map[string]string{"big.txt": big})
	if r := e.view("big.txt"); r.Revision != rev(big) {
		t.Fatalf("view revision %s, want %s", r.Revision, rev(big))
	}
	other := strings.Replace(big, "last", "LAST", 1)
	e.outside("big.txt", other)
	err := e.fail(fault.Conflict, "str_replace", "big.txt", "old_str", "LAST", "new_str", "x")
	contains(t, err, "changed since you read it", rev(other))
	e.view("big.txt")
	r := e.ok("str_replace", "big.txt", "old_str", "LAST", "new_str", "last")
	if r.Revision != rev(big) {
		t.Fatalf("edit revision %s, want %s", r.Revision, rev(big))
	}
	e.ok("str_replace", "big.txt", "old_str", "last\n", "new_str", "end\n")
	if e.disk("big.txt") != strings.Replace(big, "last", "end", 1) {
		t.Fatal("second edit did not land")
	}
}
