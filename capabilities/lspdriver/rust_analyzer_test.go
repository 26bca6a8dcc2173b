package lspdriver_test

// This file tests rust-analyzer, Rust's default check: end to end where
// a working rust-analyzer is installed, and the probe's answer for the
// rustup proxy that stands on PATH where the component is not.

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
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

const rustInstall = "rustup component add rust-analyzer rust-src"

// TestRustAnalyzerFromDefaults checks a crate's main.rs, clean on disk,
// broken in the workspace only: rust-analyzer reports the syntax error
// of the content it was sent, and the clean content is clean. It skips
// unless `rust-analyzer --version` works (rustup's proxy alone fails it).
func TestRustAnalyzerFromDefaults(t *testing.T) {
	if out, err := exec.Command("rust-analyzer", "--version").CombinedOutput(); err != nil {
		first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
		t.Skipf("no working rust-analyzer on PATH (%s; it needs cargo): %v %s", rustInstall, err, first)
	}
	const clean = "fn main() {\n    let x = 1;\n    println!(\"{x}\");\n}\n"
	const broken = "fn main() {\n    let x = ;\n    println!(\"{x}\");\n}\n"
	set, probe, root := defaultsSet(t, "rust-analyzer", "rust-analyzer", rustInstall, drivers.Options{Trust: trustAll{}})
	if probe.State != capabilities.Found || probe.Type != "lsp" {
		t.Fatalf("probe: %+v", probe)
	}
	t.Logf("probe: %s %s at %s in %v", probe.State, probe.Version, probe.Path, probe.Took)
	// rust-analyzer finds the crate on disk; the content it checks is
	// the workspace's.
	testtree.Write(t, root, map[string]string{
		"Cargo.toml":  "[package]\nname = \"m\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
		"src/main.rs": clean,
	})
	resp := checkWith(t, set, "rust-analyzer", root, map[string]string{"src/main.rs": broken})
	var saw bool
	for _, d := range resp.Diagnostics {
		if d.Path == "src/main.rs" && d.Line == 2 && d.Severity == engine.SeverityError {
			saw = true
		}
	}
	if !saw {
		t.Fatalf("want the syntax error at src/main.rs:2; got %+v", resp.Diagnostics)
	}
	if resp := checkWith(t, set, "rust-analyzer", root, map[string]string{"src/main.rs": clean}); len(resp.Diagnostics) != 0 {
		t.Fatalf("clean content: %+v", resp.Diagnostics)
	}
}

// TestRustAnalyzerRustupProxy puts on PATH a stand-in for rustup's
// rust-analyzer proxy where the component is not installed, which fails
// every run (--version included) with "Unknown binary" and, under
// RUST_BACKTRACE, a backtrace. The probe finds the command but reports it
// failed, with rustup's first line as the reason and the install hint,
// and never starts a server.
func TestRustAnalyzerRustupProxy(t *testing.T) {
	bin := t.TempDir()
	started := filepath.Join(t.TempDir(), "started")
	proxy := "#!/bin/sh\n" +
		"if [ \"$1\" != --version ]; then : > " + started + "; fi\n" +
		"echo \"error: Unknown binary 'rust-analyzer' in official toolchain 'stable-x86_64-unknown-linux-gnu'.\" >&2\n" +
		"printf '\\nStack backtrace:\\n   0: anyhow::kind::Adhoc::new\\n' >&2\n" +
		"exit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "rust-analyzer"), []byte(proxy), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	def, err := configtest.Default()
	if err != nil {
		t.Fatal(err)
	}
	d, err := lspdriver.Type.New("rust-analyzer", def.Drivers["rust-analyzer"], capabilities.Env{Root: t.TempDir(), Language: "rust"})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	p := d.Probe(ctx)
	t.Logf("probe: %+v", p)
	if p.State != capabilities.Failed || !strings.Contains(p.Reason, "Unknown binary 'rust-analyzer' in official toolchain") ||
		!strings.HasSuffix(p.Reason, "; install: "+def.Drivers["rust-analyzer"].Install) || strings.Contains(p.Reason, "backtrace") {
		t.Fatalf("probe: %+v", p)
	}
	if _, err := os.Stat(started); !os.IsNotExist(err) {
		t.Fatalf("the probe started the broken server: %v", err)
	}
}
