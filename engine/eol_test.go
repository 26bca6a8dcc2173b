package engine

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/workspace"
)

// TestTerminatorChange: a patch or edit that writes lines back with another
// terminator converts them, is written byte for byte, and reports the lines
// as changed; one that says nothing about terminators keeps them.
func TestTerminatorChange(t *testing.T) {
	const lf, crlf = "one\ntwo\nthree\n", "one\r\ntwo\r\nthree\r\n"
	for _, tc := range []struct {
		name, file, op, want string
		lines                string // lines added and removed
	}{
		{"apply_patch LF to CRLF", lf,
			`{"step":"apply_patch","args":{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n-two\n-three\n+one\r\n+two\r\n+three\r\n*** End Patch\n"}}`,
			crlf, "3"},
		{"apply_patch CRLF to LF", crlf,
			`{"step":"apply_patch","args":{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n-one\r\n-two\r\n-three\r\n+one\n+two\n+three\n*** End Patch\n"}}`,
			lf, "3"},
		{"apply_patch one line to CRLF", lf,
			`{"step":"apply_patch","args":{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+two\r\n*** End Patch\n"}}`,
			"one\ntwo\r\nthree\n", "1"},
		{"apply_patch LF patch on a CRLF file", crlf,
			`{"step":"apply_patch","args":{"patch":"*** Begin Patch\n*** Update File: a.txt\n@@\n one\n-two\n+TWO\n*** End Patch\n"}}`,
			"one\r\nTWO\r\nthree\r\n", "1"},
		{"edit LF to CRLF", lf,
			`{"step":"edit","args":{"path":"a.txt","edits":[{"find":"one\ntwo\nthree\n","replace":"one\r\ntwo\r\nthree\r\n"}]}}`,
			crlf, "3"},
		{"edit CRLF to LF", crlf,
			`{"step":"edit","args":{"path":"a.txt","edits":[{"find":"one\r\ntwo\r\nthree\r\n","replace":"one\ntwo\nthree\n"}]}}`,
			lf, "3"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, root := setup(t, map[string]string{"a.txt": tc.file}, Options{})
			r := run(t, e, `{"paths":["a.txt"],"ops":[`+tc.op+`,{"step":"write"}]}`)
			if !r.OK {
				t.Fatal(r.Error)
			}
			if got := readFile(t, root, "a.txt"); got != tc.want {
				t.Errorf("on disk %q, want %q", got, tc.want)
			}
			n, _ := strconv.Atoi(tc.lines)
			if want := []workspace.Change{{Path: "a.txt", Kind: workspace.Modified, Added: n, Removed: n}}; !slices.Equal(r.Changes, want) {
				t.Errorf("changes\n got %+v\nwant %+v", r.Changes, want)
			}
		})
	}
}

// TestTerminatorNoOp: an edit whose replace equals its find, terminators
// included, still changes nothing and says so.
func TestTerminatorNoOp(t *testing.T) {
	e, root := setup(t, map[string]string{"a.txt": "one\r\ntwo\r\n"}, Options{})
	r := run(t, e, `{"paths":["a.txt"],"ops":[{"step":"edit","args":{"path":"a.txt","edits":[{"find":"one\n","replace":"one\n"}]}},{"step":"write"}]}`)
	wantError(t, r, fault.BadArgument, "change nothing")
	if got := readFile(t, root, "a.txt"); got != "one\r\ntwo\r\n" {
		t.Errorf("on disk %q", got)
	}
}

// TestEditFinalNewline: on a file without a final newline, a replace that
// ends with a terminator where its find reached the end gives the file
// one, and one without leaves it without (the edit dropped the newline
// its replace asked for and reported success; adding only the newline was
// refused as "the edits change nothing").
func TestEditFinalNewline(t *testing.T) {
	for _, tc := range []struct {
		name, file, find, replace, want string
	}{
		{"replace ending in a newline", "a\nb", "a\nb", "a\nc\n", "a\nc\n"},
		{"only the newline", "a\nb", "a\nb", "a\nb\n", "a\nb\n"},
		{"only the newline, last line alone", "a\nb", "b", "b\n", "a\nb\n"},
		{"replace without a newline leaves none", "a\nb", "b", "c", "a\nc"},
		{"CRLF file", "a\r\nb", "a\nb", "a\nc\n", "a\r\nc\r\n"},
		{"CRLF as written", "a\r\nb", "a\r\nb", "a\r\nc\r\n", "a\r\nc\r\n"},
		{"deleting the last line keeps the one before terminated", "a\nb", "a\nb", "a\n", "a\n"},
		{"a find before the end changes nothing of the end", "a\nb\nc", "a", "A\n", "A\nb\nc"},
		{"a file with a final newline keeps it", "a\nb\n", "b", "c", "a\nc\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, root := setup(t, map[string]string{"a.txt": tc.file}, Options{})
			op := map[string]any{"step": "edit", "args": map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": tc.find, "replace": tc.replace}}}}
			r := run(t, e, aPlan(t, []any{op, map[string]any{"step": "write"}}))
			if !r.OK {
				t.Fatal(r.Error)
			}
			if got := readFile(t, root, "a.txt"); got != tc.want {
				t.Errorf("on disk %q, want %q", got, tc.want)
			}
		})
	}
}

// TestNewLineInAMixedFile: in a file that is mostly CRLF with an LF run, a
// line added among LF lines is written with LF, as git apply writes it
// (it took the dominant CRLF); among CRLF lines, CRLF; a line replacing
// an LF line keeps LF.
func TestNewLineInAMixedFile(t *testing.T) {
	const file = "c1\r\nc2\r\nc3\r\nl1\nl2\nc4\r\nc5\r\n"
	for _, tc := range []struct {
		name, patch, want string
	}{
		{"added among LF lines", "@@\n l1\n+z\n l2\n", "c1\r\nc2\r\nc3\r\nl1\nz\nl2\nc4\r\nc5\r\n"},
		{"added among CRLF lines", "@@\n c1\n+z\n c2\n", "c1\r\nz\r\nc2\r\nc3\r\nl1\nl2\nc4\r\nc5\r\n"},
		{"added where LF and CRLF meet: the dominant", "@@\n c3\n+z\n l1\n", "c1\r\nc2\r\nc3\r\nz\r\nl1\nl2\nc4\r\nc5\r\n"},
		{"replacing an LF line", "@@\n c3\n-l1\n+L1\n l2\n", "c1\r\nc2\r\nc3\r\nL1\nl2\nc4\r\nc5\r\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, root := setup(t, map[string]string{"a.txt": file}, Options{})
			p := "*** Begin Patch\n*** Update File: a.txt\n" + tc.patch + "*** End Patch\n"
			op := map[string]any{"step": "apply_patch", "args": map[string]any{"patch": p}}
			r := run(t, e, aPlan(t, []any{op, map[string]any{"step": "write"}}))
			if !r.OK {
				t.Fatal(r.Error)
			}
			if got := readFile(t, root, "a.txt"); got != tc.want {
				t.Errorf("on disk %q, want %q", got, tc.want)
			}
		})
	}
}

// aPlan is a plan over a.txt with ops.
func aPlan(t *testing.T, ops []any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"paths": []string{"a.txt"}, "ops": ops})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
