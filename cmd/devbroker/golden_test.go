package main

// The golden three-surface test: the same probe, the same plans (with a
// language step and a search, so answers are covered too) and the same
// edit_file calls through the command line (probe --json, run, edit
// --json), MCP over stdio (the Go SDK's client) and the editor endpoint
// (serve --stdio, LSP framing) answer with the same JSON, which is also
// testdata/golden/surfaces.json. It backs broker/wire's invariant: one
// encoding per result, on every surface.
//
// Normalised, and only this: each surface works on its own copy of the
// tree, so its root directory reads $ROOT; the editor's JSON-RPC envelope
// is taken off (a result is the result; an error is its data, as
// {"error": data}) and its plan results lose the fields only the editor
// has (apply, edit, reverted). For the golden file alone, the probe's gopls
// version and path read $VERSION and $PATH, which belong to the machine.
//
// Run with -update to rewrite the golden file.

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aymanbagabas/go-udiff"

	"github.com/devbroker/devbroker/engine/testtree"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden")

// goldenConfig checks Go with gopls alone, so the answers depend on no
// other tool the machine may have.
const goldenConfig = `inherit_defaults = false
[languages.go]
file_types = ["*.go"]
format = []
lint = []
check = ["gopls"]
intelligence = ["gopls"]

[drivers.gopls]
type = "lsp"
command = ["gopls"]
version_command = ["gopls", "version"]
language_id = "go"
timeout = "60s"
settings = { diagnosticsDelay = "0s" }
`

// goldenPlans are the plans every surface runs, in order, on one session:
// the first asks (main.go's outline from gopls, a search of the root),
// the second fails at its edit, both changing nothing; the third edits,
// reads and checks, leaving main.go unwritten. All hold main.go alone: a
// check covers every file the session holds, and the CLI's session is one
// plan, a server's all of them.
var goldenPlans = []string{
	`{"paths": ["main.go"], "ops": [
	  {"step": "symbols", "args": {"path": "main.go"}},
	  {"step": "search", "args": {"pattern": "print|func", "regex": true}}]}`,
	`{"paths": ["main.go"], "ops": [
	  {"step": "read_lines", "args": {"path": "main.go", "start": 1, "end": 2}, "label": "head"},
	  {"step": "edit", "args": {"path": "main.go", "edits": [{"find": "nope", "replace": "x"}]}}]}`,
	`{"paths": ["main.go"], "ops": [
	  {"step": "read_lines", "args": {"path": "main.go", "start": 4, "end": 4}, "label": "before"},
	  {"step": "edit", "args": {"path": "main.go", "edits": [{"find": "\tprintln(\"hi\")", "replace": "\tprintln(\"hello\")"}]}},
	  {"step": "read_lines", "args": {"path": "main.go", "start": 4, "end": 4}, "label": "after"},
	  {"step": "check"}]}`,
}

// goldenCalls are the edit_file calls (and a read_file) every surface runs
// as one session; @ROOT@ is the root. The third fails (no_match).
const goldenCalls = `[
  {"command": "view", "file_path": "@ROOT@/notes.txt"},
  {"command": "str_replace", "file_path": "@ROOT@/notes.txt", "old_str": "two", "new_str": "2"},
  {"command": "str_replace", "file_path": "@ROOT@/notes.txt", "old_str": "nope", "new_str": "x"},
  {"tool": "read_file", "file_path": "@ROOT@/notes.txt", "limit": 1}
]`

// surfaceAnswers is what one surface answered, in the golden file's form.
type surfaceAnswers struct {
	Probe    any   `json:"probe"`
	Plans    []any `json:"plans"`
	EditFile []any `json:"edit_file"`
}

func TestGoldenThreeSurfaces(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("gopls is not on PATH (make tools)")
	}
	surfaces := []struct {
		name string
		run  func(t *testing.T, root string) surfaceAnswers
	}{
		{"cli", cliAnswers},
		{"mcp", mcpAnswers},
		{"editor", editorAnswers},
	}
	got := map[string]string{}
	for _, s := range surfaces {
		root := testtree.New(t, map[string]string{
			".devbroker.toml": goldenConfig, "go.mod": goModule, "main.go": goMain, "notes.txt": "one\ntwo\n",
		})
		got[s.name] = normalise(t, root, s.run(t, root))
	}
	for _, s := range surfaces[1:] {
		if got[s.name] != got["cli"] {
			t.Errorf("%s answers differently from the CLI:\n%s", s.name, lineDiff(got["cli"], got[s.name]))
		}
	}
	golden := filepath.Join("testdata", "golden", "surfaces.json")
	masked := maskMachine(got["cli"])
	if *updateGolden {
		if err := os.WriteFile(golden, []byte(masked), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestGoldenThreeSurfaces -update to write it)", err)
	}
	if masked != string(want) {
		t.Errorf("the answers differ from %s (if the change is meant, run with -update and review the diff):\n%s", golden, lineDiff(string(want), masked))
	}
}

// cliAnswers runs devbroker probe --json, run and edit --json.
func cliAnswers(t *testing.T, root string) surfaceAnswers {
	var out surfaceAnswers
	out.Probe = decodeJSON(t, cliOutput(t, 0, "probe", "--json", "--trust", "--root", root))
	for i, p := range goldenPlans {
		f := filepath.Join(t.TempDir(), "plan.json")
		if err := os.WriteFile(f, []byte(p), 0o644); err != nil {
			t.Fatal(err)
		}
		code := 0
		if i == 1 {
			code = 1 // a failed step
		}
		out.Plans = append(out.Plans, decodeJSON(t, cliOutput(t, code, "run", "--trust", "--root", root, f)))
	}
	f := filepath.Join(t.TempDir(), "calls.json")
	if err := os.WriteFile(f, []byte(strings.ReplaceAll(goldenCalls, "@ROOT@", root)), 0o644); err != nil {
		t.Fatal(err)
	}
	for line := range strings.Lines(cliOutput(t, 1, "edit", "--json", "--root", root, f)) {
		out.EditFile = append(out.EditFile, decodeJSON(t, line))
	}
	return out
}

// cliOutput runs the binary and returns its standard output, failing the
// test unless it exits with code.
func cliOutput(t *testing.T, code int, args ...string) string {
	t.Helper()
	cmd := exec.Command(devbrokerBin(t), args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	if got != code {
		t.Fatalf("devbroker %s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), got, code, stdout, stderr.String())
	}
	return string(stdout)
}

// mcpAnswers calls the probe, dev_plan, edit_file and read_file tools;
// each answer is the tool result's structured content.
func mcpAnswers(t *testing.T, root string) surfaceAnswers {
	cs := connectStdio(t, root, "--trust", "--tools", "full") // read_file and write_file as tools
	var out surfaceAnswers
	out.Probe = callTool(t, cs, "probe", map[string]any{}).StructuredContent
	for _, p := range goldenPlans {
		out.Plans = append(out.Plans, callTool(t, cs, "dev_plan", decodeJSON(t, p)).StructuredContent)
	}
	for _, call := range goldenCallList(t, root) {
		tool := "edit_file"
		if name, ok := call["tool"].(string); ok {
			tool = name
			delete(call, "tool")
		}
		out.EditFile = append(out.EditFile, callTool(t, cs, tool, call).StructuredContent)
	}
	return out
}

// editorAnswers sends devbroker/probe, devbroker/plan (apply "disk": the
// plan runs as over MCP), devbroker/editFile and devbroker/readFile.
func editorAnswers(t *testing.T, root string) surfaceAnswers {
	c := startEditor(t, root, "--trust")
	id := 1
	request := func(method string, params any) any {
		t.Helper()
		id++
		b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
		c.send(string(b))
		a := c.answer(id)
		if e, ok := a["error"].(map[string]any); ok {
			return map[string]any{"error": e["data"]}
		}
		return a["result"]
	}
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	c.answer(1)
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	var out surfaceAnswers
	// Reprobe, as the MCP probe tool and the CLI do: without it the editor
	// answers with what the start-up probe has found so far, which on a
	// busy machine may still be running.
	out.Probe = request("devbroker/probe", map[string]any{"reprobe": true})
	for _, p := range goldenPlans {
		params := decodeJSON(t, p).(map[string]any)
		params["apply"] = "disk"
		res := request("devbroker/plan", params).(map[string]any)
		delete(res, "apply")
		delete(res, "edit")
		delete(res, "reverted")
		out.Plans = append(out.Plans, res)
	}
	for _, call := range goldenCallList(t, root) {
		method := "devbroker/editFile"
		if name, ok := call["tool"].(string); ok {
			method = map[string]string{"read_file": "devbroker/readFile", "write_file": "devbroker/writeFile"}[name]
			delete(call, "tool")
		}
		out.EditFile = append(out.EditFile, request(method, call))
	}
	return out
}

func goldenCallList(t *testing.T, root string) []map[string]any {
	t.Helper()
	var calls []map[string]any
	if err := json.Unmarshal([]byte(strings.ReplaceAll(goldenCalls, "@ROOT@", root)), &calls); err != nil {
		t.Fatal(err)
	}
	return calls
}

func decodeJSON(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return v
}

// normalise encodes a surface's answers with sorted keys, its root read
// as $ROOT.
func normalise(t *testing.T, root string, a surfaceAnswers) string {
	t.Helper()
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	rootJSON, _ := json.Marshal(root)
	b = bytes.ReplaceAll(b, bytes.Trim(rootJSON, `"`), []byte("$ROOT"))
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// maskMachine replaces what the machine decides (the found gopls's version
// and path) for the golden file.
func maskMachine(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		key, _, _ := strings.Cut(strings.TrimSpace(line), ":")
		if key == `"version"` || (key == `"path"` && strings.Contains(line, "gopls")) {
			indent := line[:len(line)-len(strings.TrimLeft(line, " "))]
			comma := ""
			if strings.HasSuffix(strings.TrimSpace(line), ",") {
				comma = ","
			}
			mask := map[string]string{`"version"`: "$VERSION", `"path"`: "$PATH"}[key]
			line = indent + key + `: "` + mask + `"` + comma + "\n"
		}
		b.WriteString(line)
	}
	return b.String()
}

// lineDiff is the unified diff from want to got.
func lineDiff(want, got string) string { return udiff.Unified("want", "got", want, got) }
