package main

// End-to-end, through the real binary, a real MCP client over stdio and
// real language servers (pyright, typescript-language-server, gopls): a
// walk covers the project's files as the project states them. What
// .gitignore ignores is passed over (an npm project's node_modules after
// npm install), and so are the files the project's own configuration
// leaves out of a walk of the whole root (pyright's include, tsconfig.json's
// include); a file a walk meets that is too large is skipped and named;
// a file named is checked whatever the project says.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// requestsLike is a Python project laid out as psf/requests is: its
// sources under src/requests, which pyproject.toml's [tool.pyright]
// include names, and a tests directory full of type errors that pyright,
// run as the project runs it, never reports.
var requestsLike = map[string]string{
	"pyproject.toml":           "[project]\nname = \"requests\"\n\n[tool.pyright]\ninclude = [\"src/requests\"]\n",
	"src/requests/__init__.py": "from .api import get\n\n__all__ = [\"get\"]\n",
	"src/requests/api.py":      "def get(url: str) -> int:\n    return url\n",
	"src/requests/utils.py":    "def quote(s: str) -> str:\n    return s\n",
	"tests/test_api.py":        "x: int = \"not an int\"\n",
	"tests/test_utils.py":      "y: str = 1\n",
	"tests/conftest.py":        "print(undefined_fixture)\n",
}

// npmProject is a TypeScript project after npm install: node_modules
// (which .gitignore ignores) holds a JSON file over the command line's
// 8 MiB per-file limit and a package whose TypeScript has an error, and
// generated/, ignored too, a broken file; tsconfig.json (with a comment
// and trailing commas, as TypeScript allows) includes src and generated;
// scripts/ is outside its include.
func npmProject(t *testing.T) string {
	files := map[string]string{
		".gitignore":                "node_modules/\n/generated/\n",
		"package.json":              "{\"name\": \"web\", \"private\": true}\n",
		"tsconfig.json":             "{\n  // the sources\n  \"compilerOptions\": {\"strict\": true, \"noEmit\": true,},\n  \"include\": [\"src\", \"generated\",],\n}\n",
		"src/a.ts":                  "export const a: number = \"not a number\";\n",
		"src/ok.ts":                 "export const ok: number = 1;\n",
		"generated/g.ts":            "export const g: number = \"generated\";\n",
		"scripts/build.ts":          "const s: string = 42;\n",
		"node_modules/pkg/index.ts": "export const p: number = \"package\";\n",
	}
	files["node_modules/big/data.json"] = bigJSON(480_000) // 16.8 MB
	return testtree.New(t, files)
}

// bigJSON is a JSON array of n 32-character strings: 35 bytes each.
func bigJSON(n int) string {
	return "[" + strings.Repeat("\"0123456789abcdef0123456789abcdef\",", n) + "\"end\"]\n"
}

// cliRun runs the binary and returns its exit code, standard output and
// standard error.
func cliRun(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command(devbrokerBin(t), args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), stdout.String(), stderr.String()
	case err != nil:
		t.Fatal(err)
	}
	return 0, stdout.String(), stderr.String()
}

// errorFiles lists the files that text output reports an error in,
// sorted, each once.
func errorFiles(stdout string) []string {
	var out []string
	for _, line := range strings.Split(stdout, "\n") {
		p, rest, ok := strings.Cut(line, ":")
		if ok && strings.Contains(rest, ": error: ") && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// scopeResult is the part of a DevResult these tests read.
type scopeResult struct {
	OK          bool `json:"ok"`
	Diagnostics []struct {
		Path     string `json:"path"`
		Severity string `json:"severity"`
	} `json:"diagnostics"`
	Coverage []struct {
		Kind    string   `json:"kind"`
		Driver  string   `json:"driver"`
		Files   int      `json:"files"`
		Paths   []string `json:"paths"`
		Message string   `json:"message"`
	} `json:"coverage"`
	Error *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

func (r scopeResult) errorPaths() []string {
	var out []string
	for _, d := range r.Diagnostics {
		if d.Severity == "error" && !slices.Contains(out, d.Path) {
			out = append(out, d.Path)
		}
	}
	slices.Sort(out)
	return out
}

// note returns the result's note of kind, failing when there is none.
func (r scopeResult) note(t *testing.T, kind string) (files int, paths []string, message string) {
	t.Helper()
	for _, n := range r.Coverage {
		if n.Kind == kind {
			return n.Files, n.Paths, n.Message
		}
	}
	t.Fatalf("no %s note in %+v", kind, r.Coverage)
	return 0, nil, ""
}

// A check of the whole root reports what pyright, run as the project runs
// it, reports: src/requests's findings, not those of tests/, which
// pyproject.toml's include leaves out; a note counts the files passed
// over and says why. A file named is checked whatever the project says.
// On the command line and over MCP (check, dev_plan).
func TestNoPathCheckHonoursPyrightInclude(t *testing.T) {
	root := testtree.New(t, requestsLike)
	if !probeAvailable(t, root)["driver:pyright"] {
		t.Fatal("pyright was not found by the probe: install it (make tools)")
	}

	code, stdout, stderr := cliRun(t, "check", "--root", root)
	if code != 1 || !slices.Equal(errorFiles(stdout), []string{"src/requests/api.py"}) {
		t.Fatalf("devbroker check: exit %d, errors in %v; want 1, only src/requests/api.py\nstdout:\n%s\nstderr:\n%s", code, errorFiles(stdout), stdout, stderr)
	}
	for _, want := range []string{"coverage: 3 python files outside the project's own scope for pyright", "tests/conftest.py, tests/test_api.py, tests/test_utils.py", `pyproject.toml [tool.pyright] include = ["src/requests"]`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	code, stdout, stderr = cliRun(t, "check", "--root", root, "tests/test_api.py")
	if code != 1 || !slices.Equal(errorFiles(stdout), []string{"tests/test_api.py"}) || strings.Contains(stderr, "outside the project") {
		t.Fatalf("devbroker check tests/test_api.py: exit %d, errors in %v; want 1, in tests/test_api.py, and no scope note\nstdout:\n%s\nstderr:\n%s", code, errorFiles(stdout), stdout, stderr)
	}

	cs := connectSettled(t, root, "--tools", "full")
	planCheck := map[string]any{"ops": []any{map[string]any{"step": "check"}}}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"check", map[string]any{}}, {"dev_plan", planCheck}} {
		res := callTool(t, cs, c.tool, c.args)
		r := decodeStructured[scopeResult](t, res)
		if r.OK || !slices.Equal(r.errorPaths(), []string{"src/requests/api.py"}) {
			t.Fatalf("%s without paths: ok %v, errors in %v; want only src/requests/api.py:\n%s", c.tool, r.OK, r.errorPaths(), resultText(res))
		}
		files, paths, msg := r.note(t, "out_of_scope")
		if files != 3 || !slices.Equal(paths, []string{"tests/conftest.py", "tests/test_api.py", "tests/test_utils.py"}) || !strings.Contains(msg, "include = [\"src/requests\"]") {
			t.Errorf("%s: the out_of_scope note counts %d files %v: %s", c.tool, files, paths, msg)
		}
	}
	// Read into the workspace, a file out of the scope stays out of a
	// check of the whole root: the answer does not depend on what the
	// session read before.
	if rl := callTool(t, cs, "dev_plan", map[string]any{"paths": []any{"tests/test_api.py"}, "ops": []any{map[string]any{"step": "read_lines", "args": map[string]any{"path": "tests/test_api.py", "start": 1}}}}); rl.IsError {
		t.Fatalf("read_lines: %s", resultText(rl))
	}
	res := callTool(t, cs, "check", map[string]any{})
	if r := decodeStructured[scopeResult](t, res); !slices.Equal(r.errorPaths(), []string{"src/requests/api.py"}) {
		t.Fatalf("check without paths after reading tests/test_api.py: errors in %v:\n%s", r.errorPaths(), resultText(res))
	}
	// Named, it is checked (with what the workspace holds).
	res = callTool(t, cs, "check", map[string]any{"paths": []any{"tests/test_api.py"}})
	if r := decodeStructured[scopeResult](t, res); !slices.Contains(r.errorPaths(), "tests/test_api.py") {
		t.Fatalf("check of tests/test_api.py: errors in %v, want its own among them:\n%s", r.errorPaths(), resultText(res))
	}
}

// After npm install, a check of the whole root passes over what
// .gitignore ignores (node_modules with its 16 MB JSON file, generated/),
// and tsconfig.json's include leaves scripts/ out; a glob passes over the
// ignored directories too, and a file named in one is checked.
func TestNoPathCheckAfterNpmInstall(t *testing.T) {
	root := npmProject(t)
	if probeStates(t, root, "--trust")["typescript-language-server"] != "found" {
		t.Fatal("typescript-language-server was not found by the probe: install it (make tools)")
	}

	code, stdout, stderr := cliRun(t, "check", "--trust", "--root", root)
	if code != 1 || !slices.Equal(errorFiles(stdout), []string{"src/a.ts"}) {
		t.Fatalf("devbroker check: exit %d, errors in %v; want 1, only src/a.ts\nstdout:\n%s\nstderr:\n%s", code, errorFiles(stdout), stdout, stderr)
	}
	for _, want := range []string{"coverage: 1 typescript file outside the project's own scope for typescript-language-server", "(scripts/build.ts)", `tsconfig.json include = ["src", "generated"]`} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "node_modules") || strings.Contains(stderr, "bounds") {
		t.Errorf("the check of the whole root met node_modules:\n%s", stderr)
	}

	code, stdout, stderr = cliRun(t, "check", "--trust", "--root", root, "**/*.ts")
	if code != 1 || !slices.Equal(errorFiles(stdout), []string{"scripts/build.ts", "src/a.ts"}) {
		t.Fatalf("devbroker check '**/*.ts': exit %d, errors in %v; want 1, in scripts/build.ts and src/a.ts\nstdout:\n%s\nstderr:\n%s", code, errorFiles(stdout), stdout, stderr)
	}
	code, stdout, stderr = cliRun(t, "check", "--trust", "--root", root, "generated/g.ts")
	if code != 1 || !slices.Equal(errorFiles(stdout), []string{"generated/g.ts"}) {
		t.Fatalf("devbroker check generated/g.ts (ignored, but named): exit %d, errors in %v\nstdout:\n%s\nstderr:\n%s", code, errorFiles(stdout), stdout, stderr)
	}

	cs := connectStdio(t, root, "--trust", "--tools", "full")
	res := callTool(t, cs, "check", map[string]any{})
	r := decodeStructured[scopeResult](t, res)
	if r.Error == nil || r.Error.Kind != "diagnostics" || !slices.Equal(r.errorPaths(), []string{"src/a.ts"}) {
		t.Fatalf("check without paths over MCP: error %+v, errors in %v; want diagnostics in src/a.ts only:\n%s", r.Error, r.errorPaths(), resultText(res))
	}
	if files, paths, _ := r.note(t, "out_of_scope"); files != 1 || !slices.Equal(paths, []string{"scripts/build.ts"}) {
		t.Errorf("out_of_scope note: %d files %v, want scripts/build.ts", files, paths)
	}
}

// A file a walk meets that the workspace cannot hold (a 9 MB JSON file,
// over the command line's 8 MiB per-file limit) is skipped and named, and
// the answer is about the rest; named, it still fails the answer.
func TestWalkSkipsAFileOverTheLimit(t *testing.T) {
	big := bigJSON(270_000)
	root := testtree.New(t, map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"a.go":            "package m\n\nvar X int = \"not an int\"\n",
		"data/big.json":   big,
		"data/small.json": "[1, 2]\n",
	})
	code, stdout, stderr := cliRun(t, "check", "--root", root)
	if code != 1 || !slices.Equal(errorFiles(stdout), []string{"a.go"}) {
		t.Fatalf("devbroker check: exit %d, errors in %v; want 1, in a.go\nstdout:\n%s\nstderr:\n%s", code, errorFiles(stdout), stdout, stderr)
	}
	if want := fmt.Sprintf("coverage: 1 file a walk met skipped, not looked at (data/big.json: %d bytes, over the per-file limit of 8388608 bytes (limits.max_file_bytes))", len(big)); !strings.Contains(stderr, want) {
		t.Errorf("stderr does not name the skipped file:\n%s", stderr)
	}
	code, stdout, stderr = cliRun(t, "check", "--root", root, "--format", "json")
	var r scopeResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("check --format json: %v\n%s", err, stdout)
	}
	if files, paths, _ := r.note(t, "skipped"); code != 1 || files != 1 || !slices.Equal(paths, []string{"data/big.json"}) {
		t.Errorf("check --format json: exit %d, skipped note %d %v\n%s", code, files, paths, stderr)
	}
	code, _, stderr = cliRun(t, "check", "--root", root, "data/big.json")
	if code != 2 || !strings.Contains(stderr, "limits.max_file_bytes") {
		t.Errorf("devbroker check data/big.json (named): exit %d, want 2 naming the limit:\n%s", code, stderr)
	}
}

// The walk that finds the root's languages passes over testdata, as the
// check walk does: C files in a Go module's testdata start no C server.
func TestLanguagesWalkPassesOverTestdata(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"go.mod":         "module example.com/m\n\ngo 1.22\n",
		"a.go":           "package m\n",
		"x/testdata/a.c": "int main(void) { return 0; }\n",
		"x/testdata/b.c": "int f(void) { return 1; }\n",
		"vendor/v/lib.c": "int g(void) { return 2; }\n",
	})
	states := probeStates(t, root)
	if states["clangd"] != "not_probed" || states["gopls"] == "not_probed" {
		t.Fatalf("probe: clangd %q, gopls %q; want clangd not probed (its files are test fixtures), gopls probed", states["clangd"], states["gopls"])
	}
}

// probeStates is each driver's state in devbroker probe --json.
func probeStates(t *testing.T, root string, flags ...string) map[string]string {
	t.Helper()
	out := cliOutput(t, 0, append([]string{"probe", "--json", "--root", root}, flags...)...)
	var rep struct {
		Drivers []struct {
			Name  string `json:"name"`
			State string `json:"state"`
		} `json:"drivers"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, d := range rep.Drivers {
		states[d.Name] = d.State
	}
	return states
}

// A project file that cannot be parsed narrows nothing, and the answer
// warns naming it: on the command line (stderr) and over MCP (a config
// note naming the driver).
func TestBrokenProjectFileWarns(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"go.mod":         "module example.com/m\n\ngo 1.22\n",
		"a.go":           "package m\n",
		"tsconfig.json":  "{\n  \"include\": [\"src\",\n",
		"pyproject.toml": "[tool.pyright]\ninclude = \"src\"\n",
	})
	code, stdout, stderr := cliRun(t, "check", "--root", root, "a.go")
	if code != 0 {
		t.Fatalf("devbroker check a.go: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"devbroker check: note: warning: tsconfig.json: line 2: unexpected end of JSON input", "(the project scope of typescript-language-server)", "devbroker check: note: warning: pyproject.toml: line 2, column 11: [tool.pyright] include must be a list of strings", "(the project scope of pyright)"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	cs := connectStdio(t, root, "--tools", "full")
	res := callTool(t, cs, "check", map[string]any{})
	r := decodeStructured[scopeResult](t, res)
	drivers := map[string]bool{}
	for _, n := range r.Coverage {
		if n.Kind == "config" && strings.HasPrefix(n.Message, "warning: ") {
			drivers[n.Driver] = true
		}
	}
	if !r.OK || !drivers["typescript-language-server"] || !drivers["pyright"] {
		t.Fatalf("check without paths: ok %v, warnings from %v; want ok, warnings naming typescript-language-server and pyright:\n%s", r.OK, drivers, resultText(res))
	}
}

// A Go module with a few JavaScript files, in a root nobody trusted (as
// golang.org/x/tools's cmd/present/static): typescript-language-server
// runs only in a trusted root, so a check of the whole root checks the Go
// files with gopls, says which JavaScript files went unchecked and how to
// have them checked, and exits 0; naming a JavaScript file asks for it,
// and that answer is unchecked (exit 2).
func TestNoPathCheckPassesOverUntrustedDefaults(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"a.go":            "package m\n",
		"static/play.js":  "function play(a) { return a + 1 }\n",
		"static/notes.js": "var notes = []\n",
	})
	code, stdout, stderr := cliRun(t, "check", "--root", root)
	if code != 0 {
		t.Fatalf("devbroker check: exit %d, want 0\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{"coverage: 2 javascript files not checked by typescript-language-server (static/notes.js, static/play.js)", "runs code the repository provides, so not before you trust the root", "devbroker trust "} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	code, stdout, stderr = cliRun(t, "check", "--root", root, "static/play.js")
	if code != 2 || !strings.Contains(stderr, "unchecked: 1 javascript file not checked by typescript-language-server (static/play.js)") {
		t.Errorf("devbroker check static/play.js: exit %d, want 2 and the file unchecked\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// A root whose only files are JavaScript, nobody having trusted it: the
// check looked at no file, and the error's advice covers a checker that
// is installed but runs only in a root the user trusts (not only one to
// install).
func TestNothingLookedAtSaysTrust(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"static/play.js": "function play(a) { return a + 1 }\n",
	})
	code, stdout, stderr := cliRun(t, "check", "--root", root)
	if code != 2 || !strings.Contains(stderr, "check looked at no file") || !strings.Contains(stderr, "runs only in a root you trust") || !strings.Contains(stderr, "trust the root") {
		t.Errorf("devbroker check: exit %d, want 2 and advice that names trust\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
