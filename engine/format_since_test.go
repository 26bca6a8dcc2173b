package engine

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

// With a BaseSource (devbroker format --only changed --since REV), the
// lines format's only: "changed" formats are those that differ from the
// source's content: a file it had otherwise is changed where it differs
// (line endings alone aside), one it lacked is changed whole, one it
// holds as the disk does is not; a session's unwritten change counts
// against the source's content too.
func TestFormatOnlyChangedSince(t *testing.T) {
	caps := &toyCaps{}
	src := sinceSource{
		"a.toy":    {Content: []byte("one\ntwo\nthree\nfour\n"), Exists: true},
		"crlf.toy": {Content: []byte("one\ntwo\nthree\n"), Exists: true},
		"eol.toy":  {Content: []byte("one\ntwo\n"), Exists: true},
		"new.toy":  {},
		"gone.toy": {Content: []byte("gone\n"), Exists: true},
	}
	e, _ := setup(t, map[string]string{
		"a.toy":    "one\nTWO\nthree\nFOUR\n",
		"crlf.toy": "one\r\nTWO\r\nthree\r\n", // checked out with CRLF, line 2 changed
		"eol.toy":  "one\r\ntwo\r\n",          // only its endings differ
		"new.toy":  "x\ny\n",
		"same.toy": "same\n",
	}, Options{Capabilities: caps, Since: src})
	caps.fs = e.FS()
	r := run(t, e, `{"paths": ["a.toy", "crlf.toy", "eol.toy", "new.toy", "same.toy"], "ops": [
		{"step": "edit", "args": {"path": "same.toy", "edits": [{"find": "same", "replace": "SAME"}]}},
		{"step": "format", "args": {"only": "changed"}}]}`)
	if !r.OK {
		t.Fatalf("format only changed since REV: %+v", r.Error)
	}
	if len(caps.reqs) != 1 {
		t.Fatalf("%d requests, want 1", len(caps.reqs))
	}
	req := caps.reqs[0]
	want := map[string][]LineRange{
		"a.toy":    {{2, 2}, {4, 4}},
		"crlf.toy": {{2, 2}},
		"new.toy":  {{1, 2}},
		"same.toy": {{1, 1}}, // the session's change, the source holding the disk's content
	}
	if !maps.EqualFunc(req.Ranges, want, slices.Equal) {
		t.Errorf("ranges = %v, want %v", req.Ranges, want)
	}
	if got := slices.Sorted(maps.Keys(req.Ranges)); !slices.Equal(req.Paths, got) {
		t.Errorf("paths = %v, want the changed files %v", req.Paths, got)
	}
	if b := req.Before["a.toy"]; b == nil || b.String() != "one\ntwo\nthree\nfour\n" {
		t.Errorf("a.toy's content before = %v, want the source's", b)
	}
	if b, ok := req.Before["new.toy"]; !ok || b != nil {
		t.Errorf("new.toy's content before = %v (%v), want none: the source lacked it", b, ok)
	}
	if b := req.Before["same.toy"]; b == nil || b.String() != "same\n" {
		t.Errorf("same.toy's content before = %v, want the disk's", b)
	}

	// Nothing differing from the source: nothing formatted, saying so.
	caps2 := &toyCaps{}
	e, _ = setup(t, map[string]string{"a.toy": "one\n"}, Options{Capabilities: caps2, Since: sinceSource{}})
	caps2.fs = e.FS()
	r = run(t, e, `{"paths": ["a.toy"], "ops": [{"step": "format", "args": {"only": "changed"}}]}`)
	if !r.OK || len(caps2.reqs) != 0 {
		t.Fatalf("nothing changed since REV: ok %v, %d requests", r.OK, len(caps2.reqs))
	}
	if !slices.ContainsFunc(r.Coverage, func(n Note) bool {
		return n.Kind == NoteNotLooked && strings.Contains(n.Message, "none of the 1 file changed since REV")
	}) {
		t.Errorf("coverage %v: want the note that nothing changed since REV", r.Coverage)
	}
}
