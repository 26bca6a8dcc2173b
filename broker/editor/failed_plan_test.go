package editor_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/editor"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/engine/testtree"
)

// realDrivers loads a root's drivers as `devbroker serve` does: gopls
// checks Go (go build and go vet when gopls is missing).
func realDrivers(ctx context.Context, root string, _ broker.Drivers) (broker.Drivers, error) {
	set, _, err := drivers.LoadWith(ctx, root, drivers.Options{})
	if err != nil {
		return nil, err
	}
	return set, nil
}

// failedResult is a plan result with the paths a failed plan reverted.
type failedResult struct {
	planResult
	Reverted []string `json:"reverted"`
}

func readOp(path string) map[string]any {
	return map[string]any{"step": "read_lines", "args": map[string]any{"path": path, "start": 1}, "label": path}
}

var checkOp = map[string]any{"step": "check"}

const (
	goMain = "package main\n\nfunc helper(n int) int { return n }\n\nfunc main() {\n\tprintln(helper(1), twice(1))\n}\n"
	goUtil = "package main\n\nfunc twice(n int) int { return 2 * n }\n"
)

// A plan that fails at check over the editor endpoint gives the editor
// nothing to apply, and the session's workspace goes back to the buffers:
// nothing of the failed plan lingers for a later plan to check or write.
// A plan that passes still returns its edit.
func TestFailedCheckReturnsNoEdit(t *testing.T) {
	disk := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": goMain, "util.go": goUtil}
	root := testtree.New(t, disk)
	c := startWith(t, root, broker.Options{Load: realDrivers})
	if info := c.init(nil); !slices.Contains(info.Devbroker.Steps, "check") {
		t.Fatalf("no check step for Go: %v", info.Devbroker.Steps)
	}
	buf := strings.Replace(goMain, "helper(1)", "helper(2)", 1) // unsaved
	c.open("main.go", buf, 3)

	var r failedResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"main.go"}, "ops": []any{editOp("main.go", "\tprintln(helper(2), twice(1))", "\tprintln(helper(2, 3), twice(1))"), checkOp}}, &r)
	if r.OK || r.Error == nil || r.Error.Kind != "diagnostics" || r.Error.Step != 2 {
		t.Fatalf("failed check: ok %v error %+v", r.OK, r.Error)
	}
	if r.Edit != nil {
		t.Errorf("a plan that failed its check returned an edit to apply: %s", r.Edit)
	}
	if !hasError(r.Diagnostics, "main.go", "too many arguments") {
		t.Errorf("diagnostics lack the type error: %+v", r.Diagnostics)
	}
	if !slices.Equal(r.Reverted, []string{"main.go"}) || len(r.Changes) == 0 {
		t.Errorf("reverted %v, changes %+v; want main.go reverted and the plan's changes reported", r.Reverted, r.Changes)
	}
	// The workspace is the buffer again, and a check of it passes.
	r = failedResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{"main.go"}, "ops": []any{readOp("main.go"), checkOp}}, &r)
	if !r.OK || r.Reads["main.go"] != strings.TrimSuffix(buf, "\n") || !slices.Equal(r.Unwritten, []string{"main.go"}) {
		t.Errorf("after the failed plan: ok %v error %+v read %q unwritten %v; want the buffer, checked clean", r.OK, r.Error, r.Reads["main.go"], r.Unwritten)
	}

	// A later write does not carry the failed plan's change to a file
	// whose buffer equals the disk.
	c.open("util.go", goUtil, 1)
	r = failedResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{"util.go"}, "ops": []any{editOp("util.go", "func twice(n int) int { return 2 * n }", `func twice(n int) int { return "two" }`), checkOp}}, &r)
	if r.OK || r.Edit != nil || !hasError(r.Diagnostics, "util.go", "") {
		t.Fatalf("failed check of util.go: ok %v edit %s diagnostics %+v", r.OK, r.Edit, r.Diagnostics)
	}
	r = failedResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{"util.go"}, "apply": "disk", "ops": []any{map[string]any{"step": "write", "args": map[string]any{"paths": []string{"util.go"}}}}}, &r)
	if len(r.Written) != 0 {
		t.Errorf("a write after the failed plan wrote %v", r.Written)
	}

	// A plan that passes its check returns the edit, against the buffer.
	r = failedResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{"main.go"}, "ops": []any{editOp("main.go", "\tprintln(helper(2), twice(1))", "\tprintln(helper(4), twice(1))"), checkOp}}, &r)
	if !r.OK || r.Edit == nil || len(r.Reverted) != 0 {
		t.Fatalf("passing plan: ok %v error %+v edit %s reverted %v", r.OK, r.Error, r.Edit, r.Reverted)
	}
	got := c.applyWorkspaceEdit(map[string]string{"main.go": buf}, r.Edit)
	if want := strings.Replace(goMain, "helper(1)", "helper(4)", 1); got["main.go"] != want {
		t.Errorf("buffer after the edit = %q, want %q", got["main.go"], want)
	}
	if d := testtree.Read(t, root); d["main.go"] != goMain || d["util.go"] != goUtil {
		t.Errorf("the disk changed: %v", d)
	}
}

// With apply "disk", a plan that fails at check stops before its write,
// and its change does not stay in the session either.
func TestFailedCheckStopsDiskWrite(t *testing.T) {
	disk := map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": goMain, "util.go": goUtil}
	root := testtree.New(t, disk)
	c := startWith(t, root, broker.Options{Load: realDrivers})
	c.init(nil)
	var r failedResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"util.go"}, "apply": "disk", "ops": []any{
		editOp("util.go", "func twice(n int) int { return 2 * n }", `func twice(n int) int { return "two" }`), checkOp, map[string]any{"step": "write"},
	}}, &r)
	if r.OK || r.Error == nil || r.Error.Kind != "diagnostics" || r.Error.Step != 2 || len(r.Written) != 0 || r.Edit != nil {
		t.Fatalf("disk plan failing at check: ok %v error %+v written %v edit %s", r.OK, r.Error, r.Written, r.Edit)
	}
	if !slices.Equal(r.Reverted, []string{"util.go"}) || len(r.Unwritten) != 0 {
		t.Errorf("reverted %v unwritten %v; want util.go reverted and nothing unwritten", r.Reverted, r.Unwritten)
	}
	if d := testtree.Read(t, root); d["util.go"] != goUtil {
		t.Errorf("the failed plan wrote util.go: %q", d["util.go"])
	}
	r = failedResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{"util.go"}, "ops": []any{readOp("util.go")}}, &r)
	if r.Reads["util.go"] != strings.TrimSuffix(goUtil, "\n") {
		t.Errorf("the workspace kept the failed plan's change: %q", r.Reads["util.go"])
	}

	// Write first, check after: the write stands, and the check reports.
	r = failedResult{}
	broken := strings.Replace(goUtil, "return 2 * n", `return "two"`, 1)
	c.must("devbroker/plan", map[string]any{"paths": []string{"util.go"}, "apply": "disk", "ops": []any{
		editOp("util.go", "func twice(n int) int { return 2 * n }", `func twice(n int) int { return "two" }`), map[string]any{"step": "write"}, checkOp,
	}}, &r)
	if r.OK || r.Error == nil || r.Error.Step != 3 || !slices.Equal(r.Written, []string{"util.go"}) || len(r.Reverted) != 0 || len(r.Unwritten) != 0 {
		t.Errorf("write then check: ok %v error %+v written %v reverted %v unwritten %v", r.OK, r.Error, r.Written, r.Reverted, r.Unwritten)
	}
	if d := testtree.Read(t, root); d["util.go"] != broken {
		t.Errorf("util.go on disk = %q, want the written change", d["util.go"])
	}
}

// Any failed step, not only a check, leaves nothing to apply: the steps
// before it are reverted too.
func TestFailedStepReturnsNoEdit(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\ntwo\n"})
	c := start(t, root, false)
	c.init(nil)
	c.open("a.txt", "one\ntwo, unsaved\n", 2)
	var r failedResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{editOp("a.txt", "one", "1"), editOp("a.txt", "three", "3")}}, &r)
	if r.OK || r.Error == nil || r.Error.Kind != "no_match" || r.Edit != nil || !slices.Equal(r.Reverted, []string{"a.txt"}) {
		t.Fatalf("failed edit: ok %v error %+v edit %s reverted %v", r.OK, r.Error, r.Edit, r.Reverted)
	}
	var p editor.PendingResult
	c.must("devbroker/pending", nil, &p)
	r = failedResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{readOp("a.txt")}}, &r)
	if r.Reads["a.txt"] != "one\ntwo, unsaved" || !slices.Equal(p.Unwritten, []string{"a.txt"}) {
		t.Errorf("after the failed plan: read %q, pending %+v; want the buffer", r.Reads["a.txt"], p)
	}
}

// hasError reports whether ds has an error diagnostic for path whose
// message contains msg.
func hasError(ds []wire.Diagnostic, path, msg string) bool {
	for _, d := range ds {
		if d.Path == path && d.Severity == "error" && strings.Contains(d.Message, msg) {
			return true
		}
	}
	return false
}

// The findings of a failed plan in the files it changed describe text the
// editor does not show: they are in the result, not pushed onto the
// buffers. Findings in files it did not change are pushed.
func TestFailedPlanPushesOnlyWhatTheEditorShows(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "fine\n", "b.txt": "BAD\n"})
	c := start(t, root, true)
	c.init(map[string]any{"publishDiagnostics": true})
	c.open("a.txt", "fine\n", 1)
	var r failedResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt", "b.txt"}, "ops": []any{editOp("a.txt", "fine", "BAD"), checkOp}}, &r)
	if r.OK || r.Edit != nil || !slices.Equal(r.Reverted, []string{"a.txt"}) || !hasError(r.Diagnostics, "a.txt", "BAD") {
		t.Fatalf("failed plan: ok %v edit %s reverted %v diagnostics %+v", r.OK, r.Edit, r.Reverted, r.Diagnostics)
	}
	notes := c.notesOf("textDocument/publishDiagnostics", func(n []note) bool { return len(n) > 0 })
	var p struct {
		URI string `json:"uri"`
	}
	if err := json.Unmarshal(notes[0].Params, &p); err != nil {
		t.Fatal(err)
	}
	// Notifications arrive in order: one for a.txt would come first.
	if len(notes) != 1 || p.URI != c.uri("b.txt") {
		t.Errorf("pushed %d notification(s), the first for %s; want one, for b.txt", len(notes), p.URI)
	}
}
