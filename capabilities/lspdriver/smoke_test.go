package lspdriver_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// TestSmokeProjectFiles: the probe's smoke root holds smoke.files beside
// the smoke file. The server, a fake that exits at once unless its root
// holds a Cargo.toml (as rust-analyzer would find no crate), passes with
// the file and fails without it, with the server's reason.
func TestSmokeProjectFiles(t *testing.T) {
	script := filepath.Join(t.TempDir(), "needs-cargo")
	body := "#!/bin/sh\ntest -f Cargo.toml && test -f src/main.rs || { echo 'no Cargo.toml in the root' >&2; exit 3; }\nexec '" + os.Args[0] + "'\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	probe := func(files map[string]string) capabilities.Probe {
		t.Helper()
		cfg := &configs.Driver{Type: "lsp", Command: []string{script}, Env: []string{lsptest.EnvVar + "=" + lsptest.Push},
			Timeout: configs.Duration{Duration: 30 * time.Second},
			Smoke:   &configs.Smoke{File: "src/main.rs", Content: "fn main() {}\n", Files: files}}
		d, err := lspdriver.Type.New("fake-rust", cfg, capabilities.Env{Root: t.TempDir(), Language: "rust"})
		if err != nil {
			t.Fatal(err)
		}
		defer d.Close()
		ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
		defer cancel()
		return d.Probe(ctx)
	}
	if p := probe(map[string]string{"Cargo.toml": "[package]\nname = \"smoke\"\n"}); p.State != capabilities.Found {
		t.Fatalf("with Cargo.toml: %+v", p)
	}
	if p := probe(nil); p.State != capabilities.Failed || !strings.Contains(p.Reason, "no Cargo.toml in the root") {
		t.Fatalf("without Cargo.toml: %+v", p)
	}
}
