package engine

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// toyTests runs a toy language's tests: in every .toy file under the root
// (the request's content over the disk's), a line "test NAME fails WHY"
// is a failing test, its finding "NAME: WHY" at that line; any other line
// "test NAME" passes.
type toyTests struct {
	fs      *rootfs.FS
	reqs    []Request
	timeout bool // answer status timeout, with the failures
}

func (c *toyTests) Has(k Kind) bool { return k == Test }

func (c *toyTests) Run(_ context.Context, req Request) (*Response, error) {
	c.reqs = append(c.reqs, req)
	contents := map[string]string{}
	found, err := c.fs.Glob("**/*.toy")
	if err != nil {
		return nil, err
	}
	for _, p := range found {
		data, _, err := c.fs.ReadFile(p)
		if err != nil {
			return nil, err
		}
		contents[p] = string(data)
	}
	for p, d := range req.Files {
		contents[p] = d.Content()
	}
	resp := &Response{Drivers: []DriverStatus{{Driver: "toytest", Status: StatusOK}}}
	if c.timeout {
		resp.Drivers[0].Status = StatusTimeout
	}
	for _, p := range slices.Sorted(maps.Keys(contents)) {
		for i, l := range strings.Split(contents[p], "\n") {
			rest, ok := strings.CutPrefix(l, "test ")
			if !ok {
				continue
			}
			if name, why, failed := strings.Cut(rest, " fails "); failed {
				resp.Diagnostics = append(resp.Diagnostics, Diagnostic{Path: p, Line: i + 1, Column: 1, Severity: SeverityError, Source: "toytest", Code: CodeTestFailed, Message: name + ": " + why})
			}
		}
	}
	return resp, nil
}

// A test answer over changed content: a test that failed on disk already
// is pre-existing, though it now fails elsewhere and otherwise; a test the
// change broke is introduced. The baseline is asked for after the answer,
// about the tests the change affects (Affecting), and only when a test
// failed; with fail_on "introduced" only the introduced failure stops
// the plan.
func TestTestFailuresIntroducedOrPreExisting(t *testing.T) {
	caps := &toyTests{}
	e, _ := setup(t, map[string]string{
		"a.toy": "test one fails was broken already\ntest two\n",
	}, Options{Capabilities: caps})
	caps.fs = e.FS()
	r := run(t, e, `{"paths": ["a.toy"], "ops": [
		{"step": "edit", "args": {"path": "a.toy", "edits": [{"find": "test one fails was broken already", "replace": "// moved\ntest one fails another way"}, {"find": "test two", "replace": "test two fails now"}]}},
		{"step": "test"}]}`)
	wantError(t, r, fault.Diagnostics, "two: now")
	wantMarks(t, r, "a.toy:2 one: another way false", "a.toy:3 two: now true")
	if b := r.Baseline; b == nil || b.Introduced != 1 || b.PreExisting != 1 {
		t.Errorf("baseline counts = %+v, want 1 introduced, 1 pre-existing", b)
	}
	if len(caps.reqs) != 2 {
		t.Fatalf("%d requests, want the answer's then the baseline's", len(caps.reqs))
	}
	if base := caps.reqs[1]; !slices.Equal(base.Affecting, []string{"a.toy"}) || len(base.Changed) != 0 || !strings.Contains(base.Files["a.toy"].Content(), "was broken already") {
		t.Errorf("the baseline's request: affecting %v, changed %v, a.toy %q", base.Affecting, base.Changed, base.Files["a.toy"].Content())
	}

	// fail_on "introduced": the pre-existing failure alone does not stop
	// the plan.
	caps.reqs = nil
	r = run(t, e, `{"paths": ["a.toy"], "fail_on": "introduced", "ops": [
		{"step": "edit", "args": {"path": "a.toy", "edits": [{"find": "test two fails now", "replace": "test two"}]}},
		{"step": "test"}]}`)
	if !r.OK {
		t.Fatalf("a pre-existing failure stopped the plan: %+v", r.Error)
	}
	wantMarks(t, r, "a.toy:2 one: another way false")

	// No failure: no baseline run.
	if _, _, err := e.Discard(nil); err != nil {
		t.Fatal(err)
	}
	caps.reqs = nil
	r = run(t, e, `{"paths": ["a.toy"], "ops": [
		{"step": "edit", "args": {"path": "a.toy", "edits": [{"find": "test one fails was broken already", "replace": "test one"}]}},
		{"step": "test"}]}`)
	if !r.OK || len(caps.reqs) != 1 {
		t.Errorf("ok %v, %d requests (want the answer's alone): %+v", r.OK, len(caps.reqs), r.Error)
	}
}

// A test answer that did not finish (a driver timed out) with failures
// seen before: the baseline is not run, and the failures count as
// introduced, a note saying why.
func TestTestBaselineSkippedWhenIncomplete(t *testing.T) {
	caps := &toyTests{timeout: true}
	e, _ := setup(t, map[string]string{"a.toy": "test one fails was broken already\n"}, Options{Capabilities: caps})
	caps.fs = e.FS()
	r := run(t, e, `{"paths": ["a.toy"], "ops": [
		{"step": "edit", "args": {"path": "a.toy", "edits": [{"find": "test one fails was broken already", "replace": "test one fails still"}]}},
		{"step": "test"}]}`)
	if r.OK || len(caps.reqs) != 1 {
		t.Fatalf("ok %v, %d requests (want the answer's alone)", r.OK, len(caps.reqs))
	}
	wantMarks(t, r, "a.toy:1 one: still true")
	if !slices.ContainsFunc(r.Coverage, func(n Note) bool {
		return n.Kind == NoteBaseline && strings.Contains(n.Message, "the tests did not finish")
	}) {
		t.Errorf("no baseline note: %+v", r.Coverage)
	}
}
