package drivers

import (
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine"
)

// formatPlan runs plan (JSON) on a new engine over root's set and
// returns the result, failing on a step's failure.
func formatPlan(t *testing.T, eng *engine.Engine, plan string) *engine.Result {
	t.Helper()
	p, err := engine.ParsePlan([]byte(plan))
	if err != nil {
		t.Fatal(err)
	}
	r := eng.Run(context.Background(), p)
	if r.Error != nil {
		t.Fatalf("plan failed: %+v", r.Error)
	}
	return r
}

func formattedOf(t *testing.T, r *engine.Result, path string) engine.Formatted {
	t.Helper()
	for _, f := range r.Formatted {
		if f.Path == path {
			return f
		}
	}
	t.Fatalf("%s is not in formatted: %+v", path, r.Formatted)
	return engine.Formatted{}
}

func docOf(t *testing.T, eng *engine.Engine, path string) string {
	t.Helper()
	d, ok := eng.Workspace().Doc(path)
	if !ok {
		t.Fatalf("%s not in the workspace", path)
	}
	return d.String()
}

// TestFormatOnlyChangedGo: gofumpt is canonical, so a changed file that
// was formatted before is formatted whole (the diff is the changed line's
// alone); one that was not is left, saying why; a file the session
// created is formatted whole; a file it did not change is not formatted.
// A plain format lists each file it changed with its diff.
func TestFormatOnlyChangedGo(t *testing.T) {
	const clean = "package main\n\nfunc main() {\n\tprintln(1)\n}\n\nfunc other() {\n\tprintln(2)\n}\n"
	const ugly = "package main\n\nfunc ugly( ) {\n\tprintln(3)\n}\n"
	root, set := loadTrusted(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": clean, "ugly.go": ugly, "same.go": ugly})
	eng, err := engine.New(root, engine.Options{Capabilities: set})
	if err != nil {
		t.Fatal(err)
	}
	r := formatPlan(t, eng, `{"paths": ["main.go", "ugly.go", "same.go"], "ops": [
		{"step": "edit", "args": {"path": "main.go", "edits": [{"find": "\tprintln(1)", "replace": "\tprintln( 1,2 )"}]}},
		{"step": "edit", "args": {"path": "ugly.go", "edits": [{"find": "\tprintln(3)", "replace": "\tprintln( 3 )"}]}},
		{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Add File: new.go\n+package main\n+func added( ) {}\n*** End Patch"}},
		{"step": "format", "args": {"only": "changed"}}]}`)
	if !r.OK {
		t.Fatalf("not ok: %+v", r)
	}
	if got, want := docOf(t, eng, "main.go"), strings.Replace(clean, "println(1)", "println(1, 2)", 1); got != want {
		t.Errorf("main.go = %q, want %q", got, want)
	}
	f := formattedOf(t, r, "main.go")
	if f.How != engine.FormatWhole || f.Driver != "gofumpt" || !strings.Contains(f.Diff, "-\tprintln( 1,2 )\n+\tprintln(1, 2)\n") || strings.Count(f.Diff, "\n-") != 1 {
		t.Errorf("main.go: %+v", f)
	}
	f = formattedOf(t, r, "ugly.go")
	if f.How != engine.FormatLeft || !strings.Contains(f.Reason, "was not formatted as gofumpt formats it before your change") || f.Diff != "" {
		t.Errorf("ugly.go: %+v", f)
	}
	if got := docOf(t, eng, "ugly.go"); got != strings.Replace(ugly, "println(3)", "println( 3 )", 1) {
		t.Errorf("ugly.go was changed: %q", got)
	}
	if f := formattedOf(t, r, "new.go"); f.How != engine.FormatWhole || docOf(t, eng, "new.go") != "package main\n\nfunc added() {}\n" {
		t.Errorf("new.go: %+v, %q", f, docOf(t, eng, "new.go"))
	}
	for _, f := range r.Formatted {
		if f.Path == "same.go" {
			t.Errorf("same.go, unchanged, is in formatted: %+v", f)
		}
	}
	// Without only, the whole file is formatted, and the answer carries
	// the diff.
	r = formatPlan(t, eng, `{"paths": ["ugly.go"], "ops": [{"step": "format", "args": {"paths": ["ugly.go"]}}]}`)
	if f := formattedOf(t, r, "ugly.go"); f.How != engine.FormatWhole || f.Driver != "gofumpt" || !strings.Contains(f.Diff, "-func ugly( ) {\n") || !strings.Contains(f.Diff, "+func ugly() {\n+\tprintln(3)\n") {
		t.Errorf("ugly.go formatted whole: %+v", f)
	}
	// Nothing changed: nothing to format, and ok.
	eng2, _ := engine.New(root, engine.Options{Capabilities: set})
	r = formatPlan(t, eng2, `{"paths": ["same.go"], "ops": [{"step": "format", "args": {"only": "changed"}}]}`)
	if !r.OK || len(r.Formatted) != 0 || len(r.Coverage) == 0 || !strings.Contains(r.Coverage[len(r.Coverage)-1].Message, "none of the 1 file was changed by this session") {
		t.Errorf("format of nothing changed: %+v", r)
	}
}

// TestFormatOnlyChangedPrettierRange: prettier formats the statements the
// changed lines are in, through --range-start and --range-end; the lines
// the session did not touch keep their layout, and a CRLF file stays
// CRLF.
func TestFormatOnlyChangedPrettierRange(t *testing.T) {
	if _, err := exec.LookPath("prettier"); err != nil {
		t.Skip("needs prettier (make tools installs it)")
	}
	const app = "const a = {b:1}\r\nfunction f(x) {\r\n  return x;\r\n}\r\nconst c = {d:2}\r\n"
	root, set := loadTrusted(t, map[string]string{"app.ts": app})
	eng, err := engine.New(root, engine.Options{Capabilities: set})
	if err != nil {
		t.Fatal(err)
	}
	r := formatPlan(t, eng, `{"paths": ["app.ts"], "ops": [
		{"step": "edit", "args": {"path": "app.ts", "edits": [{"find": "  return x;", "replace": "  return   x+1"}]}},
		{"step": "format", "args": {"only": "changed"}}]}`)
	want := "const a = {b:1}\r\nfunction f(x) {\r\n  return x + 1;\r\n}\r\nconst c = {d:2}\r\n"
	if got := docOf(t, eng, "app.ts"); got != want {
		t.Errorf("app.ts = %q, want %q", got, want)
	}
	if f := formattedOf(t, r, "app.ts"); f.How != engine.FormatRange || f.Driver != "prettier" || !strings.Contains(f.Diff, "-  return   x+1\r\n+  return x + 1;\r\n") {
		t.Errorf("app.ts: %+v", f)
	}
}

// TestFormatOnlyChangedYapfRange: an external formatter configured with
// range_args (yapf's --lines) formats the changed lines of a Python file.
func TestFormatOnlyChangedYapfRange(t *testing.T) {
	if _, err := exec.LookPath("yapf3"); err != nil {
		t.Skip("needs yapf3 (make tools installs it: apt-get install yapf3)")
	}
	const app = "x = [1,2,\n  3]\n\n\ndef f(a):\n    return a\n"
	root, set := loadTrusted(t, map[string]string{"app.py": app, ".devbroker.toml": yapfConfig})
	eng, err := engine.New(root, engine.Options{Capabilities: set})
	if err != nil {
		t.Fatal(err)
	}
	r := formatPlan(t, eng, `{"paths": ["app.py"], "ops": [
		{"step": "edit", "args": {"path": "app.py", "edits": [{"find": "    return a", "replace": "    return {  'a':a}"}]}},
		{"step": "format", "args": {"only": "changed"}}]}`)
	if got, want := docOf(t, eng, "app.py"), "x = [1,2,\n  3]\n\n\ndef f(a):\n    return {'a': a}\n"; got != want {
		t.Errorf("app.py = %q, want %q", got, want)
	}
	if f := formattedOf(t, r, "app.py"); f.How != engine.FormatRange || f.Driver != "yapf" {
		t.Errorf("app.py: %+v", f)
	}
}

// yapfConfig formats Python with yapf, by range.
const yapfConfig = `[languages.python]
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
`

// TestFormatOnlyChangedGopls: gopls offers no range formatting
// (textDocument/rangeFormatting is not implemented in v0.23.0); its
// formatting is canonical, so a file formatted before the change is
// formatted whole, and the answer says gopls declined the range.
func TestFormatOnlyChangedGopls(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("needs gopls (make tools installs it)")
	}
	const clean = "package main\n\nfunc main() {\n\tprintln(1)\n}\n"
	root, set := loadTrusted(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": clean, "ugly.go": "package main\n\nfunc ugly( ) {}\n",
		".devbroker.toml": "[languages.go]\nformat = [\"gopls\"]\n",
	})
	eng, err := engine.New(root, engine.Options{Capabilities: set})
	if err != nil {
		t.Fatal(err)
	}
	r := formatPlan(t, eng, `{"paths": ["main.go", "ugly.go"], "ops": [
		{"step": "edit", "args": {"path": "main.go", "edits": [{"find": "\tprintln(1)", "replace": "\tprintln( 1 )"}]}},
		{"step": "edit", "args": {"path": "ugly.go", "edits": [{"find": "func ugly( ) {}", "replace": "func ugly( ) { }"}]}},
		{"step": "format", "args": {"only": "changed"}}]}`)
	if got := docOf(t, eng, "main.go"); got != clean {
		t.Errorf("main.go = %q, want %q", got, clean)
	}
	if f := formattedOf(t, r, "main.go"); f.How != engine.FormatWhole || f.Driver != "gopls" {
		t.Errorf("main.go: %+v", f)
	}
	if f := formattedOf(t, r, "ugly.go"); f.How != engine.FormatLeft || !strings.Contains(f.Reason, "gopls does not offer range formatting") || !strings.Contains(f.Reason, "was not formatted") {
		t.Errorf("ugly.go: %+v", f)
	}
}
