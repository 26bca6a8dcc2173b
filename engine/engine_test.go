package engine

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/workspace"
)

// setup writes files under a new root and returns an engine over it.
func setup(t testing.TB, files map[string]string, opts Options) (*Engine, string) {
	t.Helper()
	root := t.TempDir()
	testtree.Write(t, root, files)
	e, err := New(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	return e, root
}

// plan builds a plan from paths and ops given as JSON strings.
func plan(t *testing.T, src string) *Plan {
	t.Helper()
	p, err := ParsePlan([]byte(src))
	if err != nil {
		t.Fatalf("ParsePlan: %v", err)
	}
	return p
}

func run(t *testing.T, e *Engine, src string) *Result {
	t.Helper()
	return e.Run(context.Background(), plan(t, src))
}

func wantError(t *testing.T, r *Result, kind fault.Kind, substrings ...string) {
	t.Helper()
	if r.OK || r.Error == nil {
		t.Fatalf("want a %s error, got ok result %+v", kind, r)
	}
	if r.Error.Kind != kind {
		t.Errorf("error kind = %s, want %s (message: %s)", r.Error.Kind, kind, r.Error.Message)
	}
	for _, s := range substrings {
		if !strings.Contains(r.Error.Message, s) {
			t.Errorf("error message %q does not contain %q", r.Error.Message, s)
		}
	}
}

func readFile(t *testing.T, root, p string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, p))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadLines(t *testing.T) {
	e, _ := setup(t, map[string]string{"a.txt": "one\ntwo\nthree\n", "empty.txt": "", "crlf.txt": "x\r\ny\r\n"}, Options{})
	for _, tc := range []struct {
		name, args string
		want       string
		kind       fault.Kind
		msg        string
	}{
		{"all", `{"path":"a.txt","start":1}`, "one\ntwo\nthree", "", ""},
		{"middle", `{"path":"a.txt","start":2,"end":2}`, "two", "", ""},
		{"end clamps", `{"path":"a.txt","start":2,"end":40}`, "two\nthree", "", ""},
		{"crlf has no \\r", `{"path":"crlf.txt","start":1}`, "x\ny", "", ""},
		{"start past EOF", `{"path":"a.txt","start":4}`, "", fault.Bounds, "the file has 3 lines"},
		{"empty file", `{"path":"empty.txt","start":1}`, "", fault.Bounds, "the file has 0 lines"},
		{"end before start", `{"path":"a.txt","start":3,"end":2}`, "", fault.BadArgument, "end 2 is before start 3"},
		{"zero start", `{"path":"a.txt","start":0}`, "", fault.BadArgument, "positive integer"},
		{"non-integer", `{"path":"a.txt","start":1.5}`, "", fault.BadArgument, "must be an integer"},
		{"string start", `{"path":"a.txt","start":"1"}`, "", fault.BadArgument, "must be an integer"},
		{"missing start", `{"path":"a.txt"}`, "", fault.BadArgument, "start is required"},
		{"unknown arg", `{"path":"a.txt","start":1,"stop":2}`, "", fault.BadArgument, `unknown argument "stop"`},
		{"not acquired", `{"path":"nope.txt","start":1}`, "", fault.NotFound, "not in the workspace"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := run(t, e, `{"paths":["*.txt"],"ops":[{"step":"read_lines","args":`+tc.args+`}]}`)
			if tc.kind != "" {
				wantError(t, r, tc.kind, tc.msg)
				return
			}
			if !r.OK {
				t.Fatalf("error: %+v", r.Error)
			}
			var got string
			for _, v := range r.Reads {
				got = v
			}
			if got != tc.want {
				t.Errorf("read %q, want %q", got, tc.want)
			}
		})
	}
}

func TestReadLinesLabels(t *testing.T) {
	e, _ := setup(t, map[string]string{"a.txt": "one\ntwo\n"}, Options{})
	r := run(t, e, `{"paths":["a.txt"],"ops":[
		{"step":"read_lines","args":{"path":"a.txt","start":1,"end":1},"label":"first"},
		{"step":"read_lines","args":{"path":"a.txt","start":2}}]}`)
	if !r.OK || r.Reads["first"] != "one" || r.Reads["a.txt"] != "two" {
		t.Fatalf("reads = %v, error %+v", r.Reads, r.Error)
	}
	r = run(t, e, `{"paths":["a.txt"],"ops":[
		{"step":"read_lines","args":{"path":"a.txt","start":1},"label":"x"},
		{"step":"read_lines","args":{"path":"a.txt","start":2},"label":"x"}]}`)
	wantError(t, r, fault.BadArgument, `read label "x" is already used by step 1`)
	if len(r.Reads) != 0 {
		t.Errorf("a rejected plan ran steps: reads %v", r.Reads)
	}
	r = run(t, e, `{"paths":["a.txt"],"ops":[
		{"step":"read_lines","args":{"path":"a.txt","start":1}},
		{"step":"read_lines","args":{"path":"a.txt","start":2}}]}`)
	wantError(t, r, fault.BadArgument, `read label "a.txt" is already used`)
}

func TestReadLinesSeesWorkspaceNotDisk(t *testing.T) {
	e, root := setup(t, map[string]string{"a.txt": "disk\n"}, Options{})
	r := run(t, e, `{"paths":["a.txt"],"ops":[
		{"step":"apply_patch","args":{"patch":"*** Begin Patch\n*** Add File: new.txt\n+fresh\n*** End Patch"}},
		{"step":"edit","args":{"path":"a.txt","edits":[{"find":"disk","replace":"memory"}]}},
		{"step":"read_lines","args":{"path":"new.txt","start":1}},
		{"step":"read_lines","args":{"path":"a.txt","start":1}}]}`)
	if !r.OK {
		t.Fatalf("%+v", r.Error)
	}
	if r.Reads["new.txt"] != "fresh" || r.Reads["a.txt"] != "memory" {
		t.Errorf("reads = %v", r.Reads)
	}
	if got := readFile(t, root, "a.txt"); got != "disk\n" {
		t.Errorf("disk changed without write: %q", got)
	}
	if _, err := os.Stat(filepath.Join(root, "new.txt")); err == nil {
		t.Error("new.txt reached the disk without write")
	}
	// A file on disk that was never acquired cannot be read.
	e2, _ := setup(t, map[string]string{"a.txt": "x\n", "b.txt": "y\n"}, Options{})
	r = run(t, e2, `{"paths":["a.txt"],"ops":[{"step":"read_lines","args":{"path":"b.txt","start":1}}]}`)
	wantError(t, r, fault.NotFound, "not in the workspace")
}

func TestEdit(t *testing.T) {
	const src = "func a() {\n\treturn 1\n}\n\nfunc b() {\n\treturn 1\n}\n"
	for _, tc := range []struct {
		name, edits string
		want        string
		kind        fault.Kind
		msg         []string
	}{
		{"replace", `[{"find":"func a() {\n\treturn 1","replace":"func a() {\n\treturn 2"}]`,
			"func a() {\n\treturn 2\n}\n\nfunc b() {\n\treturn 1\n}\n", "", nil},
		{"forward cursor", `[{"find":"func b() {","replace":"func B() {"},{"find":"\treturn 1","replace":"\treturn 20"}]`,
			"func a() {\n\treturn 1\n}\n\nfunc B() {\n\treturn 20\n}\n", "", nil},
		{"ambiguous from the cursor", `[{"find":"func a() {","replace":"func A() {"},{"find":"\treturn 1","replace":"\treturn 10"}]`, "", fault.Ambiguous,
			[]string{"edit 2 in a.go", "lines 2 and 6"}},
		{"delete", `[{"find":"\nfunc b() {\n\treturn 1\n}","replace":""}]`, "func a() {\n\treturn 1\n}\n", "", nil},
		{"ambiguous", `[{"find":"\treturn 1","replace":"x"}]`, "", fault.Ambiguous,
			[]string{"patch context is ambiguous and matches multiple locations", "edit 1 in a.go", "lines 2 and 6"}},
		{"no match", `[{"find":"\treturn 3","replace":"x"}]`, "", fault.NoMatch,
			[]string{"the patch could not be applied cleanly to the source text", "edit 1 in a.go"}},
		{"sub-line does not match", `[{"find":"return 1","replace":"return 2"}]`, "", fault.NoMatch,
			[]string{"the patch could not be applied cleanly"}},
		{"edit before cursor", `[{"find":"func b() {","replace":"func B() {"},{"find":"func a() {","replace":"func A() {"}]`, "", fault.NoMatch,
			[]string{"edit 2 in a.go"}},
		{"all or nothing", `[{"find":"func a() {","replace":"func A() {"},{"find":"nope","replace":"x"}]`, "", fault.NoMatch, nil},
		{"empty find", `[{"find":"","replace":"x"}]`, "", fault.BadArgument, []string{"find is empty"}},
		{"no edits", `[]`, "", fault.BadArgument, []string{"edits is empty"}},
		{"missing replace", `[{"find":"x"}]`, "", fault.BadArgument, []string{"replace is required"}},
		{"no change", `[{"find":"func a() {","replace":"func a() {"}]`, "", fault.BadArgument, []string{"change nothing"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, root := setup(t, map[string]string{"a.go": src}, Options{})
			r := run(t, e, `{"paths":["a.go"],"ops":[{"step":"edit","args":{"path":"a.go","edits":`+tc.edits+`}},{"step":"write"}]}`)
			if tc.kind != "" {
				wantError(t, r, tc.kind, tc.msg...)
				if d, ok := e.Workspace().Doc("a.go"); ok && d.String() != src {
					t.Errorf("a failed edit changed the workspace: %q", d.String())
				}
				if got := readFile(t, root, "a.go"); got != src {
					t.Errorf("a failed edit changed the disk: %q", got)
				}
				return
			}
			if !r.OK {
				t.Fatalf("%+v", r.Error)
			}
			if got := readFile(t, root, "a.go"); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestApplyPatch(t *testing.T) {
	files := map[string]string{"a.txt": "one\ntwo\nthree\n", "b.txt": "bee\n", "c.txt": "sea\n"}
	t.Run("all or nothing", func(t *testing.T) {
		e, _ := setup(t, files, Options{})
		r := run(t, e, `{"paths":["*.txt"],"ops":[{"step":"apply_patch","args":{"patch":
			"*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n*** Delete File: b.txt\n*** Add File: d.txt\n+dee\n*** Update File: c.txt\n@@\n-nope\n+x\n*** End Patch"}}]}`)
		wantError(t, r, fault.NoMatch, "hunk 1 in c.txt")
		for p, want := range files {
			d, ok := e.Workspace().Doc(p)
			if !ok || d.String() != want {
				t.Errorf("%s changed by a failed patch", p)
			}
		}
		if _, ok := e.Workspace().Doc("d.txt"); ok {
			t.Error("d.txt was added by a failed patch")
		}
		if len(r.Changes) != 0 {
			t.Errorf("changes after a failed patch: %+v", r.Changes)
		}
	})
	t.Run("changes", func(t *testing.T) {
		e, _ := setup(t, files, Options{})
		r := run(t, e, `{"paths":["*.txt"],"ops":[{"step":"apply_patch","args":{"patch":
			"*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+TWO\n+2\n*** Delete File: b.txt\n*** Add File: d/e.txt\n+dee\n*** Update File: c.txt\n*** Move to: see.txt\n*** End Patch"}}]}`)
		if !r.OK {
			t.Fatal(r.Error)
		}
		want := []workspace.Change{
			{Path: "a.txt", Kind: workspace.Modified, Added: 2, Removed: 1},
			{Path: "b.txt", Kind: workspace.Deleted, Removed: 1},
			{Path: "d/e.txt", Kind: workspace.Added, Added: 1},
			{Path: "see.txt", Kind: workspace.Renamed, From: "c.txt"},
		}
		if !slices.Equal(r.Changes, want) {
			t.Errorf("changes\n got %+v\nwant %+v", r.Changes, want)
		}
	})
	for _, tc := range []struct{ name, patch, msg string }{
		{"unified diff", "--- a.txt\n+++ a.txt\n@@ -1 +1 @@\n-one\n+ONE\n", "edit step"},
		{"add existing", "*** Begin Patch\n*** Add File: a.txt\n+x\n*** End Patch", "already exists"},
		{"add on disk only", "*** Begin Patch\n*** Add File: disk.txt\n+x\n*** End Patch", "exists on disk"},
		{"move onto existing", "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n*** End Patch", "already exists"},
		{"update missing", "*** Begin Patch\n*** Update File: zz.txt\n@@\n-x\n+y\n*** End Patch", "not in the workspace"},
		{"delete missing", "*** Begin Patch\n*** Delete File: zz.txt\n*** End Patch", "not in the workspace"},
		{"escape", "*** Begin Patch\n*** Add File: ../evil.txt\n+x\n*** End Patch", "evil.txt"},
		{"absolute", "*** Begin Patch\n*** Add File: /tmp/evil.txt\n+x\n*** End Patch", "evil.txt"},
		{"parse error line", "*** Begin Patch\n*** Update File: a.txt\n@@\n?bad\n*** End Patch", "line 4"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			all := map[string]string{"disk.txt": "on disk\n"}
			for k, v := range files {
				all[k] = v
			}
			e, root := setup(t, all, Options{})
			args, _ := json.Marshal(map[string]string{"patch": tc.patch})
			r := run(t, e, `{"paths":["a.txt","b.txt"],"ops":[{"step":"apply_patch","args":`+string(args)+`},{"step":"write"}]}`)
			if r.OK || r.Error == nil || !strings.Contains(r.Error.Message, tc.msg) {
				t.Fatalf("want an error containing %q, got %+v", tc.msg, r.Error)
			}
			if r.Error.Step != 1 || r.Error.Name != "apply_patch" {
				t.Errorf("error at step %d %q, want 1 apply_patch", r.Error.Step, r.Error.Name)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(root), "evil.txt")); err == nil {
				t.Error("a patch escaped the root")
			}
		})
	}
}

func TestPlanValidation(t *testing.T) {
	e, root := setup(t, map[string]string{"a.txt": "a\n"}, Options{})
	r := run(t, e, `{"paths":["a.txt"],"ops":[
		{"step":"edit","args":{"path":"a.txt","edits":[{"find":"a","replace":"b"}]}},
		{"step":"write"},
		{"step":"bogus"},
		{"step":"edit","args":{"path":"a.txt","edits":[]}},
		{"step":"check"}]}`)
	wantError(t, r, fault.BadArgument, `step 3 (bogus): unknown step "bogus"`, "step 4 (edit): edits is empty", "step 5 (check): check is unavailable")
	if r.Error.Step != 0 {
		t.Errorf("validation error at step %d, want 0", r.Error.Step)
	}
	if got := readFile(t, root, "a.txt"); got != "a\n" {
		t.Errorf("a rejected plan wrote: %q", got)
	}
	if e.Workspace().Len() != 0 {
		t.Errorf("a rejected plan acquired %d files", e.Workspace().Len())
	}
	// Only missing capabilities: kind unavailable, not retryable, listing what is available.
	r = run(t, e, `{"paths":[],"ops":[{"step":"lint","args":{"fix":true}}]}`)
	wantError(t, r, fault.Unavailable, "lint is unavailable", "Available steps: read_lines, edit, apply_patch, write")
	if r.Error.Retryable {
		t.Error("unavailable is retryable")
	}
	// Labels only on read_lines; a malformed plan does not parse.
	r = run(t, e, `{"paths":[],"ops":[{"step":"write","label":"x"}]}`)
	wantError(t, r, fault.BadArgument, "label is only for read_lines")
	if _, err := ParsePlan([]byte(`{"paths":[],"ops":[],"extra":1}`)); err == nil || !strings.Contains(err.Error(), `unknown argument "extra"`) {
		t.Errorf("ParsePlan with an unknown field: %v", err)
	}
	if _, err := ParsePlan([]byte(`{"paths":[]} {}`)); err == nil {
		t.Error("ParsePlan accepted trailing data")
	}
}

func TestAcquisitionErrors(t *testing.T) {
	e, _ := setup(t, map[string]string{"dir/a.txt": "a\n", "bin.dat": "a\x00b", "latin1.txt": "caf\xe9\n"}, Options{})
	for _, tc := range []struct {
		paths string
		kind  fault.Kind
		msg   string
	}{
		{`["missing.txt"]`, fault.NotFound, "missing.txt does not exist"},
		{`["dir"]`, fault.BadArgument, `use a glob such as "dir/*"`},
		{`["nope/**"]`, fault.NotFound, `the glob "nope/**" matched no files`},
		{`["bin.dat"]`, fault.BadArgument, "binary"},
		{`["latin1.txt"]`, fault.BadArgument, "not UTF-8"},
		{`["../x"]`, fault.BadArgument, "../x"},
	} {
		r := run(t, e, `{"paths":`+tc.paths+`,"ops":[]}`)
		wantError(t, r, tc.kind, tc.msg)
		if r.Error.Name != "acquire" {
			t.Errorf("%s: failing step %q, want acquire", tc.paths, r.Error.Name)
		}
	}
}

func TestWriteFailureCarriesWritten(t *testing.T) {
	e, root := setup(t, map[string]string{"a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"}, Options{})
	r := run(t, e, `{"paths":["*.txt"],"ops":[{"step":"write","args":{"paths":["zzz.txt"]}}]}`)
	wantError(t, r, fault.BadArgument, "match no unwritten change")
	_ = root
}

// TestSessionKeepsWorkspace shows the workspace persisting between plans:
// patch in one plan, read in the next, write in a third.
func TestSessionKeepsWorkspace(t *testing.T) {
	e, root := setup(t, map[string]string{"a.txt": "one\n"}, Options{})
	if r := run(t, e, `{"paths":["a.txt"],"ops":[{"step":"edit","args":{"path":"a.txt","edits":[{"find":"one","replace":"two"}]}}]}`); !r.OK {
		t.Fatal(r.Error)
	}
	r := run(t, e, `{"paths":["a.txt"],"ops":[{"step":"read_lines","args":{"path":"a.txt","start":1}}]}`)
	if r.Reads["a.txt"] != "two" {
		t.Fatalf("second plan read %q", r.Reads["a.txt"])
	}
	if readFile(t, root, "a.txt") != "one\n" {
		t.Fatal("disk changed before write")
	}
	if r := run(t, e, `{"paths":[],"ops":[{"step":"write"}]}`); !r.OK || len(r.Written) != 1 {
		t.Fatalf("write: %+v", r)
	}
	if readFile(t, root, "a.txt") != "two\n" {
		t.Fatal("write did not land")
	}
}
