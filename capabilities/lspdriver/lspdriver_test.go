package lspdriver_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

func TestMain(m *testing.M) {
	lsptest.Main()
	// No driver runs under its default timeout: drivers.LoadWith reads
	// the test layer (configs/configtest), and driver gives one.
	os.Exit(configtest.Run(m))
}

func goplsPath(t *testing.T) string {
	t.Helper()
	wd, _ := os.Getwd()
	p, _, err := lsp.FindServer(context.Background(), "gopls", filepath.Join(wd, "../.."), true)
	if err != nil {
		t.Skipf("no gopls: %v", err)
	}
	return p
}

// goplsSettings are the settings the embedded defaults give gopls, which
// the tests run with.
func goplsSettings(t testing.TB) map[string]any {
	t.Helper()
	def, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	return def.Drivers["gopls"].Settings
}

// workspace is a module on disk (pkg a, pkg b importing a) and its
// workspace view.
func workspace(t *testing.T) (string, map[string]*text.Doc) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\n// F is one.\nfunc F() int { return 1 }\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n",
	}
	testtree.Write(t, root, files)
	all := map[string]*text.Doc{}
	for p, c := range files {
		all[p] = text.FromString(c)
	}
	return root, all
}

func driver(t *testing.T, cfg *configs.Driver, root string) capabilities.Driver {
	t.Helper()
	if cfg.Timeout.Duration == 0 {
		cfg = configtest.Driver(cfg)
	}
	d, err := lspdriver.Type.New("gopls", cfg, capabilities.Env{Root: root, Language: "go"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

func TestCheckDependentsAndUnicode(t *testing.T) {
	root, all := workspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	ctx := context.Background()
	// a's F renamed in the workspace only; b breaks. The name holds a
	// character outside the BMP so UTF-16 and characters differ.
	all["a/a.go"] = text.FromString("package a\n\nvar s = \"𝄞\"; var t int = s\n\nfunc G() int { return 1 }\n")
	res := d.Run(ctx, &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"a/a.go"}, All: all, Changed: []string{"a/a.go"}})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	var sawB, sawA bool
	for _, dg := range res.Diagnostics {
		t.Logf("%+v", dg)
		if dg.Path == "b/b.go" && strings.Contains(dg.Message, "undefined: a.F") && dg.Line == 5 && dg.Column == 11 {
			sawB = true
		}
		// var t int = s: "s" is at character 26, UTF-16 unit 27 (the clef is one
		// character, two UTF-16 units).
		if dg.Path == "a/a.go" && dg.Line == 3 && dg.Column == 26 && strings.Contains(dg.Message, "cannot use s") {
			sawA = true
		}
	}
	if !sawB || !sawA {
		t.Fatalf("want b's undefined: a.F at 5:11 and a's error at 3:26; got %+v", res.Diagnostics)
	}
	// Deleting b in the workspace hides it from gopls.
	delete(all, "b/b.go")
	res = d.Run(ctx, &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"a/a.go"}, All: all, Changed: []string{"a/a.go"}, Deleted: []string{"b/b.go"}})
	for _, dg := range res.Diagnostics {
		if dg.Path == "b/b.go" {
			t.Fatalf("deleted file reported: %+v", dg)
		}
	}
}

func TestLintFixAndFormat(t *testing.T) {
	root, all := workspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}}, root)
	ctx := context.Background()
	all["a/a.go"] = text.FromString("package a\n\nfunc F() int {\n\tx := 1\n\treturn 1\n}\n")
	req := &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"a/a.go"}, All: all, Changed: []string{"a/a.go"}}
	res := d.Run(ctx, req)
	if res.Status != engine.StatusOK || len(res.Diagnostics) == 0 {
		t.Fatalf("check: %s %s %+v", res.Status, res.Message, res.Diagnostics)
	}
	// An unused variable is a compiler error, not a lint finding; a
	// self-assignment is an analyzer's (assign), with a quick fix.
	all["a/a.go"] = text.FromString("package a\n\nfunc F() int {\n\tx := 1\n\tx = x\n\treturn x\n}\n")
	req = &capabilities.Request{Kind: engine.Lint, Root: root, Files: []string{"a/a.go"}, All: all, Changed: []string{"a/a.go"}, Fix: true}
	res = d.Run(ctx, req)
	if res.Status != engine.StatusOK {
		t.Fatalf("lint: %s %s", res.Status, res.Message)
	}
	t.Logf("lint diagnostics %+v edits %v", res.Diagnostics, res.Edits)
	if fixed := res.Edits["a/a.go"]; fixed == nil || strings.Contains(fixed.String(), "x = x") {
		t.Errorf("self-assignment not fixed: %v", res.Edits)
	}
	data, _ := os.ReadFile(filepath.Join(root, "a/a.go"))
	if strings.Contains(string(data), "x = x") {
		t.Error("the fix reached the disk")
	}
	// Format, CRLF kept out of it: LF file.
	all["a/a.go"] = text.FromString("package a\n\nfunc   F() int {\nreturn 1 }\n")
	res = d.Run(ctx, &capabilities.Request{Kind: engine.Format, Root: root, Files: []string{"a/a.go"}, All: all, Changed: []string{"a/a.go"}})
	if res.Status != engine.StatusOK {
		t.Fatalf("format: %s %s", res.Status, res.Message)
	}
	if got, want := res.Edits["a/a.go"].String(), "package a\n\nfunc F() int {\n\treturn 1\n}\n"; got != want {
		t.Errorf("format: got %q, want %q", got, want)
	}
}

func TestProbe(t *testing.T) {
	root, _ := workspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}}, root)
	p := d.Probe(context.Background())
	if p.State != capabilities.Found || !strings.Contains(p.Version, "v0.") {
		t.Fatalf("probe: %+v", p)
	}
	t.Logf("probe: %+v", p)
	missing := driver(t, &configs.Driver{Type: "lsp", Command: []string{"no-such-lsp-server"}, Install: "get it"}, root)
	if p := missing.Probe(context.Background()); p.State != capabilities.Missing || !strings.Contains(p.Reason, "get it") {
		t.Fatalf("probe of a missing server: %+v", p)
	}
	res := missing.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root})
	if res.Status != engine.StatusNotInstalled {
		t.Fatalf("run of a missing server: %+v", res)
	}
}

func TestFaultStatuses(t *testing.T) {
	for _, tc := range []struct {
		mode string
		want engine.Status
	}{
		{lsptest.Hang, engine.StatusTimeout},
		{lsptest.Crash, engine.StatusCrashed},
		{lsptest.Babble, engine.StatusCrashed},
		{lsptest.Garbage, engine.StatusOK},
		// A server that goes away mid-request crashed; it did not time
		// out (the driver's timeout is long: the answer must not wait
		// for it).
		{lsptest.ExitMidRequest, engine.StatusCrashed},
		{lsptest.CloseMidRequest, engine.StatusCrashed},
		{lsptest.HugeMessage, engine.StatusCrashed},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			root, all := workspace(t)
			all["notes.txt"] = text.FromString("abc\n")
			timeout := time.Second
			if tc.want == engine.StatusCrashed {
				timeout = 10 * time.Minute
			}
			d := driver(t, &configs.Driver{Type: "lsp", Command: []string{os.Args[0]}, Env: []string{lsptest.EnvVar + "=" + tc.mode}, Timeout: configs.Duration{Duration: timeout}}, root)
			start := time.Now()
			res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"notes.txt"}, All: all})
			if res.Status != tc.want {
				t.Fatalf("status %s (%s), want %s", res.Status, res.Message, tc.want)
			}
			if tc.mode == lsptest.HugeMessage && !strings.Contains(res.Message, "limit") {
				t.Errorf("huge message: the status message %q does not name the limit", res.Message)
			}
			if took := time.Since(start); took > 5*time.Second {
				t.Errorf("took %v", took)
			}
			if tc.want == engine.StatusOK && len(res.Diagnostics) != 2 {
				t.Errorf("garbage: %+v", res.Diagnostics)
			}
		})
	}
}

// A configured smoke file may sit in a directory ("src/smoke.ts"): the
// probe makes the directory in its temporary root.
func TestProbeSmokeInDirectory(t *testing.T) {
	root, _ := workspace(t)
	d := driver(t, &configs.Driver{
		Type: "lsp", Command: []string{os.Args[0]}, Env: []string{lsptest.EnvVar + "=" + lsptest.Push},
		Smoke: &configs.Smoke{File: "src/smoke.txt", Content: "hello\n"},
	}, root)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if p := d.Probe(ctx); p.State != capabilities.Found {
		t.Fatalf("probe: %+v", p)
	}
}

// Where gopls is missing, the probe's reason and a request's answer say
// how to install it once: the configured hint (the embedded defaults pin
// a version), else lsp.GoplsInstall; never both.
func TestGoplsMissingSaysHowToInstallOnce(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	t.Setenv("PATH", filepath.Dir(goBin)) // the go command, and no gopls
	t.Setenv("GOBIN", t.TempDir())
	root, _ := workspace(t)
	def, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	configured := def.Drivers["gopls"].Install
	for _, tc := range []struct {
		name, install, want string
	}{
		{"configured hint", configured, configured},
		{"no hint configured", "", lsp.GoplsInstall},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := driver(t, &configs.Driver{Type: "lsp", Command: []string{"gopls"}, Install: tc.install}, root)
			p := d.Probe(context.Background())
			if p.State != capabilities.Missing {
				t.Fatalf("probe: %+v", p)
			}
			res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"a/a.go"}})
			if res.Status != engine.StatusNotInstalled {
				t.Fatalf("run: %s %s", res.Status, res.Message)
			}
			for what, msg := range map[string]string{"the probe's reason": p.Reason, "the answer": res.Message} {
				if n := strings.Count(msg, "install: "); n != 1 || !strings.Contains(msg, "install: "+tc.want) {
					t.Errorf("%s says how to install %d times, want once, as %q:\n%s", what, n, tc.want, msg)
				}
			}
		})
	}
}
