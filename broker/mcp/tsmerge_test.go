package mcp

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
	enginetext "github.com/devbroker/devbroker/engine/text"
)

// TestTypeScriptClientMergedWrite: through the TypeScript SDK's client, in
// every profile, a write whose Go, Python and TypeScript files changed on
// disk on other lines than the session's answers merged (its structured
// content valid against the write tool's or dev_plan's output schema, and
// the text saying so), and a change of the same line is a conflict whose
// stale entry names the line.
func TestTypeScriptClientMergedWrite(t *testing.T) {
	tsClient(t)
	for _, p := range profiles {
		t.Run(string(p), func(t *testing.T) { tsMergedWrite(t, p) })
	}
}

func tsMergedWrite(t *testing.T, p Profile) {
	files := map[string]string{
		".devbroker.toml": "inherit_defaults = false\n[languages.text]\nfile_types = [\"*.txt\"]\nformat = []\nlint = []\ncheck = []\n",
		"main.go":         "package main\n\nfunc main() {\n\tprintln(1)\n}\n\nfunc other() {}\n",
		"app.py":          "def main():\r\n    print(1)\r\n\r\n\r\ndef other():\r\n    pass\r\n",
		"app.ts":          "export function main(): void {\n  console.log(1);\n}\n\nexport function other(): void {}",
	}
	root := testtree.New(t, files)
	abs := func(name string) string { return filepath.Join(root, name) }
	edit := func(path, find, replace string) any {
		return map[string]any{"step": "edit", "args": map[string]any{"path": path, "edits": []any{map[string]any{"find": find, "replace": replace}}}}
	}
	outside := func(path, content string) tsStep { return tsStep{Op: "write", Path: abs(path), Content: content} }
	write, wantMerged := tsCall(p, "write", map[string]any{}, want{text: []string{"merged: app.py had changed on disk", "merged: app.ts had changed on disk", "merged: main.go had changed on disk"}})
	writeAgain, wantConflict := tsCall(p, "write", map[string]any{}, want{fails: true, kind: "conflict", text: []string{"lines 7 (your change: lines 7; the change on disk: lines 7)"}})
	steps := []tsStep{
		// The probe first, so that none still runs (and writes its
		// cache) when the client closes.
		{Op: "call", Name: "probe", Arguments: map[string]any{}},
		{Op: "call", Name: "dev_plan", Arguments: map[string]any{"paths": []string{"main.go", "app.py", "app.ts"}, "ops": []any{
			edit("main.go", "\tprintln(1)", "\tprintln(2)"),
			edit("app.py", "    print(1)", "    print(2)"),
			edit("app.ts", "  console.log(1);", "  console.log(2);"),
		}}},
		outside("main.go", files["main.go"]+"\nfunc added() {}\n"),
		outside("app.py", files["app.py"]+"\r\n\r\ndef added():\r\n    pass\r\n"),
		outside("app.ts", files["app.ts"]+"\n\nexport function added(): void {}\n"),
		write,
		{Op: "call", Name: "dev_plan", Arguments: map[string]any{"paths": []string{"main.go"}, "ops": []any{edit("main.go", "func other() {}", "func other() { println(3) }")}}},
		outside("main.go", "package main\n\nfunc main() {\n\tprintln(2)\n}\n\nfunc other() { println(4) }\n\nfunc added() {}\n"),
		writeAgain,
	}
	out := tsScenario(t, p, root, tsEnv(t), steps)
	for i, s := range steps[:5] {
		if o := out[i]; o.Error != nil || (s.Op == "call" && (o.Result == nil || o.Result.IsError)) {
			t.Fatalf("step %d: %+v", i, o)
		}
	}
	checkOutcome(t, 5, write, out[5], wantMerged)
	var got struct {
		Merged []struct {
			Path     string                     `json:"path"`
			Revision string                     `json:"revision"`
			Ours     []struct{ Start, End int } `json:"ours"`
			Theirs   []struct {
				BaseStart int `json:"base_start"`
				Start     int `json:"start"`
			} `json:"theirs"`
		} `json:"merged"`
	}
	if out[5].Result != nil {
		if err := json.Unmarshal(out[5].Result.StructuredContent, &got); err != nil {
			t.Fatal(err)
		}
	}
	if len(got.Merged) != 3 {
		t.Fatalf("merged = %+v", got.Merged)
	}
	for _, m := range got.Merged {
		if len(m.Ours) != 1 || len(m.Theirs) != 1 || m.Theirs[0].Start <= m.Ours[0].End {
			t.Errorf("%s: ours %+v, theirs %+v", m.Path, m.Ours, m.Theirs)
		}
	}
	// main.go was merged as this; it changed on disk again since.
	if want := enginetext.Revision([]byte("package main\n\nfunc main() {\n\tprintln(2)\n}\n\nfunc other() {}\n\nfunc added() {}\n")); got.Merged[2].Path != "main.go" || got.Merged[2].Revision != want {
		t.Errorf("main.go merged as %s, want %s", got.Merged[2].Revision, want)
	}
	for name, want := range map[string]string{
		"main.go": "package main\n\nfunc main() {\n\tprintln(2)\n}\n\nfunc other() { println(4) }\n\nfunc added() {}\n",
		"app.py":  "def main():\r\n    print(2)\r\n\r\n\r\ndef other():\r\n    pass\r\n\r\n\r\ndef added():\r\n    pass\r\n",
		"app.ts":  "export function main(): void {\n  console.log(2);\n}\n\nexport function other(): void {}\n\nexport function added(): void {}\n",
	} {
		if got := testtree.Read(t, root)[name]; got != want {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
	checkOutcome(t, 8, writeAgain, out[8], wantConflict)
	if o := out[8]; o.Result != nil && !strings.Contains(string(o.Result.StructuredContent), `"not_merged":"not merged: your change and the change on disk touch the same or adjacent lines`) {
		t.Errorf("the conflict's stale entry does not say why: %s", o.Result.StructuredContent)
	}
}

// TestTypeScriptClientFormatOnlyChanged: through the TypeScript SDK's
// client, in every profile, a format of only the changed lines of Go
// (gofumpt), TypeScript (prettier, by range) and Python (yapf, by
// range_args) files answers with each file's diff, valid against the
// format tool's or dev_plan's output schema.
func TestTypeScriptClientFormatOnlyChanged(t *testing.T) {
	tsClient(t)
	for _, tool := range []string{"prettier", "yapf3"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s (make tools installs it)", tool)
		}
	}
	for _, p := range profiles {
		t.Run(string(p), func(t *testing.T) { tsFormatOnlyChanged(t, p) })
	}
}

func tsFormatOnlyChanged(t *testing.T, p Profile) {
	env := tsEnv(t)
	// The user's configuration formats Python with yapf, by range.
	testtree.Write(t, filepath.Join(env["XDG_CONFIG_HOME"], "devbroker"), map[string]string{"config.toml": `[languages.python]
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
`})
	root := testtree.New(t, map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"main.go": "package main\n\nfunc main() {\n\tprintln(1)\n}\n",
		"app.ts":  "const a = {b:1}\nexport function f(x: number): number {\n  return x;\n}\n",
		"app.py":  "x = [1,2,\n  3]\n\n\ndef f(a):\n    return a\n",
	})
	// prettier runs the project's code (its configuration): trust the
	// root, as the user would.
	trust := exec.Command(devbrokerBinary(t), "trust", root)
	for k, v := range env {
		trust.Env = append(trust.Environ(), k+"="+v)
	}
	if out, err := trust.CombinedOutput(); err != nil {
		t.Fatalf("devbroker trust: %v\n%s", err, out)
	}
	edit := func(path, find, replace string) any {
		return map[string]any{"step": "edit", "args": map[string]any{"path": path, "edits": []any{map[string]any{"find": find, "replace": replace}}}}
	}
	format, w := tsCall(p, "format", map[string]any{"only": "changed", "paths": []string{"main.go", "app.ts", "app.py"}}, want{text: []string{
		"formatted main.go (whole, gofumpt)", "+\tprintln(1, 2)",
		"formatted app.ts (range, prettier)", "+  return x + 1;",
		"formatted app.py (range, yapf)", "+    return {'a': a}",
	}})
	steps := []tsStep{
		{Op: "call", Name: "probe", Arguments: map[string]any{}},
		{Op: "call", Name: "dev_plan", Arguments: map[string]any{"paths": []string{"main.go", "app.ts", "app.py"}, "ops": []any{
			edit("main.go", "\tprintln(1)", "\tprintln( 1,2 )"),
			edit("app.ts", "  return x;", "  return   x+1"),
			edit("app.py", "    return a", "    return {  'a':a}"),
		}}},
		format,
	}
	out := tsScenario(t, p, root, env, steps)
	if o := out[1]; o.Error != nil || o.Result == nil || o.Result.IsError {
		t.Fatalf("edits: %+v", o)
	}
	checkOutcome(t, 2, format, out[2], w)
	var got struct {
		Formatted []struct {
			Path string `json:"path"`
			How  string `json:"how"`
		} `json:"formatted"`
	}
	if out[2].Result != nil {
		if err := json.Unmarshal(out[2].Result.StructuredContent, &got); err != nil {
			t.Fatal(err)
		}
	}
	if len(got.Formatted) != 3 {
		t.Errorf("formatted = %+v", got.Formatted)
	}
	// The untouched line keeps its layout.
	if c := testtree.Read(t, root)["app.ts"]; !strings.HasPrefix(c, "const a = {b:1}\n") {
		t.Errorf("app.ts = %q", c)
	}
}

// TestTypeScriptClientMergedWriteIsChecked: through the TypeScript SDK's
// client, in a project of Go, Python and TypeScript files checked by
// gopls, pyright and typescript-language-server, the session's edits call
// added(), which only a change made on disk on other lines defines; the
// write merges the two, and the check after it sees the merged content
// (without it, each call would be undefined).
func TestTypeScriptClientMergedWriteIsChecked(t *testing.T) {
	tsClient(t)
	env := tsEnv(t)
	for _, server := range []string{"gopls", "pyright-langserver", "typescript-language-server"} {
		if !onPath(env["PATH"], server) {
			t.Skipf("%s is not installed (make tools)", server)
		}
	}
	files := map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.22\n",
		"main.go":       "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n\nfunc other() int { return 1 }\n",
		"app.py":        "def main():\r\n    print(\"hi\")\r\n\r\n\r\ndef other():\r\n    return 1\r\n",
		"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}` + "\n",
		"src/app.ts":    "export function main(): void {\n  console.log(\"hi\");\n}\n\nexport function other(): number {\n  return 1;\n}\n",
	}
	theirs := map[string]string{
		"main.go":    files["main.go"] + "\nfunc added() int { return 2 }\n",
		"app.py":     files["app.py"] + "\r\n\r\ndef added():\r\n    return 2\r\n",
		"src/app.ts": files["src/app.ts"] + "\nexport function added(): number {\n  return 2;\n}\n",
	}
	root := testtree.New(t, files)
	// typescript-language-server runs the project's code: a trusted root.
	trust := exec.Command(devbrokerBinary(t), "trust", root)
	for k, v := range env {
		trust.Env = append(trust.Environ(), k+"="+v)
	}
	if out, err := trust.CombinedOutput(); err != nil {
		t.Fatalf("devbroker trust: %v\n%s", err, out)
	}
	edit := func(path, find, replace string) any {
		return map[string]any{"step": "edit", "args": map[string]any{"path": path, "edits": []any{map[string]any{"find": find, "replace": replace}}}}
	}
	steps := []tsStep{
		{Op: "call", Name: "probe", Arguments: map[string]any{}},
		{Op: "call", Name: "dev_plan", Arguments: map[string]any{"paths": []string{"main.go", "app.py", "src/app.ts"}, "ops": []any{
			edit("main.go", "\tprintln(\"hi\")", "\tprintln(added(), other())"),
			edit("app.py", "    print(\"hi\")", "    print(added(), other())"),
			edit("src/app.ts", "  console.log(\"hi\");", "  console.log(added(), other());"),
		}}},
		{Op: "write", Path: filepath.Join(root, "main.go"), Content: theirs["main.go"]},
		{Op: "write", Path: filepath.Join(root, "app.py"), Content: theirs["app.py"]},
		{Op: "write", Path: filepath.Join(root, "src/app.ts"), Content: theirs["src/app.ts"]},
		{Op: "call", Name: "write", Arguments: map[string]any{}},
		{Op: "call", Name: "check", Arguments: map[string]any{}},
	}
	out := tsScenario(t, ProfileFull, root, env, steps)
	for i, s := range steps[:5] {
		if o := out[i]; o.Error != nil || (s.Op == "call" && (o.Result == nil || o.Result.IsError)) {
			t.Fatalf("step %d: %+v", i, o)
		}
	}
	checkOutcome(t, 5, steps[5], out[5], want{text: []string{"merged: app.py had changed on disk", "merged: main.go had changed on disk", "merged: src/app.ts had changed on disk"}})
	checkOutcome(t, 6, steps[6], out[6], want{text: []string{"ok: true"}})
	var check struct {
		OK          bool `json:"ok"`
		Diagnostics []struct {
			Path    string `json:"path"`
			Message string `json:"message"`
		} `json:"diagnostics"`
		Drivers []struct {
			Driver string `json:"driver"`
			Status string `json:"status"`
		} `json:"drivers"`
	}
	if out[6].Result != nil {
		if err := json.Unmarshal(out[6].Result.StructuredContent, &check); err != nil {
			t.Fatal(err)
		}
	}
	checked := map[string]bool{}
	for _, d := range check.Drivers {
		checked[d.Driver] = d.Status == "ok"
	}
	if !check.OK || len(check.Diagnostics) != 0 || !checked["gopls"] || !checked["pyright"] || !checked["typescript-language-server"] {
		t.Errorf("the check after the merge: ok %v, diagnostics %+v, drivers %+v", check.OK, check.Diagnostics, check.Drivers)
	}
	got := testtree.Read(t, root)
	for name, want := range map[string]string{
		"main.go":    strings.Replace(theirs["main.go"], "println(\"hi\")", "println(added(), other())", 1),
		"app.py":     strings.Replace(theirs["app.py"], "print(\"hi\")", "print(added(), other())", 1),
		"src/app.ts": strings.Replace(theirs["src/app.ts"], "console.log(\"hi\")", "console.log(added(), other())", 1),
	} {
		if got[name] != want {
			t.Errorf("%s = %q, want %q", name, got[name], want)
		}
	}
}
