package lspdriver_test

// This file tests typescript-language-server, TypeScript's and
// JavaScript's default check, end to end from the embedded default
// configuration, on content that exists only in the workspace.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/configs/trust"
	"github.com/devbroker/devbroker/engine"
)

// trustAll trusts every root: typescript-language-server runs the
// project's own TypeScript, so it runs only in a trusted root.
type trustAll struct{}

func (trustAll) Check(string, string) trust.Verdict { return trust.Verdict{Trusted: true} }

// typescriptSet loads the embedded defaults for a fresh trusted root,
// builds and probes the Set, and returns it with the server's probe line.
func typescriptSet(t *testing.T) (*capabilities.Set, capabilities.DriverReport, string) {
	t.Helper()
	return defaultsSet(t, "typescript-language-server", "typescript-language-server", "npm install -g typescript typescript-language-server", drivers.Options{Trust: trustAll{}})
}

// checkTS checks files (workspace path to content) that exist only in
// the workspace and returns the answer, which must come from
// typescript-language-server with status ok.
func checkTS(t *testing.T, set *capabilities.Set, root string, files map[string]string) *engine.Response {
	t.Helper()
	return checkWith(t, set, "typescript-language-server", root, files)
}

// TestTypeScriptFromDefaults checks TypeScript and JavaScript files that
// exist only in the workspace: a type error in a .ts file and a syntax
// error in a .js file are reported at their lines, a .tsx file is parsed
// as TSX (sent as typescriptreact, not typescript), and fixed content is
// clean, with no sleep in between.
func TestTypeScriptFromDefaults(t *testing.T) {
	set, probe, root := typescriptSet(t)
	if probe.State != capabilities.Found || probe.Type != "lsp" || !strings.HasPrefix(probe.Version, "4.") {
		t.Fatalf("probe: %+v", probe)
	}
	t.Logf("probe: %s %s at %s in %v", probe.State, probe.Version, probe.Path, probe.Took)

	const brokenTS = "export function f(): number {\n  return \"not a number\";\n}\n"
	const fixedTS = "export function f(): number {\n  return 1;\n}\n"
	resp := checkTS(t, set, root, map[string]string{
		"src/m.ts":   brokenTS,
		"src/b.js":   "export const z = 1;\nconst o = {;\n",
		"src/v.tsx":  "export const V = () => <p>hi</p>;\n",
		"src/ok.jsx": "export const W = () => <p>hi</p>;\n",
	})
	var sawType, sawSyntax bool
	for _, d := range resp.Diagnostics {
		switch {
		case d.Path == "src/m.ts" && d.Line == 2 && d.Column == 3 && d.Code == "2322" && d.Severity == engine.SeverityError && strings.Contains(d.Message, "'number'"):
			sawType = true
		case d.Path == "src/b.js" && d.Line == 2 && d.Code == "1136" && d.Severity == engine.SeverityError:
			sawSyntax = true
		case d.Path == "src/v.tsx" && strings.Contains(d.Message, "jsx-runtime"):
			// A type error: no React types in this root. Not a syntax error.
		default:
			t.Errorf("unexpected diagnostic %+v", d)
		}
	}
	if !sawType || !sawSyntax {
		t.Fatalf("want the type error at src/m.ts:2:3 and the syntax error at src/b.js:2; got %+v", resp.Diagnostics)
	}

	if resp := checkTS(t, set, root, map[string]string{"src/m.ts": fixedTS}); len(resp.Diagnostics) != 0 {
		t.Fatalf("fixed content still has diagnostics: %+v", resp.Diagnostics)
	}
	// Broken again: the answer follows the content, not a cache.
	if resp := checkTS(t, set, root, map[string]string{"src/m.ts": brokenTS}); len(resp.Diagnostics) != 1 {
		t.Fatalf("broken again: want 1 diagnostic, got %+v", resp.Diagnostics)
	}
}

// TestTypeScriptWithoutTypeScript runs the real typescript-language-server
// from a copy with no typescript package beside it: the probe finds the
// server but its smoke test fails, and says why and how to install what
// is missing.
func TestTypeScriptWithoutTypeScript(t *testing.T) {
	bin, err := exec.LookPath("typescript-language-server")
	if err != nil {
		t.Skip("no typescript-language-server on PATH (npm install -g typescript typescript-language-server; make tools installs them)")
	}
	cli, err := filepath.EvalSymlinks(bin) // .../typescript-language-server/lib/cli.mjs
	if err != nil {
		t.Fatal(err)
	}
	pkg := filepath.Dir(filepath.Dir(cli))
	lone := filepath.Join(t.TempDir(), "node_modules", "typescript-language-server")
	for _, f := range []string{"package.json", "lib/cli.mjs"} {
		b, err := os.ReadFile(filepath.Join(pkg, f))
		if err != nil {
			t.Fatalf("not an npm install of typescript-language-server at %s: %v", pkg, err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(lone, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(lone, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	def, err := configtest.Default()
	if err != nil {
		t.Fatal(err)
	}
	cfg := *def.Drivers["typescript-language-server"]
	cfg.Command = []string{"node", filepath.Join(lone, "lib", "cli.mjs"), "--stdio"}
	d, err := lspdriver.Type.New("typescript-language-server", &cfg, capabilities.Env{Root: t.TempDir(), Language: "typescript"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	p := d.Probe(ctx)
	if p.State != capabilities.Failed || !strings.Contains(p.Reason, "Could not find a valid TypeScript installation") || !strings.Contains(p.Reason, "install: npm install -g typescript typescript-language-server") {
		t.Fatalf("probe: %+v", p)
	}
}
