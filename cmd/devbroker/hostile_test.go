package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// A session over MCP takes its workspace limits from the root's
// [limits], and the error names the key to raise.
func TestServeSessionLimitsFromConfig(t *testing.T) {
	root := testtree.New(t, map[string]string{
		".devbroker.toml": noDrivers + "[limits]\nmax_files = 2\n",
		"a.txt":           "a\n", "b.txt": "b\n", "c.txt": "c\n",
	})
	cs := connectStdio(t, root, "--trust") // [limits] applies only trusted
	res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"*.txt"}, "ops": []any{}})
	if !res.IsError || !strings.Contains(resultText(res), "over its limit of 2 files (limits.max_files") {
		t.Fatalf("a plan over the configured max_files: %s", resultText(res))
	}
}

// Over MCP, a read-only file is refused by the write tool and written
// with force; apply_patch refuses a NUL byte.
func TestServeReadOnlyAndText(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "ro.txt": "old\n"})
	if err := os.Chmod(filepath.Join(root, "ro.txt"), 0o444); err != nil {
		t.Fatal(err)
	}
	cs := connectStdio(t, root, "--tools", "full") // write and apply_patch as tools of their own
	res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"ro.txt"}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": "ro.txt", "edits": []any{map[string]any{"find": "old", "replace": "new"}}}},
	}})
	if res.IsError {
		t.Fatalf("edit: %s", resultText(res))
	}
	res = callTool(t, cs, "write", map[string]any{})
	if !res.IsError || !strings.Contains(resultText(res), "ro.txt is read-only (mode 0444") {
		t.Fatalf("write of a read-only file: %s", resultText(res))
	}
	if got := readFile(t, root, "ro.txt"); got != "old\n" {
		t.Fatalf("a refused write changed the file: %q", got)
	}
	res = callTool(t, cs, "write", map[string]any{"force": true})
	if res.IsError || readFile(t, root, "ro.txt") != "new\n" {
		t.Fatalf("forced write: %s", resultText(res))
	}
	res = callTool(t, cs, "apply_patch", map[string]any{"patch": "*** Begin Patch\n*** Add File: n.txt\n+a\x00b\n*** End Patch"})
	if !res.IsError || !strings.Contains(resultText(res), "NUL byte") {
		t.Fatalf("apply_patch with a NUL byte: %s", resultText(res))
	}
	if _, err := os.Stat(filepath.Join(root, "n.txt")); err == nil {
		t.Fatal("apply_patch with a NUL byte created the file")
	}
}
