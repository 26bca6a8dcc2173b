package main

// End-to-end, through the real binary, the Go SDK's MCP client over stdio
// and the real language servers (gopls, typescript-language-server,
// pyright): in a monorepo each file is answered by its nearest project,
// and the answer says which project and which servers.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// monorepoResult is what the tests read of an answer.
type monorepoResult struct {
	OK          bool                 `json:"ok"`
	Diagnostics []monorepoDiagnostic `json:"diagnostics"`
	Projects    []struct {
		Root    string   `json:"root"`
		Files   int      `json:"files"`
		Paths   []string `json:"paths"`
		Servers []struct {
			Driver string `json:"driver"`
			Root   string `json:"root"`
		} `json:"servers"`
	} `json:"projects"`
}

// servers is each project's servers, "driver@server-root", by project.
func (r monorepoResult) servers() map[string][]string {
	out := map[string][]string{}
	for _, p := range r.Projects {
		for _, s := range p.Servers {
			out[p.Root] = append(out[p.Root], s.Driver+"@"+s.Root)
		}
	}
	return out
}

// monorepoDiagnostic is a diagnostic of a monorepo answer.
type monorepoDiagnostic struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Source   string `json:"source"`
}

// errorAt reports whether the answer has an error in path whose message
// holds msg.
func (r monorepoResult) errorAt(path, msg string) bool {
	return slices.ContainsFunc(r.Diagnostics, func(d monorepoDiagnostic) bool {
		return d.Path == path && d.Severity == "error" && strings.Contains(d.Message, msg)
	})
}

// monorepo copies testdata/monorepo to a new root.
func monorepo(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("testdata", "monorepo"))); err != nil {
		t.Fatal(err)
	}
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	return root
}

// wantMonorepo checks an answer about the whole monorepo: each file's
// error, as only its own project's server with its own project's settings
// reports it, and each project named with the server that answered.
func wantMonorepo(t *testing.T, how string, r monorepoResult) {
	t.Helper()
	for _, e := range []struct{ path, msg, why string }{
		{"services/api/main.go", `cannot use "8080"`, "gopls loaded the module services/api"},
		{"web/src/format.ts", "Parameter 'label' implicitly has an 'any' type", "tsserver read web/tsconfig.json (strict)"},
		{"tools/gen/scale.py", `Type annotation is missing for parameter "budget"`, "pyright read tools/pyproject.toml (strict)"},
		{"scripts/release.py", `"Literal['1']" is not assignable`, "pyright checked the root's own script"},
	} {
		if !r.errorAt(e.path, e.msg) {
			t.Errorf("%s: no error %q in %s (%s)", how, e.msg, e.path, e.why)
		}
	}
	// The root's script is not strict: tools/pyproject.toml is tools' alone.
	if r.errorAt("scripts/release.py", "Type annotation is missing") {
		t.Errorf("%s: scripts/release.py was checked with tools' strict settings", how)
	}
	// Each project's own include narrows its files in the walk: the
	// errors of the files outside it are not the answer's.
	for _, p := range []string{"tools/scratch/try.py", "web/scripts/build.ts"} {
		if slices.ContainsFunc(r.Diagnostics, func(d monorepoDiagnostic) bool {
			return d.Path == p
		}) {
			t.Errorf("%s: %s, outside its project's include, was checked in the walk of the root", how, p)
		}
	}
	want := map[string][]string{
		".":            {"pyright@."},
		"services/api": {"gopls@."},
		"tools":        {"pyright@tools"},
		"web":          {"typescript-language-server@web"},
	}
	got := r.servers()
	for p, w := range want {
		if !slices.Equal(got[p], w) {
			t.Errorf("%s: project %s answered by %v, want %v", how, p, got[p], w)
		}
	}
	for _, p := range r.Projects {
		if _, ok := want[p.Root]; !ok {
			t.Errorf("%s: unexpected project %s: %+v", how, p.Root, p)
		}
		if p.Root == "web" && (p.Files != 2 || !slices.Equal(p.Paths, []string{"web/src/format.ts", "web/src/main.ts"})) {
			t.Errorf("%s: project web: %d files %v, want web/src/format.ts and web/src/main.ts", how, p.Files, p.Paths)
		}
	}
}

// A three-language monorepo: a Go module under services/api, a
// TypeScript project under web, a Python project under tools, and a
// script of the root. Every file is checked by its project's server
// (pyright and tsserver started in their project's directory, one gopls
// for the root), and every surface names each file's project and server.
func TestMonorepoRoutesEachFileToItsProject(t *testing.T) {
	root := monorepo(t)
	states := probeStates(t, root, "--trust")
	for _, dn := range []string{"gopls", "pyright", "typescript-language-server"} {
		if states[dn] != "found" {
			t.Fatalf("%s was not found by the probe (%q): install it (make tools)", dn, states[dn])
		}
	}

	code, stdout, stderr := cliRun(t, "check", "--trust", "--root", root)
	if code != 1 {
		t.Fatalf("devbroker check: exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	for _, want := range []string{
		"devbroker check: project .: 1 file (scripts/release.py): pyright (server in .)",
		"devbroker check: project services/api: 2 files (services/api/health.go, services/api/main.go): gopls (server in .)",
		"devbroker check: project tools: 1 file (tools/gen/scale.py): pyright (server in tools)",
		"devbroker check: project web: 2 files (web/src/format.ts, web/src/main.ts): typescript-language-server (server in web)",
		`devbroker check: coverage: 1 python file outside the project's own scope for pyright, passed over by the walk of the root (tools/scratch/try.py): tools/pyproject.toml [tool.pyright] include = ["gen"]`,
		`devbroker check: coverage: 1 typescript file outside the project's own scope for typescript-language-server, passed over by the walk of the root (web/scripts/build.ts): web/tsconfig.json include = ["src"]`,
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	code, stdout, stderr = cliRun(t, "check", "--trust", "--root", root, "--format", "json")
	var r monorepoResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 1 {
		t.Fatalf("check --format json: exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	wantMonorepo(t, "devbroker check --format json", r)

	// One file: its project alone, from its project's server.
	code, stdout, stderr = cliRun(t, "check", "--trust", "--root", root, "--format", "json", "tools/gen/scale.py")
	r = monorepoResult{}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 1 {
		t.Fatalf("check tools/gen/scale.py: exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	if got := r.servers(); len(got) != 1 || !slices.Equal(got["tools"], []string{"pyright@tools"}) {
		t.Errorf("check tools/gen/scale.py: projects %v, want tools alone, answered by pyright in tools", got)
	}

	// A file named is checked, whatever its project's include says.
	code, stdout, stderr = cliRun(t, "check", "--trust", "--root", root, "--format", "json", "tools/scratch/try.py", "web/scripts/build.ts")
	r = monorepoResult{}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 1 {
		t.Fatalf("check of files outside their project's include: exit %d, %v\n%s\n%s", code, err, stdout, stderr)
	}
	if !r.errorAt("tools/scratch/try.py", `"Literal['ten']" is not assignable`) || !r.errorAt("web/scripts/build.ts", "Type 'string' is not assignable to type 'number'") {
		t.Errorf("check of files outside their project's include: %+v", r.Diagnostics)
	}

	cs := connectStdio(t, root, "--trust", "--tools", "full")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"check", map[string]any{}},
		{"dev_plan", map[string]any{"ops": []any{map[string]any{"step": "check"}}}},
	} {
		res := callTool(t, cs, c.tool, c.args)
		wantMonorepo(t, "MCP "+c.tool, decodeStructured[monorepoResult](t, res))
		if txt := resultText(res); !strings.Contains(txt, "project web: 2 files (web/src/format.ts, web/src/main.ts): typescript-language-server (server in web)") {
			t.Errorf("MCP %s: the text does not name web's project and server:\n%s", c.tool, txt)
		}
	}
}

// A trusted root's projects run their own copy of the server (a Python
// project's .venv/bin); a root not trusted runs the one on PATH.
func TestMonorepoProjectToolsOnlyWhenTrusted(t *testing.T) {
	root := monorepo(t)
	if probeStates(t, root)["pyright"] != "found" {
		t.Fatal("pyright was not found by the probe: install it (make tools)")
	}
	global, err := exec.LookPath("pyright-langserver")
	if err != nil {
		t.Fatal(err)
	}
	// The project's own pyright-langserver: the real one, behind a script
	// that leaves a mark outside the root when it starts.
	mark := filepath.Join(t.TempDir(), "started")
	venv := filepath.Join(root, "tools", ".venv", "bin")
	if err := os.MkdirAll(venv, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho started >> '" + mark + "'\nexec '" + global + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(venv, "pyright-langserver"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}

	code, stdout, stderr := cliRun(t, "check", "--root", root, "tools/gen/scale.py")
	if code != 1 || !strings.Contains(stdout, "tools/gen/scale.py:4:11: error: Type annotation is missing") {
		t.Fatalf("untrusted check: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(mark); err == nil {
		t.Fatalf("a root not trusted ran the project's own tools/.venv/bin/pyright-langserver")
	}
	code, stdout, stderr = cliRun(t, "check", "--trust", "--root", root, "tools/gen/scale.py")
	if code != 1 || !strings.Contains(stdout, "tools/gen/scale.py:4:11: error: Type annotation is missing") {
		t.Fatalf("trusted check: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatalf("a trusted root did not run the project's own tools/.venv/bin/pyright-langserver: %v\nstderr:\n%s", err, stderr)
	}
}

// Without gopls (the project points its driver at a program that does not
// exist), Go is checked by go build and go vet, each run in the module of
// the files asked about: the root has no go.mod, so run there they found
// no package for services/api's files, looked at none and answered ok.
// A second module beside it is built on its own, and the answer names
// each module and the directory the commands ran in.
func TestMonorepoGoFallbackRunsInEachModule(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	root := monorepo(t)
	for p, content := range map[string]string{
		".devbroker.toml":              "[drivers.gopls]\ntype = \"lsp\"\ncommand = [\"devbroker-no-such-gopls\"]\n",
		"services/worker/go.mod":       "module example.com/monorepo/services/worker\n\ngo 1.22\n",
		"services/worker/worker.go":    "package worker\n\n// Retries is how often a job is tried.\nfunc Retries() int { return \"3\" }\n",
		"services/worker/worker_ok.go": "package worker\n",
	} {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	paths := []string{"services/api/health.go", "services/api/main.go", "services/worker/worker.go"}
	code, stdout, stderr := cliRun(t, append([]string{"check", "--trust", "--root", root, "--format", "json"}, paths...)...)
	var r monorepoResult
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 1 {
		t.Fatalf("check: exit %d, %v, want 1\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	for _, e := range []struct{ path, msg string }{
		{"services/api/main.go", `cannot use "8080"`},
		{"services/worker/worker.go", `cannot use "3"`},
	} {
		if !slices.ContainsFunc(r.Diagnostics, func(d monorepoDiagnostic) bool {
			return d.Path == e.path && d.Source == "go-build" && d.Severity == "error" && strings.Contains(d.Message, e.msg)
		}) {
			t.Errorf("no go-build error %q in %s: %+v", e.msg, e.path, r.Diagnostics)
		}
	}
	want := map[string][]string{
		"services/api":    {"go-build@services/api", "go-vet@services/api"},
		"services/worker": {"go-build@services/worker", "go-vet@services/worker"},
	}
	if got := r.servers(); len(got) != len(want) || !slices.Equal(got["services/api"], want["services/api"]) || !slices.Equal(got["services/worker"], want["services/worker"]) {
		t.Errorf("projects %v, want %v", got, want)
	}
	if want := "devbroker check: project services/worker: 1 file (services/worker/worker.go): go-build (run in services/worker), go-vet (run in services/worker)"; !strings.Contains(stderr, want) {
		code, _, stderr := cliRun(t, append([]string{"check", "--trust", "--root", root}, paths...)...)
		if code != 1 || !strings.Contains(stderr, want) {
			t.Errorf("check (text): exit %d, stderr does not say %q:\n%s", code, want, stderr)
		}
	}

	// An unwritten change in a module below the root is built as the
	// workspace holds it (the go command's -overlay, run in the module).
	plan := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(plan, []byte(`{"paths": ["services/api/health.go"], "ops": [
		{"step": "edit", "args": {"path": "services/api/health.go", "edits": [{"find": "\tw.WriteHeader(http.StatusOK)", "replace": "\tw.WriteHeader(\"ok\")"}]}},
		{"step": "check"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr = cliRun(t, "run", "--trust", "--root", root, plan)
	r = monorepoResult{}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 1 {
		t.Fatalf("run: exit %d, %v\nstdout:\n%s\nstderr:\n%s", code, err, stdout, stderr)
	}
	if !r.errorAt("services/api/health.go", `cannot use "ok"`) {
		t.Errorf("run: no error for the unwritten change in services/api/health.go: %+v", r.Diagnostics)
	}
	if got := r.servers(); !slices.Equal(got["services/api"], want["services/api"]) {
		t.Errorf("run: projects %v, want services/api answered by go-build and go-vet run in services/api", got)
	}
}

// A workspace symbol search asks the root's server and the server of
// every project of the workspace, starting those no request started, and
// says which project each file found belongs to and which server found
// it: a fresh process's first search, with no request before it, finds
// web's padLeft, which tsserver at the root (no project loaded) does not,
// and a function of tools, from tools' pyright, which the root's pyright
// (its include is scripts) never reads.
func TestMonorepoWorkspaceSymbolsAskEveryProjectServer(t *testing.T) {
	root := monorepo(t)
	for p, content := range map[string]string{
		"pyrightconfig.json":   `{"include": ["scripts"]}` + "\n",
		"tools/gen/ceiling.py": "def qqz_budget_ceiling() -> int:\n    return 3\n",
	} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(p)), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := connectStdio(t, root, "--trust", "--tools", "full")
	type symbolsResult struct {
		monorepoResult
		Answers []struct {
			Symbols []struct {
				Name string `json:"name"`
				Path string `json:"path"`
				Line int    `json:"line"`
			} `json:"symbols"`
		} `json:"answers"`
	}
	for _, c := range []struct {
		query, name, path, project, server string
	}{
		{"padLeft", "padLeft", "web/src/format.ts", "web", "typescript-language-server@web"},
		{"qqz_budget_ceiling", "qqz_budget_ceiling", "tools/gen/ceiling.py", "tools", "pyright@tools"},
	} {
		res := callTool(t, cs, "symbols", map[string]any{"query": c.query})
		r := decodeStructured[symbolsResult](t, res)
		n := 0
		for _, a := range r.Answers {
			for _, s := range a.Symbols {
				if s.Name == c.name && s.Path == c.path {
					n++
				}
			}
		}
		if n != 1 {
			t.Errorf("symbols %q: %s in %s listed %d times, want once:\n%s", c.query, c.name, c.path, n, resultText(res))
		}
		if got := r.servers(); !slices.Contains(got[c.project], c.server) {
			t.Errorf("symbols %q: projects %v, want %s found by %s:\n%s", c.query, got, c.project, c.server, resultText(res))
		}
	}
}

// A module the workspace adds (its go.mod and files not yet written, its
// directory not on disk) cannot be built in its directory with the
// workspace as an overlay: go build and go vet do not run there, and the
// answer says so (unchecked, naming the directory and what to do), not
// that the go command could not be found.
func TestMonorepoGoFallbackNewModuleNotOnDisk(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	root := testtree.New(t, map[string]string{
		".devbroker.toml": "[drivers.gopls]\ntype = \"lsp\"\ncommand = [\"devbroker-no-such-gopls\"]\n",
		"go.mod":          "module example.com/m\n\ngo 1.22\n",
		"m.go":            "package m\n",
	})
	plan := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(plan, []byte(`{"paths": [], "ops": [
		{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Add File: jobs/go.mod\n+module example.com/jobs\n+\n+go 1.22\n*** Add File: jobs/jobs.go\n+package jobs\n+\n+func N() int { return \"x\" }\n*** End Patch"}},
		{"step": "check"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, stdout, stderr := cliRun(t, "run", "--trust", "--root", root, plan)
	var r struct {
		OK      bool           `json:"ok"`
		Drivers []driverStatus `json:"drivers"`
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || code != 2 || r.OK {
		t.Fatalf("run: exit %d, ok %v, %v; want 2, not ok\nstdout:\n%s\nstderr:\n%s", code, r.OK, err, stdout, stderr)
	}
	for _, name := range []string{"go-build", "go-vet"} {
		i := slices.IndexFunc(r.Drivers, func(d driverStatus) bool {
			return d.Driver == name
		})
		if i < 0 {
			t.Errorf("no status of %s:\n%s", name, stdout)
			continue
		}
		d := r.Drivers[i]
		if d.Status != "unchecked" || !strings.Contains(d.Message, name+" in jobs did not run: the directory jobs is not on disk") || strings.Contains(d.Message, "fork/exec") {
			t.Errorf("%s: %s %q, want unchecked, saying jobs is not on disk", name, d.Status, d.Message)
		}
	}
}
