package lsp_test

import (
	"context"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp"
)

// TestModuleToolGoplsNeedsTrust: a gopls that the root's go.mod declares
// as a tool is a program the repository chooses (here a replace points it
// at the repository's own code), so FindServer uses it only when the
// caller allows it (a trusted root), and otherwise says how to allow it.
func TestModuleToolGoplsNeedsTrust(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command")
	}
	root := testtree.New(t, map[string]string{
		"go.mod":              "module example.com/m\n\ngo 1.24\n\nrequire example.com/gopls v0.0.0\n\nreplace example.com/gopls => ./tools/gopls\n\ntool example.com/gopls\n",
		"tools/gopls/go.mod":  "module example.com/gopls\n\ngo 1.24\n",
		"tools/gopls/main.go": "package main\n\nfunc main() {}\n",
	})
	// No gopls on PATH or in GOBIN: only the go command.
	t.Setenv("PATH", filepath.Dir(goBin))
	t.Setenv("GOBIN", t.TempDir())
	t.Setenv("GOTOOLCHAIN", "local")
	t.Setenv("GOFLAGS", "")

	_, _, err = lsp.FindServer(context.Background(), "gopls", root, false)
	if !errors.Is(err, lsp.ErrNotInstalled) {
		t.Fatalf("untrusted root: got %v, want ErrNotInstalled", err)
	}
	if !strings.Contains(err.Error(), "devbroker trust") {
		t.Errorf("the error does not say how to use the module's gopls: %v", err)
	}

	p, how, err := lsp.FindServer(context.Background(), "gopls", root, true)
	if err != nil {
		t.Fatalf("trusted root: %v", err)
	}
	if !strings.Contains(how, "go tool") || filepath.Base(p) != "gopls" {
		t.Errorf("trusted root: got %s (%s), want the module's tool", p, how)
	}
}
