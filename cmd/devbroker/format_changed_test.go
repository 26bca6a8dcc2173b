package main

// format's only: "changed" through the real binary and the Go SDK's
// client: the lines the session changed in Go (gofumpt, canonical),
// TypeScript (prettier, by range) and Python (yapf, by range_args) files,
// unwritten ones and one edit_file wrote, are formatted, and nothing else;
// the answer carries each file's diff.

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// formattedResult is the part of a DevResult that says what format did.
type formattedResult struct {
	OK        bool     `json:"ok"`
	Written   []string `json:"written"`
	Formatted []struct {
		Path   string `json:"path"`
		How    string `json:"how"`
		Driver string `json:"driver"`
		Reason string `json:"reason"`
		Diff   string `json:"diff"`
	} `json:"formatted"`
}

func TestFormatOnlyChangedThroughMCP(t *testing.T) {
	for _, tool := range []string{"prettier", "yapf3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s (make tools installs it)", tool)
		}
	}
	const mainGo = "package main\n\nfunc main() {\n\tprintln(1)\n}\n\nfunc other() {\n\tprintln(2)\n}\n"
	const libGo = "package main\n\nfunc lib() int {\n\treturn 1\n}\n"
	const appTS = "const a = {b:1}\nexport function f(x: number): number {\n  return x;\n}\n"
	const appPy = "x = [1,2,\n  3]\n\n\ndef f(a):\n    return a\n"
	root := testtree.New(t, map[string]string{
		"go.mod": goModule, "main.go": mainGo, "lib.go": libGo, "app.ts": appTS, "app.py": appPy,
		".devbroker.toml": `[languages.python]
format = ["yapf"]
lint = []
check = []

[drivers.yapf]
type = "external"
command = ["yapf3"]
version_command = ["yapf3", "--version"]
input = "stdin"
output = "stdout"
range_args = ["--lines={start_line}-{end_line}"]
`,
	})
	cs := connectStdio(t, root, "--trust", "--tools", "full") // the project names yapf; format is a tool
	res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"main.go", "app.ts", "app.py"}, "ops": []any{
		editOp("main.go", "\tprintln(1)", "\tprintln( 1,2 )"),
		editOp("app.ts", "  return x;", "  return   x+1"),
		editOp("app.py", "    return a", "    return {  'a':a}"),
	}})
	if res.IsError {
		t.Fatalf("edits: %s", resultText(res))
	}
	// edit_file writes as it goes: its lines are the session's too.
	if res := callTool(t, cs, "read_file", map[string]any{"file_path": filepath.Join(root, "lib.go")}); res.IsError {
		t.Fatal(resultText(res))
	}
	if res := callTool(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": filepath.Join(root, "lib.go"), "old_str": "\treturn 1", "new_str": "\treturn  1+1"}); res.IsError {
		t.Fatal(resultText(res))
	}

	res = callTool(t, cs, "format", map[string]any{"only": "changed"})
	dr := decodeStructured[formattedResult](t, res)
	if res.IsError || !dr.OK {
		t.Fatalf("format only changed: %s", resultText(res))
	}
	want := map[string]struct{ how, driver, content, diff string }{
		"main.go": {"whole", "gofumpt", strings.Replace(mainGo, "println(1)", "println(1, 2)", 1), "-\tprintln( 1,2 )\n+\tprintln(1, 2)\n"},
		"lib.go":  {"whole", "gofumpt", strings.Replace(libGo, "return 1", "return 1 + 1", 1), "-\treturn  1+1\n+\treturn 1 + 1\n"},
		"app.ts":  {"range", "prettier", strings.Replace(appTS, "return x;", "return x + 1;", 1), "-  return   x+1\n+  return x + 1;\n"},
		"app.py":  {"range", "yapf", strings.Replace(appPy, "return a", "return {'a': a}", 1), "-    return {  'a':a}\n+    return {'a': a}\n"},
	}
	if len(dr.Formatted) != len(want) {
		t.Errorf("formatted = %+v", dr.Formatted)
	}
	text := resultText(res)
	for _, f := range dr.Formatted {
		w, ok := want[f.Path]
		if !ok || f.How != w.how || f.Driver != w.driver || !strings.Contains(f.Diff, w.diff) {
			t.Errorf("%s: %+v, want %+v", f.Path, f, w)
		}
		if !strings.Contains(text, "formatted "+f.Path+" ("+w.how+", "+w.driver+")") || !strings.Contains(text, w.diff) {
			t.Errorf("the text does not give %s's diff:\n%s", f.Path, text)
		}
	}
	for p, w := range want {
		if got := readFile(t, root, p); got != w.content {
			t.Errorf("%s on disk = %q, want %q", p, got, w.content)
		}
	}
}
