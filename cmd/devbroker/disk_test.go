package main

// End-to-end tests of how a session follows the disk, through the real
// binary and the Go SDK's client: outside changes are read again, stale
// unwritten changes are reported, the conflict error's advice works, and
// files leave the workspace when the limit needs room.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// staleResult is the part of a DevResult that says what is stale.
type staleResult struct {
	OK    bool              `json:"ok"`
	Reads map[string]string `json:"reads"`
	Stale []struct {
		Path         string `json:"path"`
		Disk         string `json:"disk"`
		BaseRevision string `json:"base_revision"`
		DiskRevision string `json:"disk_revision"`
	} `json:"stale"`
	Written []string `json:"written"`
	Error   *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

func readLines(t *testing.T, cs *sdk.ClientSession, path string) staleResult {
	t.Helper()
	res := callTool(t, cs, "read_lines", map[string]any{"path": path, "start": 1})
	if res.IsError {
		t.Fatalf("read_lines %s: %s", path, resultText(res))
	}
	return decodeStructured[staleResult](t, res)
}

func editOp(path, find, replace string) map[string]any {
	return map[string]any{"step": "edit", "args": map[string]any{"path": path, "edits": []any{map[string]any{"find": find, "replace": replace}}}}
}

// A session reads a file, another process changes it, and the session's
// next read_lines (step tool or dev_plan) shows the new text.
func TestSessionReadsOutsideChanges(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "a.txt": "one\ntwo\n"})
	cs := connectStdio(t, root, "--tools", "full") // read_lines as a tool of its own
	if got := readLines(t, cs, "a.txt").Reads["a.txt"]; got != "one\ntwo" {
		t.Fatalf("first read = %q", got)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo, changed by someone else\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readLines(t, cs, "a.txt").Reads["a.txt"]; got != "one\ntwo, changed by someone else" {
		t.Fatalf("read_lines after the outside change = %q, want the new text", got)
	}
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("three\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{
		map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 1}},
	}})
	if dr := decodeStructured[staleResult](t, res); res.IsError || dr.Reads["a.txt"] != "three" || len(dr.Stale) != 0 {
		t.Fatalf("dev_plan read after the outside change: %s", resultText(res))
	}
}

// An unwritten edit whose file changed outside is reported stale and its
// write refused; following the error's advice literally (discard those
// paths, make the change again, write) writes it.
func TestSessionConflictAdviceWorks(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "a.txt": "alpha\nbeta\n"})
	cs := connectStdio(t, root)
	edit := []any{editOp("a.txt", "beta", "BETA")}
	res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": edit})
	if res.IsError {
		t.Fatalf("edit: %s", resultText(res))
	}
	// The outside change touches the line next to the edit's: the two
	// are not merged.
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("first alpha\nbeta\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The next plan naming the file reports it stale; its write is refused.
	res = callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{map[string]any{"step": "write"}}})
	dr := decodeStructured[staleResult](t, res)
	if !res.IsError || dr.Error == nil || dr.Error.Kind != "conflict" || len(dr.Written) != 0 {
		t.Fatalf("write over an outside change: %s", resultText(res))
	}
	if len(dr.Stale) != 1 || dr.Stale[0].Path != "a.txt" || dr.Stale[0].Disk != "changed" ||
		!strings.HasPrefix(dr.Stale[0].BaseRevision, "sha256:") || !strings.HasPrefix(dr.Stale[0].DiskRevision, "sha256:") {
		t.Fatalf("stale = %+v", dr.Stale)
	}
	if !strings.Contains(resultText(res), "stale: a.txt changed on disk") {
		t.Errorf("the text does not say a.txt is stale: %s", resultText(res))
	}
	if got := readFile(t, root, "a.txt"); got != "first alpha\nbeta\n" {
		t.Fatalf("the refused write changed the disk: %q", got)
	}
	// The advice: "discard with paths [...]", then make the change again
	// and write.
	m := regexp.MustCompile(`discard with paths (\[[^\]]*\])`).FindStringSubmatch(dr.Error.Message)
	if m == nil || !strings.Contains(dr.Error.Message, "make it again on the new content after that discard, then write") {
		t.Fatalf("the conflict error gives no advice to follow: %s", dr.Error.Message)
	}
	var paths []string
	if err := json.Unmarshal([]byte(m[1]), &paths); err != nil {
		t.Fatalf("advice paths %s: %v", m[1], err)
	}
	res = callTool(t, cs, "discard", map[string]any{"paths": paths})
	if d := decodeStructured[struct{ Discarded []string }](t, res); res.IsError || !slices.Equal(d.Discarded, []string{"a.txt"}) {
		t.Fatalf("discard %v: %s", paths, resultText(res))
	}
	res = callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": append(edit, map[string]any{"step": "write"})})
	if dr := decodeStructured[staleResult](t, res); res.IsError || !slices.Equal(dr.Written, []string{"a.txt"}) || len(dr.Stale) != 0 {
		t.Fatalf("the change made again: %s", resultText(res))
	}
	if got := readFile(t, root, "a.txt"); got != "first alpha\nBETA\n" {
		t.Fatalf("disk = %q", got)
	}
}

// With a limit of 2 files, a session that read two files can read a third:
// the least recently used file without unwritten changes leaves. When every
// file has unwritten changes the error says to write or discard.
func TestSessionEvictsToMakeRoom(t *testing.T) {
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers, "a.txt": "a\n", "b.txt": "b\n", "c.txt": "c\n"})
	bin, err := exec.LookPath("devbroker-limited")
	if err != nil {
		t.Fatalf("devbroker-limited is not on PATH (testscript.Main installs it): %v", err)
	}
	cmd := exec.Command(bin, "serve", "--mcp", "--root", root, "--tools", "full") // read_lines and write as tools of their own
	cmd.Env = append(os.Environ(), "DEVBROKER_MAX_FILES=2")
	logs := &syncBuffer{}
	cmd.Stderr = logs
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "disk_test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nlogs:\n%s", err, logs)
	}
	defer cs.Close()

	res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt", "b.txt"}, "ops": []any{editOp("a.txt", "a", "A")}})
	if res.IsError {
		t.Fatalf("plan: %s", resultText(res))
	}
	// b.txt has no unwritten change: it leaves to make room for c.txt.
	if got := readLines(t, cs, "c.txt").Reads["c.txt"]; got != "c" {
		t.Fatalf("read c.txt = %q", got)
	}
	res = callTool(t, cs, "dev_plan", map[string]any{"ops": []any{map[string]any{"step": "read_lines", "args": map[string]any{"path": "b.txt", "start": 1}}}})
	if !res.IsError || !strings.Contains(resultText(res), "b.txt is not in the workspace") {
		t.Fatalf("b.txt should have left the workspace: %s", resultText(res))
	}
	// The unwritten change to a.txt stayed.
	res = callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"c.txt"}, "ops": []any{editOp("c.txt", "c", "C")}})
	if res.IsError {
		t.Fatalf("edit c.txt: %s", resultText(res))
	}
	res = callTool(t, cs, "read_lines", map[string]any{"path": "b.txt", "start": 1})
	if !res.IsError || !strings.Contains(resultText(res), "limit of 2 files") || !strings.Contains(resultText(res), "discard") {
		t.Fatalf("read b.txt with every file changed: %s", resultText(res))
	}
	res = callTool(t, cs, "write", map[string]any{})
	if res.IsError {
		t.Fatalf("write: %s", resultText(res))
	}
	if got := readLines(t, cs, "b.txt").Reads["b.txt"]; got != "b" {
		t.Fatalf("read b.txt after the write = %q", got)
	}
	if readFile(t, root, "a.txt") != "A\n" || readFile(t, root, "c.txt") != "C\n" {
		t.Errorf("disk: a %q c %q", readFile(t, root, "a.txt"), readFile(t, root, "c.txt"))
	}
}
