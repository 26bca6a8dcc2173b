package main

// This file builds what is measured: devbroker from this checkout and
// gopls at the version this module pins (its tool dependency), which
// devbroker runs too (it is first on devbroker's PATH).

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/devbroker/devbroker/bench/internal/gobuild"
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
	version := gobuild.FirstLine(gobuild.Output(ctx, "", "git", "describe", "--always", "--dirty")) + " (this checkout)"
	if binary != "" {
		abs, err := filepath.Abs(binary)
		if err != nil {
			return nil, err
		}
		t.devbroker, version = abs, binary+" (given with -devbroker)"
	}
	logf("building the pinned gopls and devbroker")
	if err := gobuild.Build(ctx, "", t.gopls, "golang.org/x/tools/gopls"); err != nil {
		return nil, fmt.Errorf("building gopls from this module's tool dependency: %w", err)
	}
	if binary == "" {
		if err := gobuild.Build(ctx, "", t.devbroker, "./cmd/devbroker"); err != nil {
			return nil, fmt.Errorf("building devbroker (run navbench from the repository's root): %w", err)
		}
	}
	res.versions = append(res.versions,
		"devbroker: "+version,
		"gopls: "+gobuild.FirstLine(gobuild.Output(ctx, "", t.gopls, "version"))+" (built from go.mod's tool dependency; devbroker runs it too)",
		"go: "+gobuild.FirstLine(gobuild.Output(ctx, "", "go", "version")))
	return t, nil
}
