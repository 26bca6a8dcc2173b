package main

// This file builds what is measured: devbroker from this checkout and
// gopls at the version this module pins (its tool dependency), which
// devbroker runs too (it is first on devbroker's PATH).

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// tools are the built binaries.
type tools struct {
	bin       string // their directory, first on every child's PATH
	devbroker string
	gopls     string
}

// env is the environment of every child: the built gopls first on PATH.
func (t *tools) env() []string {
	return append(os.Environ(), "PATH="+t.bin+string(os.PathListSeparator)+os.Getenv("PATH"))
}

// buildTools builds gopls and devbroker, unless binary names a devbroker.
func buildTools(ctx context.Context, tmp, binary string, res *results) (*tools, error) {
	t := &tools{bin: filepath.Join(tmp, "bin")}
	t.devbroker, t.gopls = filepath.Join(t.bin, "devbroker"), filepath.Join(t.bin, "gopls")
	version := firstLine(output(ctx, "", "git", "describe", "--always", "--dirty")) + " (this checkout)"
	if binary != "" {
		abs, err := filepath.Abs(binary)
		if err != nil {
			return nil, err
		}
		t.devbroker, version = abs, binary+" (given with -devbroker)"
	}
	logf("building the pinned gopls and devbroker")
	if err := goBuild(ctx, t.gopls, "golang.org/x/tools/gopls"); err != nil {
		return nil, fmt.Errorf("building gopls from this module's tool dependency: %w", err)
	}
	if binary == "" {
		if err := goBuild(ctx, t.devbroker, "./cmd/devbroker"); err != nil {
			return nil, fmt.Errorf("building devbroker (run navbench from the repository's root): %w", err)
		}
	}
	res.versions = append(res.versions,
		"devbroker: "+version,
		"gopls: "+firstLine(output(ctx, "", t.gopls, "version"))+" (built from go.mod's tool dependency; devbroker runs it too)",
		"go: "+firstLine(output(ctx, "", "go", "version")))
	return t, nil
}

// goBuild runs go build -o out pkg in the current directory.
func goBuild(ctx context.Context, out, pkg string) error {
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	if b, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", pkg, err, b)
	}
	return nil
}

// output is a command's standard output (and error), or why it failed.
func output(ctx context.Context, dir, name string, args ...string) string {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && len(out) == 0 {
		return "unknown (" + err.Error() + ")"
	}
	return strings.TrimSpace(string(out))
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i])
	}
	return s
}
