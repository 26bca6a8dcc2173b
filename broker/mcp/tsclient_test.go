package mcp

// Tests of the real binary, `devbroker serve --mcp` over stdio, driven by
// the official TypeScript SDK's client (testdata/tsclient: harness.mjs and
// the pinned @modelcontextprotocol/sdk that .ci/install-tools installs
// there with npm ci). That client, which the MCP Inspector and Gemini CLI
// use, validates a tool's structured content against its output schema,
// failures included: an answer the schema does not admit reaches the user
// as "MCP error -32602: Structured content does not match the tool's
// output schema" instead of its message. The Go SDK's client does not
// validate, so the other tests cannot see that.

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// tsStep is one step of harness.mjs's scenario.
type tsStep struct {
	Op        string `json:"op"`
	Name      string `json:"name,omitempty"`
	Arguments any    `json:"arguments,omitempty"`
	Path      string `json:"path,omitempty"`
	Content   string `json:"content,omitempty"`
}

// tsOutcome is what the TypeScript client made of a step.
type tsOutcome struct {
	Op    string `json:"op"`
	Name  string `json:"name"`
	Tools []struct {
		Name         string          `json:"name"`
		OutputSchema json.RawMessage `json:"outputSchema"`
	} `json:"tools"`
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	} `json:"result"`
	// Error is what the client threw instead of returning the answer.
	Error *struct {
		Code    *int   `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// tsScenario runs harness.mjs over steps against `devbroker serve --mcp
// --root root --tools p`, with env added to the server's environment, and
// returns one outcome per step.
func tsScenario(t *testing.T, p Profile, root string, env map[string]string, steps []tsStep) []tsOutcome {
	t.Helper()
	node, dir := tsClient(t)
	if cfg := env["XDG_CONFIG_HOME"]; cfg != "" {
		// The test layer, added to the user configuration the test
		// wrote there (if any): no driver runs under its default
		// timeout.
		if err := configtest.Install(cfg); err != nil {
			t.Fatal(err)
		}
	}
	scenario := map[string]any{
		"command": devbrokerBinary(t),
		"args":    []string{"serve", "--mcp", "--root", root, "--tools", string(p)},
		"env":     env,
		"steps":   steps,
	}
	b, err := json.Marshal(scenario)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "scenario.json")
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	// Generous: the harness's own request timeout is ten minutes; this
	// only keeps a wedged run from outliving the test binary's timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(dir, "harness.mjs"), file)
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node harness.mjs: %v\nstderr:\n%s", err, stderr.String())
	}
	var got struct {
		Fatal string      `json:"fatal"`
		Steps []tsOutcome `json:"steps"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("harness output %q: %v\nstderr:\n%s", out, err, stderr.String())
	}
	if got.Fatal != "" || len(got.Steps) != len(steps) {
		t.Fatalf("harness: %s (%d of %d steps)\nserver log:\n%s", got.Fatal, len(got.Steps), len(steps), stderr.String())
	}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server log:\n%s", stderr.String())
		}
	})
	return got.Steps
}

// tsClient returns node and the harness's directory, skipping the test
// when node or the installed SDK is missing.
func tsClient(t *testing.T) (node, dir string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary and runs node")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; the TypeScript SDK client tests need it (make test installs it through .ci/install-tools)")
	}
	dir, err = filepath.Abs("testdata/tsclient")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules/@modelcontextprotocol/sdk/package.json")); err != nil {
		t.Skipf("the TypeScript MCP SDK is not installed in %s: run npm ci there (make test does it through .ci/install-tools)", dir)
	}
	return node, dir
}

var built struct {
	once sync.Once
	bin  string
	err  error
	out  []byte
}

// devbrokerBinary builds cmd/devbroker once per test binary.
func devbrokerBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "devbroker-tsclient-")
		if err != nil {
			built.err = err
			return
		}
		built.bin = filepath.Join(dir, "devbroker")
		built.out, built.err = exec.Command("go", "build", "-o", built.bin, "../../cmd/devbroker").CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("building devbroker: %v\n%s", built.err, built.out)
	}
	return built.bin
}

// TestMain runs the tests with the test configuration layer (every
// default driver under a generous timeout, configs/configtest), in the
// servers they start in process; tsScenario gives it to the binary's.
func TestMain(m *testing.M) {
	code := configtest.Run(m)
	if built.bin != "" {
		os.RemoveAll(filepath.Dir(built.bin))
	}
	os.Exit(code)
}

// tsEnv is the server's environment in these tests: its own trust list,
// configuration and probe cache, and gopls where make tools installs it.
func tsEnv(t *testing.T) map[string]string {
	gopath, err := exec.Command("go", "env", "GOPATH").Output()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{
		"XDG_CONFIG_HOME": t.TempDir(),
		"XDG_STATE_HOME":  t.TempDir(),
		"XDG_CACHE_HOME":  t.TempDir(),
		"PATH":            filepath.Join(strings.TrimSpace(string(gopath)), "bin") + string(os.PathListSeparator) + os.Getenv("PATH"),
	}
}

// want is what a step must come back as through the TypeScript client.
type want struct {
	fails bool     // isError, with a structured error of kind (when kind is set)
	kind  string   // the structured error's kind ("" on success)
	text  []string // in the text content
}

// checkOutcome reports how o differs from w.
func checkOutcome(t *testing.T, i int, s tsStep, o tsOutcome, w want) {
	t.Helper()
	what := fmt.Sprintf("step %d: %s %s", i, s.Name, mustJSON(s.Arguments))
	if o.Error != nil {
		t.Errorf("%s: the TypeScript client threw instead of returning the answer: %s", what, o.Error.Message)
		return
	}
	if o.Result == nil {
		t.Errorf("%s: no result", what)
		return
	}
	var text strings.Builder
	for _, c := range o.Result.Content {
		if c.Type == "text" {
			text.WriteString(c.Text)
		}
	}
	if o.Result.IsError != w.fails {
		t.Errorf("%s: isError %t, want %t; text:\n%s", what, o.Result.IsError, w.fails, text.String())
	}
	for _, sub := range w.text {
		if !strings.Contains(text.String(), sub) {
			t.Errorf("%s: text does not say %q:\n%s", what, sub, text.String())
		}
	}
	var sc struct {
		Error *struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if len(o.Result.StructuredContent) > 0 {
		if err := json.Unmarshal(o.Result.StructuredContent, &sc); err != nil {
			t.Errorf("%s: structured content %s: %v", what, o.Result.StructuredContent, err)
		}
	} else if !w.fails {
		t.Errorf("%s: a success without structured content", what)
	}
	switch {
	case w.kind == "" && sc.Error != nil:
		t.Errorf("%s: structured error %+v, want none", what, *sc.Error)
	case w.kind != "" && sc.Error == nil:
		t.Errorf("%s: no structured error, want kind %s; structured content: %s", what, w.kind, o.Result.StructuredContent)
	case w.kind != "" && sc.Error.Kind != w.kind:
		t.Errorf("%s: error kind %s, want %s: %s", what, sc.Error.Kind, w.kind, sc.Error.Message)
	}
	// The whole message reaches a model that reads only the text.
	if sc.Error != nil && !strings.Contains(text.String(), sc.Error.Message) {
		t.Errorf("%s: the text lacks the error's message %q:\n%s", what, sc.Error.Message, text.String())
	}
}

// onPath reports whether an executable file named name is in one of the
// directories of path.
func onPath(path, name string) bool {
	for _, dir := range filepath.SplitList(path) {
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return true
		}
	}
	return false
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// tsCall is a call of the tool name with args and the answer it must
// get, as profile p offers it: a step whose tool p does not offer runs
// through dev_plan (acquiring the file or the paths it names), with the
// same answer; read_file, where p offers edit_file but not it, is
// edit_file's view, with the same answer; another file tool p does not
// offer answers that it is not one of the server's tools.
func tsCall(p Profile, name string, args map[string]any, w want) (tsStep, want) {
	if p.Offers(name) {
		return tsStep{Op: "call", Name: name, Arguments: args}, w
	}
	if name == "read_file" && p.Offers("edit_file") {
		view := map[string]any{"command": "view"}
		for k, v := range args {
			switch k {
			case "offset":
				view["view_range"] = []any{v, -1}
			default:
				view[k] = v
			}
		}
		return tsStep{Op: "call", Name: "edit_file", Arguments: view}, w
	}
	if _, ok := engine.LookupStep(engine.StepName(name)); !ok {
		return tsStep{Op: "call", Name: name, Arguments: args}, want{fails: true, kind: "unavailable", text: []string{name + " is not one of this server's tools"}}
	}
	plan := map[string]any{}
	op := map[string]any{"step": name, "args": args}
	switch path := args["path"].(type) {
	case string:
		plan["paths"] = []string{path}
	}
	if name == string(engine.StepCheck) || name == string(engine.StepTest) {
		// check's and test's paths are the plan's.
		plan["paths"], op["args"] = args["paths"], map[string]any{}
	}
	plan["ops"] = []any{op}
	return tsStep{Op: "call", Name: "dev_plan", Arguments: plan}, w
}

// TestTypeScriptClientGetsEveryAnswer drives a Go project's server with
// the TypeScript SDK's client, in every profile: the profile's tools are
// listed (with output schemas in the full profile only), a success of
// each kind of tool validates against its output schema, and every kind
// of error of edit_file, read_file, write_file, discard, probe, dev_plan
// and the step tools arrives as a tool error with its message, never as
// the client's -32602 schema error. A step the profile offers no tool
// for runs through dev_plan, with the same answer.
func TestTypeScriptClientGetsEveryAnswer(t *testing.T) {
	tsClient(t)
	for _, p := range profiles {
		t.Run(string(p), func(t *testing.T) { tsEveryAnswer(t, p) })
	}
}

func tsEveryAnswer(t *testing.T, p Profile) {
	env := tsEnv(t)
	if !onPath(env["PATH"], "gopls") {
		t.Skip("gopls is not installed (make tools installs it): the language tools would not be listed")
	}
	const mainGo = "package main\n\nfunc helper(n int) int { return n }\n\nfunc main() {\n\tprintln(helper(1))\n}\n"
	root := testtree.New(t, map[string]string{
		"go.mod":  "module example.com/m\n\ngo 1.22\n",
		"main.go": mainGo,
		"a.txt":   "one\ntwo\ntwo\n",
		"b.txt":   "first\nsecond\n",
		"c.txt":   "alpha\n",
		// Markdown has no checker: a check of the whole root notes it
		// in its coverage, which the output schema must admit.
		"README.md": "# m\n",
	})
	abs := func(name string) string { return filepath.Join(root, name) }
	type step struct {
		tsStep
		want *want // nil: not checked (a list, a disk write)
	}
	call := func(name string, args map[string]any, w want) step {
		s, w := tsCall(p, name, args, w)
		return step{s, &w}
	}
	ok := func(text ...string) want { return want{text: text} }
	fails := func(kind string, text ...string) want { return want{fails: true, kind: kind, text: text} }
	steps := []step{
		// The probe first, so the list that follows is the whole one
		// whatever a cold start's first list holds.
		call("probe", map[string]any{}, ok("tools:")),
		{tsStep: tsStep{Op: "list"}},

		// Successes validate.
		call("read_file", map[string]any{"file_path": abs("a.txt")}, ok("2\ttwo")),
		call("edit_file", map[string]any{"command": "view", "file_path": abs("c.txt")}, ok("alpha")),
		call("edit_file", map[string]any{"command": "str_replace", "file_path": abs("c.txt"), "old_str": "alpha", "new_str": "beta"}, ok("beta")),
		call("write_file", map[string]any{"file_path": abs("new.txt"), "content": "new\n"}, ok()),
		call("dev_plan", map[string]any{"paths": []string{"main.go"}, "ops": []any{map[string]any{"step": "read_lines", "args": map[string]any{"path": "main.go", "start": 1, "end": 1}}}}, ok("package main")),
		call("read_lines", map[string]any{"path": "main.go", "start": 3, "end": 3}, ok("func helper")),
		call("check", map[string]any{"paths": []string{"main.go"}}, ok("ok: true")),
		call("check", map[string]any{}, ok("ok: true", "coverage: 1 markdown file not checked (README.md): markdown lists no checker")),
		call("symbols", map[string]any{"path": "main.go"}, ok("helper")),
		call("search", map[string]any{"pattern": "two"}, ok("a.txt:2")),
		call("discard", map[string]any{}, ok()),

		// A check that finds an error answers with its findings (error
		// kind diagnostics, not a tool error).
		call("dev_plan", map[string]any{"paths": []string{"main.go"}, "ops": []any{
			map[string]any{"step": "edit", "args": map[string]any{"path": "main.go", "edits": []any{map[string]any{"find": "\tprintln(helper(1))", "replace": "\tprintln(helper(\"x\"))"}}}},
			map[string]any{"step": "check"},
		}}, want{kind: "diagnostics", text: []string{"main.go:6"}}),
		call("discard", map[string]any{}, ok("main.go")),

		// Bad arguments.
		call("edit_file", map[string]any{"command": "frobnicate", "file_path": abs("a.txt")}, fails("bad_argument", "frobnicate")),
		call("write_file", map[string]any{"file_path": "relative.txt", "content": "x"}, fails("bad_argument", "absolute")),
		call("read_file", map[string]any{}, fails("bad_argument", "file_path")),
		call("read_lines", map[string]any{"path": "a.txt", "start": "one"}, fails("bad_argument", "start")),
		call("dev_plan", map[string]any{"ops": []any{map[string]any{"step": "frobnicate"}}}, fails("bad_argument", "frobnicate")),
		call("discard", map[string]any{"paths": "a.txt"}, fails("bad_argument", "paths")),
		call("discard", map[string]any{"paths": []string{"missing.txt"}}, fails("bad_argument", "missing.txt")),

		// Not found.
		call("read_file", map[string]any{"file_path": abs("missing.txt")}, fails("not_found", "missing.txt")),
		call("edit_file", map[string]any{"command": "view", "file_path": abs("missing.txt")}, fails("not_found", "missing.txt")),
		call("read_lines", map[string]any{"path": "missing.txt", "start": 1}, fails("not_found", "missing.txt")),
		call("search", map[string]any{"pattern": "x", "paths": []string{"missing"}}, fails("not_found", "missing")),

		// Ambiguous: edit_file's old_str, and a plan's edit.
		call("edit_file", map[string]any{"command": "str_replace", "file_path": abs("a.txt"), "old_str": "two", "new_str": "2"}, fails("ambiguous", "occurrence")),
		call("edit", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "two", "replace": "2"}}}, fails("ambiguous", "two")),

		// Conflicts: a stale revision, a file changed on disk since it
		// was read, and a plan's write over a change made on disk.
		call("edit_file", map[string]any{"command": "str_replace", "file_path": abs("a.txt"), "old_str": "one", "new_str": "1", "revision": "sha256:000000000000"}, fails("conflict", "revision")),
		call("read_file", map[string]any{"file_path": abs("b.txt")}, ok("first")),
		{tsStep: tsStep{Op: "write", Path: abs("b.txt"), Content: "premier\nsecond\n"}},
		call("write_file", map[string]any{"file_path": abs("b.txt"), "content": "erst\nsecond\n"}, fails("conflict", "b.txt")),
		call("dev_plan", map[string]any{"paths": []string{"b.txt"}, "ops": []any{map[string]any{"step": "edit", "args": map[string]any{"path": "b.txt", "edits": []any{map[string]any{"find": "premier", "replace": "PREMIER"}}}}}}, ok("unwritten")),
		{tsStep: tsStep{Op: "write", Path: abs("b.txt"), Content: "first again\nsecond\n"}},
		call("write", map[string]any{}, fails("conflict", "b.txt")),
		call("discard", map[string]any{}, ok("b.txt")),

		// Bounds.
		call("read_lines", map[string]any{"path": "a.txt", "start": 99}, fails("bounds", "3 lines")),
		call("read_file", map[string]any{"file_path": abs("a.txt"), "offset": 99}, fails("bounds", "3 lines")),
		call("edit_file", map[string]any{"command": "insert", "file_path": abs("a.txt"), "insert_line": 99, "new_str": "x"}, fails("bounds", "99")),

		// A plan whose second step fails says which, and the first kept
		// its effect.
		call("dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{
			map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 1}},
			map[string]any{"step": "edit", "args": map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "no such line", "replace": "x"}}}},
		}}, fails("no_match", "step 2 (edit)", "no such line")),
	}
	// Every tool refuses an unknown argument, naming it. (test runs the
	// repository's code: this root is not trusted, so it is not offered.)
	for _, name := range offered(p) {
		steps = append(steps, call(name, map[string]any{"bogus_argument": 1}, fails("bad_argument", "bogus_argument")))
	}

	plain := make([]tsStep, len(steps))
	for i, s := range steps {
		plain[i] = s.tsStep
	}
	out := tsScenario(t, p, root, env, plain)
	for i, s := range steps {
		o := out[i]
		if s.Op == "list" {
			if o.Error != nil {
				t.Fatalf("tools/list: %s", o.Error.Message)
			}
			var names []string
			for _, tl := range o.Tools {
				names = append(names, tl.Name)
				if has := len(tl.OutputSchema) > 0; has != p.outputSchemas() {
					t.Errorf("%s declares an output schema: %v, want %v", tl.Name, has, p.outputSchemas())
				}
			}
			slices.Sort(names)
			want := offered(p)
			slices.Sort(want)
			if !slices.Equal(names, want) {
				t.Errorf("tools/list after the probe: %v, want %v", names, want)
			}
			continue
		}
		if s.Op == "write" {
			if o.Error != nil {
				t.Fatalf("step %d: writing %s: %s", i, s.Path, o.Error.Message)
			}
			continue
		}
		checkOutcome(t, i, s.tsStep, o, *s.want)
	}
}

// TestTypeScriptClientGetsUnavailableAndUntrusted drives a server whose
// configuration (the user's, here) has no checker and no language server,
// and formats JavaScript with a formatter that runs the repository's code
// in a root the user has not trusted (and Go with gofumpt, so format is a
// tool): a call to check or definition is refused as unavailable, and a
// format of a JavaScript file fails naming the untrusted driver, each with
// its message.
func TestTypeScriptClientGetsUnavailableAndUntrusted(t *testing.T) {
	tsClient(t)
	for _, p := range profiles {
		t.Run(string(p), func(t *testing.T) { tsUnavailableAndUntrusted(t, p) })
	}
}

func tsUnavailableAndUntrusted(t *testing.T, p Profile) {
	env := tsEnv(t)
	cfg := filepath.Join(env["XDG_CONFIG_HOME"], "devbroker")
	testtree.Write(t, cfg, map[string]string{"config.toml": `inherit_defaults = false
[languages.go]
file_types = ["*.go"]
format = ["gofumpt"]
lint = []
check = []

[drivers.gofumpt]
type = "gofumpt"

[languages.javascript]
file_types = ["*.js"]
format = ["prettier"]
lint = []
check = []

[drivers.prettier]
type = "external"
command = ["prettier", "--stdin-filepath", "{file}"]
version_command = ["prettier", "--version"]
input = "stdin"
output = "stdout"
runs_repository_code = true
`})
	root := testtree.New(t, map[string]string{"x.js": "const a = 1\n"})
	steps := []tsStep{{Op: "list"}}
	wants := []want{{}}
	for _, c := range []struct {
		name string
		args map[string]any
		want want
	}{
		{"check", map[string]any{}, want{fails: true, kind: "unavailable", text: []string{"check is unavailable"}}},
		{"definition", map[string]any{"path": "x.js", "symbol": "a"}, want{fails: true, kind: "unavailable", text: []string{"definition is unavailable"}}},
		{"format", map[string]any{"paths": []string{"x.js"}}, want{fails: true, kind: "unchecked", text: []string{"prettier is untrusted", "devbroker trust"}}},
		{"dev_plan", map[string]any{"paths": []string{"x.js"}, "ops": []any{map[string]any{"step": "format"}}}, want{fails: true, kind: "unchecked", text: []string{"prettier is untrusted", "devbroker trust"}}},
	} {
		s, w := tsCall(p, c.name, c.args, c.want)
		if c.name == "format" && !p.Offers("format") {
			s.Arguments = map[string]any{"paths": []string{"x.js"}, "ops": []any{map[string]any{"step": "format", "args": c.args}}}
		}
		steps, wants = append(steps, s), append(wants, w)
	}
	out := tsScenario(t, p, root, env, steps)
	if out[0].Error != nil {
		t.Fatalf("tools/list: %s", out[0].Error.Message)
	}
	for i := 1; i < len(steps); i++ {
		checkOutcome(t, i, steps[i], out[i], wants[i])
	}
}

// offered is the tools p offers in a root that is not trusted: all but
// test, whose drivers run the repository's code.
func offered(p Profile) []string {
	return slices.DeleteFunc(p.Tools(), func(n string) bool { return n == string(engine.StepTest) })
}
