package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// testCapConfig gives the test drivers the test layer's long timeout.
const testCapConfig = `
[drivers.go-test]
timeout = "10m"

[drivers.pytest]
timeout = "10m"
`

// TestTestToolStopsBrokenChangeThroughMCP drives the real binary through
// the Go SDK's client: in a trusted root, a plan whose edit breaks a Go
// test fails at the test's line before its write, the disk untouched;
// the test tool alone says what ran; a fixed edit is written.
func TestTestToolStopsBrokenChangeThroughMCP(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	root := t.TempDir()
	for p, s := range map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nfunc Add(x, y int) int { return x + y }\n",
		"b/b.go":      "package b\n\nimport \"example.com/m/a\"\n\nfunc Twice(x int) int { return a.Add(x, x) }\n",
		"b/b_test.go": "package b\n\nimport \"testing\"\n\nfunc TestTwice(t *testing.T) {\n\tif got := Twice(2); got != 4 {\n\t\tt.Errorf(\"Twice(2) = %d, want 4\", got)\n\t}\n}\n",
	} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "devbroker"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "devbroker", "config.toml"), []byte(testCapConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	goenv, _ := goCommand(t, root, "env", "GOENV")
	ctx, cancel := context.WithTimeout(context.Background(), freshTimeout)
	defer cancel()
	w, err := connectWatching(ctx, t, root, []string{"XDG_CONFIG_HOME=" + cfg, "XDG_STATE_HOME=" + t.TempDir(), "GOENV=" + goenv}, "--tools", "full", "--trust")
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	w.waitTools(ctx, t, func(tools []string) bool { return slices.Contains(tools, "test") })
	cs := w.cs

	plan := func(replace string) map[string]any {
		return map[string]any{"paths": []string{"a/a.go"}, "ops": []any{
			map[string]any{"step": "edit", "args": map[string]any{"path": "a/a.go", "edits": []any{map[string]any{"find": "func Add(x, y int) int { return x + y }", "replace": replace}}}},
			map[string]any{"step": "test", "args": map[string]any{}},
			map[string]any{"step": "write", "args": map[string]any{}},
		}}
	}
	r := freshCall(t, cs, "dev_plan", plan("func Add(x, y int) int { return x - y }"))
	if r.OK || len(r.Diagnostics) != 1 || r.Diagnostics[0].Path != "b/b_test.go" || r.Diagnostics[0].Line != 7 || !strings.Contains(r.Diagnostics[0].Message, "TestTwice: Twice(2) = 0, want 4") {
		t.Fatalf("the broken plan: %s", r)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a/a.go")); !strings.Contains(string(b), "x + y") {
		t.Fatalf("the disk changed: %s", b)
	}
	freshCall(t, cs, "discard", map[string]any{})
	r = freshCall(t, cs, "test", map[string]any{"paths": []string{"b/b.go"}})
	if !r.OK || len(r.Diagnostics) != 0 {
		t.Errorf("test of b: %s", r)
	}
	r = freshCall(t, cs, "dev_plan", plan("func Add(x, y int) int { return y + x }"))
	if !r.OK {
		t.Fatalf("the fixed plan: %s", r)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a/a.go")); !strings.Contains(string(b), "y + x") {
		t.Errorf("the fixed edit was not written: %s", b)
	}
}
