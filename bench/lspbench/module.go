package main

// This file defines the measured module: a writable copy of a real module
// in a temporary directory, the file edited, and the edit.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/devbroker/devbroker/lsp"

	"github.com/devbroker/devbroker/bench/internal/modcache"
)

// The default module: staticcheck's, a medium module (about 600 files,
// 240 packages) that is in the module cache because devbroker links it in.
const (
	defaultModule  = "honnef.co/go/tools"
	defaultVersion = "v0.8.1"
	// defaultFile is in lintcmd, a mid-size package (9 files, 2,300
	// lines) that cmd/staticcheck imports.
	defaultFile = "lintcmd/lint.go"
)

// errorLine is the one line each edit appends or removes: a type error.
const errorLine = `var _ int = "devbroker-bench"`

// bench is one run's module copy.
type bench struct {
	tmp, root    string // the temporary directory, and the module in it
	label        string // what was copied, for the results
	file         string // the edited file, relative to the module
	abs          string // the edited file's absolute path
	clean        string // its content on disk
	gopls        string // the gopls binary every strategy runs
	goplsVersion string
	opts         options
	// want holds devbroker's settled keys for the file, clean (false)
	// and broken (true): the answers every strategy must give.
	want map[bool][]string
}

// content is the edited file's content at iteration i: even iterations
// add the type error, odd ones remove it.
func (b *bench) content(i int) (string, bool) {
	if i%2 == 0 {
		return b.broken(), true
	}
	return b.clean, false
}

func (b *bench) broken() string {
	return strings.TrimRight(b.clean, "\n") + "\n\n" + errorLine + "\n"
}

// prepare copies the module, checks the file, and loads the module once
// (go list -deps), so that downloads do not count as anyone's start.
func prepare(ctx context.Context, o options) (*bench, error) {
	src, label := o.module, o.module
	if src == "" {
		var err error
		if src, err = modcache.Download(ctx, defaultModule+"@"+defaultVersion); err != nil {
			return nil, err
		}
		label = defaultModule + "@" + defaultVersion
		if o.file == "" {
			o.file = defaultFile
		}
	}
	if o.file == "" {
		return nil, fmt.Errorf("-file is required with -module: name a .go file of a mid-size package")
	}
	tmp, err := os.MkdirTemp("", "lspbench-")
	if err != nil {
		return nil, err
	}
	if tmp, err = filepath.EvalSymlinks(tmp); err != nil {
		return nil, err
	}
	b := &bench{tmp: tmp, root: filepath.Join(tmp, "module"), label: label, file: o.file, opts: o}
	logf("copying %s to %s", src, b.root)
	if err := modcache.Copy(src, b.root); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	b.abs = filepath.Join(b.root, filepath.FromSlash(o.file))
	data, err := os.ReadFile(b.abs)
	if err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	b.clean = string(data)
	logf("loading the module once (go list -deps ./...)")
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "./...")
	cmd.Dir = b.root
	if out, err := cmd.CombinedOutput(); err != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("go list in the copy: %w\n%s", err, out)
	}
	if b.gopls, _, err = lsp.FindServer(ctx, "gopls", b.root, true); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	b.goplsVersion, _ = lsp.Version(ctx, []string{b.gopls, "version"})
	return b, nil
}
