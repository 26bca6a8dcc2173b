package editfile

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestReplaceAll(t *testing.T) {
	src := "x := 1\ny := 2\nx := 1\nz := 3\nx := 1\n"
	e := newEnv(t, map[string]string{"f.go": src})
	e.view("f.go")
	r := e.ok("str_replace", "f.go", "old_str", "x := 1", "new_str", "x := 9", "replace_all", true)
	want := "x := 9\ny := 2\nx := 9\nz := 3\nx := 9\n"
	if got := e.disk("f.go"); got != want {
		t.Fatalf("disk %q, want %q", got, want)
	}
	if r.Replaced != 3 || !r.Changed || r.Revision != rev(want) {
		t.Errorf("result %+v, want 3 replaced", r)
	}
	contains(t, r, "replaced 3 occurrences", "1\tx := 9", "5\tx := 9", "revision: "+rev(want))
	// Undo restores every occurrence at once.
	e.ok("undo_edit", "f.go")
	if got := e.disk("f.go"); got != src {
		t.Errorf("after undo %q, want %q", got, src)
	}
	// Without replace_all the one-match rule stands, and its error points
	// at replace_all.
	contains(t, e.fail(fault.Ambiguous, "str_replace", "f.go", "old_str", "x := 1", "new_str", "x := 9"), "3 times", "replace_all")
	// No match is still the no-match error; replace_all goes with old_str
	// alone.
	contains(t, e.fail(fault.NoMatch, "str_replace", "f.go", "old_str", "w := 0", "new_str", "q", "replace_all", true), "not found")
	contains(t, e.fail(fault.BadArgument, "str_replace", "f.go", "old_str", "x := 1", "new_str", "q", "replace_all", true, "occurrence", 1), "replace_all", "occurrence")
	contains(t, e.fail(fault.BadArgument, "str_replace", "f.go", "start_anchor", "x", "end_anchor", "y", "new_str", "q", "replace_all", true), "replace_all", "old_str")
	contains(t, e.fail(fault.BadArgument, "insert", "f.go", "insert_line", 0, "new_str", "q", "replace_all", true), "replace_all")
	if got := e.disk("f.go"); got != src {
		t.Errorf("a refused call changed the file: %q", got)
	}
	// replace_all with one match replaces it and counts 1.
	if r := e.ok("str_replace", "f.go", "old_str", "z := 3", "new_str", "z := 4", "replace_all", true); r.Replaced != 1 {
		t.Errorf("one match: replaced %d", r.Replaced)
	}
}

func TestReplaceAllOverlapping(t *testing.T) {
	// Non-overlapping, left to right, as strings.ReplaceAll.
	e := newEnv(t, map[string]string{"a.txt": "aaaaa\naba\n"})
	e.view("a.txt")
	r := e.ok("str_replace", "a.txt", "old_str", "aa", "new_str", "b", "replace_all", true)
	if got := e.disk("a.txt"); got != strings.ReplaceAll("aaaaa\naba\n", "aa", "b") || r.Replaced != 2 {
		t.Errorf("disk %q, replaced %d", got, r.Replaced)
	}
}

func TestReplaceAllCRLF(t *testing.T) {
	src := "a\r\nold\r\nb\r\nold\r\n"
	e := newEnv(t, map[string]string{"w.txt": src})
	e.view("w.txt")
	// An LF-written old_str spanning a line end matches in LF form.
	r := e.ok("str_replace", "w.txt", "old_str", "old\nb", "new_str", "new\nB", "replace_all", true)
	if got := e.disk("w.txt"); got != "a\r\nnew\r\nB\r\nold\r\n" || r.Replaced != 1 {
		t.Errorf("disk %q, replaced %d", got, r.Replaced)
	}
	r = e.ok("str_replace", "w.txt", "old_str", "old\n", "new_str", "x\ny\n", "replace_all", true)
	if got := e.disk("w.txt"); got != "a\r\nnew\r\nB\r\nx\r\ny\r\n" || r.Replaced != 1 {
		t.Errorf("disk %q, replaced %d", got, r.Replaced)
	}
}

func TestReplaceAllDryRun(t *testing.T) {
	src := "k = 1\nk = 1\n"
	e := newEnv(t, map[string]string{"d.txt": src})
	e.view("d.txt")
	r := e.ok("str_replace", "d.txt", "old_str", "k = 1", "new_str", "k = 2", "replace_all", true, "dry_run", true)
	if e.disk("d.txt") != src || r.Changed || r.Replaced != 2 {
		t.Errorf("dry run wrote or miscounted: %+v", r)
	}
	contains(t, r, "Dry run", "2 occurrences", "+k = 2")
}

func TestReplaceAllSnippetOfAWideEdit(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "tag\n" + numberedFile(100) + "tag\n"})
	e.view("f.txt")
	r := e.ok("str_replace", "f.txt", "old_str", "tag\n", "new_str", "TAG\n", "replace_all", true)
	contains(t, r, "1\tTAG", "the last at line 102")
	if strings.Contains(r.Text, "50\tline") {
		t.Errorf("the snippet shows the whole file:\n%s", r.Text)
	}
}
