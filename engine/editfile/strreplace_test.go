package editfile

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestStrReplace(t *testing.T) {
	src := "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"
	e := newEnv(t, map[string]string{"a.go": src})
	e.view("a.go")
	r := e.ok("str_replace", "a.go", "old_str", "\tprintln(\"hi\")", "new_str", "\tprintln(\"hello\")\n\tprintln(\"world\")")
	want := "package main\n\nfunc main() {\n\tprintln(\"hello\")\n\tprintln(\"world\")\n}\n"
	if got := e.disk("a.go"); got != want {
		t.Fatalf("disk:\n%q\nwant\n%q", got, want)
	}
	contains(t, r, "Edited "+e.abs("a.go")+".", "4\t\tprintln(\"hello\")", "5\t\tprintln(\"world\")", "revision: "+rev(want))
	if r.Revision != rev(want) || !r.Changed || r.Diff == "" {
		t.Errorf("result %+v", r)
	}
	// Byte-exact: spaces where the file has a tab do not match.
	err := e.fail(fault.NoMatch, "str_replace", "a.go", "old_str", "    println(\"world\")", "new_str", "x")
	contains(t, err, "line 5", `"\tprintln(\"world\")"`)
	contains(t, e.fail(fault.BadArgument, "str_replace", "a.go", "old_str", "", "new_str", "x"), "empty")
	contains(t, e.fail(fault.BadArgument, "str_replace", "a.go", "old_str", "main"), "new_str")
	contains(t, e.fail(fault.BadArgument, "str_replace", "a.go", "new_str", "main"), "old_str")
}

func TestStrReplaceSnippet(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": numberedFile(30)})
	e.view("f.txt")
	r := e.ok("str_replace", "f.txt", "old_str", "line 15\n", "new_str", "fifteen\n")
	// About 4 lines of context around the changed line, new numbers.
	if f, l := shown(t, r); f != 11 || l > 20 || l < 19 {
		t.Errorf("snippet shows %d-%d, want 11-19ish:\n%s", f, l, r.Text)
	}
	contains(t, r, "15\tfifteen\n")
}

func TestStrReplaceSeveralMatches(t *testing.T) {
	src := "x := 1\ny := 2\nx := 1\nz := 3\nx := 1\n"
	e := newEnv(t, map[string]string{"f.go": src})
	e.view("f.go")
	err := e.fail(fault.Ambiguous, "str_replace", "f.go", "old_str", "x := 1", "new_str", "x := 9")
	contains(t, err, "3 times", "lines 1, 3, 5", "occurrence: 1-3")
	if e.disk("f.go") != src || e.undoDepth("f.go") != 0 {
		t.Fatal("a failed str_replace changed something")
	}
	e.ok("str_replace", "f.go", "old_str", "x := 1", "new_str", "x := 9", "occurrence", 2)
	if got := e.disk("f.go"); got != "x := 1\ny := 2\nx := 9\nz := 3\nx := 1\n" {
		t.Errorf("occurrence 2: %q", got)
	}
	contains(t, e.fail(fault.Bounds, "str_replace", "f.go", "old_str", "x := 1", "new_str", "q", "occurrence", 3), "give 1-2")
	contains(t, e.fail(fault.Bounds, "str_replace", "f.go", "old_str", "x := 1", "new_str", "q", "occurrence", 0), "out of range")
	// occurrence 1 of a unique match is fine.
	e.ok("str_replace", "f.go", "old_str", "z := 3", "new_str", "z := 4", "occurrence", 1)
	// Matches are non-overlapping: "aa" in "aaaa" is two matches.
	e2 := newEnv(t, map[string]string{"a.txt": "aaaa\n"})
	e2.view("a.txt")
	contains(t, e2.fail(fault.Ambiguous, "str_replace", "a.txt", "old_str", "aa", "new_str", "b"), "2 times")
}

func TestStrReplaceEveryMatchListed(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": strings.Repeat("dup\n", 40)})
	e.view("f.txt")
	err := e.fail(fault.Ambiguous, "str_replace", "f.txt", "old_str", "dup", "new_str", "x")
	contains(t, err, "1, 2, 3,", "39, 40", "occurrence: 1-40")
}

func TestStrReplaceNothingChanges(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\nb\n", "w.txt": "a\r\nb\r\n"})
	e.view("f.txt")
	contains(t, e.fail(fault.BadArgument, "str_replace", "f.txt", "old_str", "a", "new_str", "a"), "the same")
	// In an all-CRLF file "a\r\n" and "a\n" are the same text: the
	// result equals the file, an error, never a silent success.
	e.view("w.txt")
	contains(t, e.fail(fault.BadArgument, "str_replace", "w.txt", "old_str", "a\r\n", "new_str", "a\n"), "unchanged")
	if e.undoDepth("w.txt") != 0 || e.undoDepth("f.txt") != 0 {
		t.Error("a no-op pushed an undo entry")
	}
}

func TestStrReplaceNoMatchWindow(t *testing.T) {
	src := "package main\n\nfunc main() {\n\tif x {\n\t\tprintln(\"ho\")\n\t}\n}\n"
	e := newEnv(t, map[string]string{"a.go": src})
	e.view("a.go")
	err := e.fail(fault.NoMatch, "str_replace", "a.go", "old_str", "if x {\n  println(\"hx\")", "new_str", "y")
	// The closest window, with its line number and its real tabs shown.
	contains(t, err, "closest text is at line 4", "4\t\"\\tif x {\"", "5\t\"\\t\\tprintln(\\\"ho\\\")\"")
	if strings.Contains(err.Error(), "mixed") {
		t.Error("mixed-endings sentence for an LF file")
	}
	// A mixed file gets the sentence.
	e2 := newEnv(t, map[string]string{"m.txt": "one\r\ntwo\nthree\n"})
	e2.view("m.txt")
	err = e2.fail(fault.NoMatch, "str_replace", "m.txt", "old_str", "one\ntwo", "new_str", "x")
	contains(t, err, "mixed line endings", "line 1")
	// CRLF in old_str against an LF file is explained too.
	e3 := newEnv(t, map[string]string{"l.txt": "one\ntwo\n"})
	e3.view("l.txt")
	contains(t, e3.fail(fault.NoMatch, "str_replace", "l.txt", "old_str", "one\r\ntwo", "new_str", "x"), "CRLF")
}

func TestStrReplaceAnchors(t *testing.T) {
	src := "begin\n  a\nend\nbegin2\n  b\nend\n"
	e := newEnv(t, map[string]string{"f.txt": src})
	e.view("f.txt")
	contains(t, e.fail(fault.Ambiguous, "str_replace", "f.txt", "start_anchor", "begin", "end_anchor", "end", "new_str", "x"), "start_anchor", "lines 1, 4", "not unique")
	// end_anchor is its first occurrence after start_anchor.
	e.ok("str_replace", "f.txt", "start_anchor", "begin2", "end_anchor", "end", "new_str", "B")
	if got := e.disk("f.txt"); got != "begin\n  a\nend\nB\n" {
		t.Errorf("anchored replace: %q", got)
	}
	contains(t, e.fail(fault.NoMatch, "str_replace", "f.txt", "start_anchor", "B", "end_anchor", "end", "new_str", "x"), "end_anchor", "after start_anchor (line 4)")
	contains(t, e.fail(fault.NoMatch, "str_replace", "f.txt", "start_anchor", "nope", "end_anchor", "end", "new_str", "x"), "start_anchor was not found")
	contains(t, e.fail(fault.BadArgument, "str_replace", "f.txt", "start_anchor", "B", "new_str", "x"), "give both")
	contains(t, e.fail(fault.BadArgument, "str_replace", "f.txt", "end_anchor", "B", "new_str", "x"), "give both")
	contains(t, e.fail(fault.BadArgument, "str_replace", "f.txt", "start_anchor", "B", "end_anchor", "end", "old_str", "a", "new_str", "x"), "not both")
	contains(t, e.fail(fault.BadArgument, "str_replace", "f.txt", "start_anchor", "", "end_anchor", "end", "new_str", "x"), "empty")
}

func TestStrReplaceRefusesNUL(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\n"})
	e.view("f.txt")
	contains(t, e.fail(fault.BadArgument, "str_replace", "f.txt", "old_str", "a", "new_str", "a\x00"), "binary")
	if e.disk("f.txt") != "a\n" {
		t.Error("file changed")
	}
}
