package editfile

import (
	"os"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

// These tests cover docs/line-endings.md's byte-exactness for edit_file.

func TestCRLFFileStaysCRLF(t *testing.T) {
	src := "package a\r\n\r\nfunc f() {\r\n\treturn\r\n}\r\n"
	e := newEnv(t, map[string]string{"a.go": src})
	e.view("a.go")
	// old_str and new_str written with LF.
	e.ok("str_replace", "a.go", "old_str", "func f() {\n\treturn\n}", "new_str", "func f() {\n\tprintln()\n\treturn\n}")
	want := "package a\r\n\r\nfunc f() {\r\n\tprintln()\r\n\treturn\r\n}\r\n"
	if got := e.disk("a.go"); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// CRLF in old_str and new_str works as well.
	e.ok("str_replace", "a.go", "old_str", "\tprintln()\r\n", "new_str", "\tprint()\r\n")
	want = "package a\r\n\r\nfunc f() {\r\n\tprint()\r\n\treturn\r\n}\r\n"
	if got := e.disk("a.go"); got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// Anchors too.
	e.ok("str_replace", "a.go", "start_anchor", "func f() {\n", "end_anchor", "}", "new_str", "func f() {}")
	if got := e.disk("a.go"); got != "package a\r\n\r\nfunc f() {}\r\n" {
		t.Fatalf("got %q", got)
	}
}

func TestBOMKept(t *testing.T) {
	src := "\ufeffname: a\nv: 1\n"
	e := newEnv(t, map[string]string{"a.yaml": src})
	e.view("a.yaml")
	e.ok("str_replace", "a.yaml", "old_str", "name: a", "new_str", "name: b", "validate_syntax", true)
	if got := e.disk("a.yaml"); got != "\ufeffname: b\nv: 1\n" {
		t.Fatalf("got %q", got)
	}
	e.ok("undo_edit", "a.yaml")
	if got := e.disk("a.yaml"); got != src {
		t.Fatalf("undo: got %q", got)
	}
}

func TestModeKept(t *testing.T) {
	e := newEnv(t, map[string]string{"run.sh": "#!/bin/sh\necho a\n"})
	if err := os.Chmod(e.abs("run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.view("run.sh")
	e.ok("str_replace", "run.sh", "old_str", "echo a", "new_str", "echo b")
	e.ok("undo_edit", "run.sh")
	mustTool(e, "write_file", map[string]any{"file_path": e.abs("run.sh"), "content": "#!/bin/sh\n"})
	st, err := os.Stat(e.abs("run.sh"))
	if err != nil || st.Mode().Perm() != 0o755 {
		t.Fatalf("mode after edit, undo and write_file: %v %v", st.Mode(), err)
	}
	mustTool(e, "write_file", map[string]any{"file_path": e.abs("new.sh"), "content": "x\n"})
	if st, _ := os.Stat(e.abs("new.sh")); st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", st.Mode().Perm())
	}
}

func TestMixedFileByteExact(t *testing.T) {
	src := "a\r\nb\nc\r\nd\n"
	e := newEnv(t, map[string]string{"m.txt": src})
	e.view("m.txt")
	// In a mixed file "\r" is matched and written as given.
	e.fail(fault.NoMatch, "str_replace", "m.txt", "old_str", "a\nb", "new_str", "x")
	e.ok("str_replace", "m.txt", "old_str", "a\r\nb\n", "new_str", "A\nB\r\n")
	if got := e.disk("m.txt"); got != "A\nB\r\nc\r\nd\n" {
		t.Fatalf("got %q", got)
	}
	e.ok("str_replace", "m.txt", "old_str", "d", "new_str", "D")
	if got := e.disk("m.txt"); got != "A\nB\r\nc\r\nD\n" {
		t.Fatalf("got %q", got)
	}
}

func TestNoFinalNewlineKept(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\nb"})
	e.view("f.txt")
	e.ok("str_replace", "f.txt", "old_str", "b", "new_str", "B")
	e.ok("patch", "f.txt", "patch", "@@ -1,2 +1,2 @@\n-a\n+A\n B\n")
	if got := e.disk("f.txt"); got != "A\nB" {
		t.Fatalf("got %q", got)
	}
}
