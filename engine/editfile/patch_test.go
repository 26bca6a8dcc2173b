package editfile

import (
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestPatch(t *testing.T) {
	src := "one\ntwo\nthree\nfour\nfive\nsix\nseven\n"
	for _, tc := range []struct {
		name, src, patch, want string
	}{
		{"plain", src, "@@ -2,3 +2,3 @@\n two\n-three\n+THREE\n four\n", "one\ntwo\nTHREE\nfour\nfive\nsix\nseven\n"},
		{"git headers", src, "diff --git a/f.txt b/f.txt\nindex 1234567..89abcde 100644\n--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n-one\n+ONE\n two\n", "ONE\ntwo\nthree\nfour\nfive\nsix\nseven\n"},
		// Header positions and counts are not trusted: the body decides.
		{"wrong header", src, "@@ -90,7 +90,1 @@\n five\n-six\n+6\n", "one\ntwo\nthree\nfour\nfive\n6\nseven\n"},
		{"two hunks", src, "@@ -1 +1 @@\n-one\n+1\n@@ -7 +7 @@\n-seven\n+7\n", "1\ntwo\nthree\nfour\nfive\nsix\n7\n"},
		{"append at EOF", src, "@@ -0,0 +8 @@\n+eight\n", src + "eight\n"},
		{"no newline marker, new side", src, "@@ -7 +7 @@\n-seven\n+7\n\\ No newline at end of file\n", "one\ntwo\nthree\nfour\nfive\nsix\n7"},
		{"no newline marker, old side", "a\nb", "@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+B\n", "a\nB\n"},
		{"crlf file, LF patch", "a\r\nb\r\nc\r\n", "@@ -1,2 +1,3 @@\n a\n-b\n+B\n+B2\n", "a\r\nB\r\nB2\r\nc\r\n"},
		{"bom kept", "\ufeffa\nb\n", "@@ -1 +1 @@\n-a\n+A\n", "\ufeffA\nb\n"},
		{"fenced", src, "```diff\n@@ -1 +1 @@\n-one\n+1\n```\n", "1\ntwo\nthree\nfour\nfive\nsix\nseven\n"},
		// A diff whose lines carry "\r" says which terminators it means.
		{"LF to CRLF", "a\nb\n", "@@ -1,2 +1,2 @@\n-a\n-b\n+a\r\n+b\r\n", "a\r\nb\r\n"},
		{"CRLF to LF", "a\r\nb\r\n", "@@ -1,2 +1,2 @@\n-a\r\n-b\r\n+a\n+b\n", "a\nb\n"},
		{"CRLF to LF with a new line", "a\r\nb\r\n", "@@ -1,2 +1,3 @@\n-a\r\n-b\r\n+a\n+x\n+b\n", "a\nx\nb\n"},
		{"one line of a mixed file to CRLF", "a\r\nb\nc\r\n", "@@ -1,3 +1,3 @@\n a\r\n-b\n+b\r\n c\r\n", "a\r\nb\r\nc\r\n"},
		{"one line of a mixed file to LF", "a\r\nb\nc\r\n", "@@ -1 +1 @@\n-a\r\n+a\n", "a\nb\nc\r\n"},
		{"crlf file, CRLF patch", "a\r\nb\r\nc\r\n", "@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+B\r\n", "a\r\nB\r\nc\r\n"},
		{"mixed file, CRLF patch", "a\nb\r\nc\n", "@@ -1,2 +1,2 @@\r\n a\r\n-b\r\n+B\r\n", "a\nB\nc\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, map[string]string{"f.txt": tc.src})
			e.view("f.txt")
			r := e.ok("patch", "f.txt", "patch", tc.patch)
			if got := e.disk("f.txt"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			contains(t, r, "Edited", "revision: "+rev(tc.want))
		})
	}
}

func TestPatchErrors(t *testing.T) {
	src := "a\nb\nc\na\nb\nd\n"
	e := newEnv(t, map[string]string{"f.txt": src})
	e.view("f.txt")
	check := func(err error) {
		t.Helper()
		if e.disk("f.txt") != src || e.undoDepth("f.txt") != 0 {
			t.Fatalf("a failed patch changed something (%v)", err)
		}
	}
	// Ambiguous: the hunk index and header, the lines of the matches.
	err := e.fail(fault.Ambiguous, "patch", "f.txt", "patch", "@@ -1 +1 @@ first\n-c\n+C\n@@ -4,2 +4,2 @@ second\n a\n-b\n+B\n")
	contains(t, err, "hunk 2", "@@ -4,2 +4,2 @@ second", "1", "4")
	check(err)
	// No match: all or nothing, hunk 1 is not applied either.
	err = e.fail(fault.NoMatch, "patch", "f.txt", "patch", "@@ -3 +3 @@\n-c\n+C\n@@ -6 +6 @@\n-zz\n+d\n")
	contains(t, err, "hunk 2", "@@ -6 +6 @@")
	check(err)
	// Overlapping hunks.
	err = e.fail(fault.BadArgument, "patch", "f.txt", "patch", "@@ -2,2 +2,2 @@\n b\n-c\n+C\n@@ -3,2 +3,2 @@\n-c\n+X\n a\n")
	contains(t, err, "hunks 1 and 2 overlap", "@@ -3,2 +3,2 @@")
	check(err)
	// Not a diff.
	err = e.fail(fault.BadArgument, "patch", "f.txt", "patch", "just text\n")
	check(err)
	err = e.fail(fault.BadArgument, "patch", "f.txt", "patch", "")
	check(err)
	contains(t, e.fail(fault.BadArgument, "patch", "f.txt"), "needs patch")
}
