package drivers

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine"
)

// TestStepsThroughRealDrivers runs the engine's format, lint and check
// steps through the embedded default configuration's real drivers, on
// content that exists only in the workspace: format changes the workspace
// (not the disk) and reports the change; check never mutates; a file no
// language covers gets a coverage note saying so, not a diagnostic.
func TestStepsThroughRealDrivers(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	root := t.TempDir()
	for p, c := range map[string]string{
		"go.mod":    "module example.com/m\n\ngo 1.22\n",
		"a.go":      "package m\n\nfunc A() int { return 1 }\n",
		"notes.xyz": "no language covers this\n",
	} {
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx := context.Background()
	set, report, err := Load(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if !set.Has(engine.Format) {
		t.Fatalf("format unavailable: %+v", report)
	}
	eng, err := engine.New(root, engine.Options{Capabilities: set})
	if err != nil {
		t.Fatal(err)
	}
	plan, err := engine.ParsePlan([]byte(`{"paths": ["*"], "ops": [
		{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Add File: b.go\n+package m\n+\n+func B( ) int {\n+return 2 }\n*** End Patch"}},
		{"step": "format", "args": {"paths": ["*.go", "notes.xyz"]}},
		{"step": "read_lines", "args": {"path": "b.go", "start": 1}}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	r := eng.Run(ctx, plan)
	if !r.OK {
		t.Fatalf("format plan: %+v", r.Error)
	}
	if want := "package m\n\nfunc B() int {\n\treturn 2\n}"; r.Reads["b.go"] != want {
		t.Errorf("b.go after format:\n%s\nwant:\n%s", r.Reads["b.go"], want)
	}
	if _, err := os.Stat(filepath.Join(root, "b.go")); err == nil {
		t.Error("format wrote to disk")
	}
	var noteForXYZ bool
	for _, n := range r.Coverage {
		if n.Kind == engine.NoteNoLanguage && len(n.Paths) == 1 && n.Paths[0] == "notes.xyz" && strings.Contains(n.Message, "not formatted") {
			noteForXYZ = true
		}
	}
	if !noteForXYZ {
		t.Errorf("no coverage note for a file no language covers: %+v", r.Coverage)
	}
	for _, d := range r.Diagnostics {
		if d.Path == "notes.xyz" {
			t.Errorf("a diagnostic on notes.xyz: %+v; a note is not a finding", d)
		}
	}
	if len(r.Drivers) == 0 || r.Drivers[0].Driver != "gofumpt" || r.Drivers[0].Status != engine.StatusOK {
		t.Errorf("driver statuses: %+v", r.Drivers)
	}

	// check never mutates, even when a driver could (gofumpt cannot check;
	// whatever serves check must leave the workspace as it is).
	if !set.Has(engine.Check) {
		t.Skip("no working check driver here (gopls missing?)")
	}
	before, _ := eng.Workspace().Doc("b.go")
	plan, _ = engine.ParsePlan([]byte(`{"paths": [], "ops": [
		{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Update File: b.go\n@@\n-\treturn 2\n+\treturn undefinedName\n*** End Patch"}},
		{"step": "check"}
	]}`))
	r = eng.Run(ctx, plan)
	found := false
	for _, d := range r.Diagnostics {
		if d.Path == "b.go" && strings.Contains(d.Message, "undefinedName") && d.Severity == engine.SeverityError {
			found = true
		}
	}
	if !found || r.OK {
		t.Errorf("check did not report the in-memory error: ok=%v %+v", r.OK, r.Diagnostics)
	}
	after, _ := eng.Workspace().Doc("b.go")
	if before.Equal(after) {
		t.Error("the patch did not land")
	}
	if !strings.Contains(after.String(), "undefinedName") {
		t.Error("check changed the workspace")
	}
}
