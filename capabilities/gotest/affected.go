package gotest

// This file finds the packages a change affects: the packages holding the
// changed or named files, and every package of the module whose code or
// tests import one whose code changed, through the go command's own
// graph (go list, with the workspace's content as an overlay).

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// listed is one package as go list -json describes it.
type listed struct {
	ImportPath   string
	Dir          string
	Name         string
	GoFiles      []string
	TestGoFiles  []string
	XTestGoFiles []string
	Imports      []string
	TestImports  []string
	XTestImports []string
	Error        *struct{ Err string }
}

// listFields are the fields asked of go list.
const listFields = "ImportPath,Dir,Name,GoFiles,TestGoFiles,XTestGoFiles,Imports,TestImports,XTestImports,Error"

// parseList reads go list -json's stream of packages.
func parseList(r io.Reader) ([]*listed, error) {
	dec := json.NewDecoder(r)
	var out []*listed
	for {
		p := new(listed)
		err := dec.Decode(p)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("reading go list's answer: %w", err)
		}
		if p.ImportPath == "" || p.Dir == "" {
			return nil, errors.New("reading go list's answer: a package without an import path or directory")
		}
		out = append(out, p)
	}
}

// affected returns the packages to test, sorted by import path: those
// whose directory is one of dirs (the packages of the files asked about),
// and those whose code or tests import, directly or through other
// packages' code, a package whose directory is one of changed (the
// packages of changed files). dirs and changed are absolute directories.
func affected(pkgs []*listed, dirs, changed []string) []*listed {
	byPath := map[string]*listed{}
	for _, p := range pkgs {
		byPath[p.ImportPath] = p
	}
	// moved: packages whose code (not only tests) may behave differently.
	moved := map[string]bool{}
	for _, p := range pkgs {
		if slices.Contains(changed, p.Dir) {
			moved[p.ImportPath] = true
		}
	}
	for grew := true; grew; {
		grew = false
		for _, p := range pkgs {
			if moved[p.ImportPath] {
				continue
			}
			for _, imp := range p.Imports {
				if moved[imp] {
					moved[p.ImportPath] = true
					grew = true
					break
				}
			}
		}
	}
	var out []*listed
	for _, p := range pkgs {
		hit := moved[p.ImportPath] || slices.Contains(dirs, p.Dir)
		for _, imp := range slices.Concat(p.TestImports, p.XTestImports) {
			hit = hit || moved[imp]
		}
		if hit {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *listed) int { return strings.Compare(a.ImportPath, b.ImportPath) })
	return out
}

// list runs go list over the module in dir.
func (d *Driver) list(ctx context.Context, dir, overlay string) ([]*listed, error) {
	var stdout, stderr bytes.Buffer
	o := d.run(ctx, dir, []string{"list", "-e", "-json=" + listFields, "-overlay", overlay, "./..."}, &stdout, &stderr)
	if o.err != nil {
		return nil, o.err
	}
	if o.code != 0 {
		return nil, fmt.Errorf("go list in %s failed: %s", filepath.Base(dir), tail(stderr.String()))
	}
	return parseList(&stdout)
}
