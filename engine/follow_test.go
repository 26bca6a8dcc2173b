package engine

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// seeCaps records the content of every file a request hands the drivers.
type seeCaps struct{ seen map[string]string }

func (f *seeCaps) Has(Kind) bool { return true }

func (f *seeCaps) Run(_ context.Context, req Request) (*Response, error) {
	f.seen = map[string]string{}
	for p, d := range req.Files {
		f.seen[p] = d.Content()
	}
	return &Response{Drivers: []DriverStatus{{Driver: "fake", Status: StatusOK}}}, nil
}

// A check validates what would be on disk after the write: a file the
// session holds with no unwritten change, changed on disk by someone else
// since it was acquired, is handed to the drivers as the disk holds it now,
// not as the session read it; one deleted on disk leaves the workspace.
func TestCheckFollowsTheDiskForCleanFiles(t *testing.T) {
	caps := &seeCaps{}
	e, root := setup(t, map[string]string{"a.go": "one\n", "b.go": "old\n", "c.go": "c\n"}, Options{Capabilities: caps})
	run(t, e, `{"paths": ["a.go", "b.go", "c.go"], "ops": []}`)
	if err := os.WriteFile(filepath.Join(root, "b.go"), []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, "c.go")); err != nil {
		t.Fatal(err)
	}
	r := run(t, e, `{"paths": ["a.go"], "ops": [
	  {"step": "edit", "args": {"path": "a.go", "edits": [{"find": "one", "replace": "two"}]}},
	  {"step": "check", "args": {}},
	  {"step": "write", "args": {}}]}`)
	if !r.OK {
		t.Fatalf("plan failed: %+v", r.Error)
	}
	if got := caps.seen["b.go"]; got != "new\n" {
		t.Errorf("check saw b.go = %q, want what the disk holds now (%q)", got, "new\n")
	}
	if _, ok := caps.seen["c.go"]; ok {
		t.Errorf("check saw c.go, which was deleted on disk")
	}
	if got := caps.seen["a.go"]; got != "two\n" {
		t.Errorf("check saw a.go = %q, want the unwritten edit", got)
	}
	// The file that left is named in the answer's notes, not silently
	// skipped, and not as a finding.
	found := false
	for _, n := range r.Coverage {
		if n.Kind == NoteLeftDisk && slices.Equal(n.Paths, []string{"c.go"}) && strings.Contains(n.Message, "deleted on disk") {
			found = true
		}
	}
	if !found {
		t.Errorf("no note says c.go left the workspace: %+v", r.Coverage)
	}
	if len(r.Diagnostics) != 0 {
		t.Errorf("diagnostics = %+v, want none: a note is not a finding", r.Diagnostics)
	}
}

// changeCaps writes path on disk during its first request, as an outside
// process would while a step runs, and records what each request saw.
type changeCaps struct {
	root, path string
	seen       []string
}

func (f *changeCaps) Has(Kind) bool { return true }

func (f *changeCaps) Run(_ context.Context, req Request) (*Response, error) {
	f.seen = append(f.seen, req.Files[f.path].Content())
	if len(f.seen) == 1 {
		if err := os.WriteFile(filepath.Join(f.root, f.path), []byte("changed during the step\n"), 0o644); err != nil {
			return nil, err
		}
	}
	return &Response{Drivers: []DriverStatus{{Driver: "fake", Status: StatusOK}}}, nil
}

// The first step of a plan hands over the files its acquisition read; a
// later step reads them again, so a change made on disk meanwhile reaches
// it.
func TestLaterStepFollowsTheDiskForAcquiredFiles(t *testing.T) {
	caps := &changeCaps{path: "a.go"}
	e, root := setup(t, map[string]string{"a.go": "one\n"}, Options{Capabilities: caps})
	caps.root = root
	r := run(t, e, `{"paths": ["a.go"], "ops": [{"step": "lint", "args": {}}, {"step": "check", "args": {}}]}`)
	if !r.OK {
		t.Fatalf("plan failed: %+v", r.Error)
	}
	if want := []string{"one\n", "changed during the step\n"}; len(caps.seen) != 2 || caps.seen[0] != want[0] || caps.seen[1] != want[1] {
		t.Errorf("the steps saw %q, want %q", caps.seen, want)
	}
}
