package engine

import (
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
