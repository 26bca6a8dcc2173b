package external

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/internal/gomod"
)

func writeExec(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}

// TestUseProjectTools checks the order node_modules/.bin, .venv/bin,
// venv/bin, then go.mod's tool directives (as go tool NAME), and that a
// path, a non-executable file and an undeclared tool are left alone.
func TestUseProjectTools(t *testing.T) {
	root := t.TempDir()
	writeExec(t, filepath.Join(root, "node_modules/.bin/prettier"))
	writeExec(t, filepath.Join(root, ".venv/bin/prettier"))
	writeExec(t, filepath.Join(root, ".venv/bin/ruff"))
	writeExec(t, filepath.Join(root, "venv/bin/yamllint"))
	if err := os.WriteFile(filepath.Join(root, "venv/bin/notexec"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	gomod := "module example.com/m\n\ngo 1.24\n\ntool (\n\tmvdan.cc/sh/v3/cmd/shfmt\n\texample.com/lint/v2\n)\n"
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte(gomod), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := &configs.Config{Drivers: map[string]*configs.Driver{}}
	for _, name := range []string{"prettier", "ruff", "yamllint", "notexec", "shfmt", "lint", "shellcheck", "/usr/bin/prettier"} {
		cfg.Drivers[name] = &configs.Driver{Type: "external", Command: []string{name, "-"}, VersionCommand: []string{name, "--version"}}
	}
	cfg.Drivers["server"] = &configs.Driver{Type: "lsp", Command: []string{"prettier", "--stdio"}}
	cfg.Drivers["gopls"] = &configs.Driver{Type: "lsp", Command: []string{"gopls"}}
	UseProjectTools(cfg, root)
	for name, want := range map[string]string{
		"prettier":          filepath.Join(root, "node_modules/.bin/prettier"),
		"ruff":              filepath.Join(root, ".venv/bin/ruff"),
		"yamllint":          filepath.Join(root, "venv/bin/yamllint"),
		"notexec":           "notexec",
		"shellcheck":        "shellcheck",
		"/usr/bin/prettier": "/usr/bin/prettier",
	} {
		d := cfg.Drivers[name]
		if d.Command[0] != want || d.VersionCommand[0] != want {
			t.Errorf("%s: command %q, version command %q, want %s", name, d.Command, d.VersionCommand, want)
		}
	}
	for _, name := range []string{"shfmt", "lint"} {
		if got := cfg.Drivers[name].Command; !slices.Equal(got, []string{"go", "tool", name, "-"}) {
			t.Errorf("%s: command %q, want go tool %s -", name, got, name)
		}
	}
	if got := cfg.Drivers["server"].Command; !slices.Equal(got, []string{filepath.Join(root, "node_modules/.bin/prettier"), "--stdio"}) {
		t.Errorf("a language server's command is %q, want the project's own copy", got)
	}
	if d := cfg.Drivers["gopls"]; d.Command[0] != "gopls" || !d.ProjectTools {
		t.Errorf("gopls: command %q, project tools %v; want gopls, found by lsp.FindServer with the module's tool allowed", d.Command, d.ProjectTools)
	}
}

// FuzzToolNames checks that any go.mod parses without a panic into tool
// names that go tool can take: non-empty, with no slash.
func FuzzToolNames(f *testing.F) {
	f.Add([]byte("module m\n\ntool mvdan.cc/sh/v3/cmd/shfmt\n"))
	f.Add([]byte("module m\ntool (\n\tv2\n\t/\n\texample.com/x/v3\n)\n"))
	f.Add([]byte("tool"))
	f.Fuzz(func(t *testing.T, data []byte) {
		f, err := gomod.Parse("go.mod", data)
		if err != nil {
			return
		}
		for name := range toolNames(f) {
			if name == "" || filepath.Base(name) != name {
				t.Fatalf("tool name %q", name)
			}
		}
	})
}
