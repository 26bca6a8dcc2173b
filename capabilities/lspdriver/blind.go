package lspdriver

// This file defines the go command's check of the sources gopls never
// compiles (lsp.BlindSources: assembly, C++, Objective-C, Fortran, SWIG,
// linked objects): gopls answers clean about a package whose assembly
// does not assemble, started afresh or told. So a Go check of a root
// whose packages (or the packages of its replace and use directories)
// hold such sources also runs `go build` on those packages, once per
// state of their files and of the headers and module files their build may
// read elsewhere (lsp.Server.Blind's generation), and reports its
// errors in those sources. The build reads the disk: errors in Go files
// are left to gopls, which has the workspace's content. A failure it
// cannot place in such a source under the root (a directory outside the
// root, a link error) makes the answer unchecked, with what to run.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/lsp"
)

// blindAnswer is the go command's answer for one generation of a root's
// blind sources.
type blindAnswer struct {
	// srv is the server whose generation gen is: each lane of a pool
	// counts its own.
	srv     *lsp.Server
	gen     uint64
	diags   []engine.Diagnostic
	problem string
}

// blindLine is one error line of go build: file:line[:col]: message.
var blindLine = regexp.MustCompile(`^(\S[^:]*):(\d+)(?::(\d+))?: (.+)$`)

// blindBuild returns the go command's errors in the blind sources of
// srv's packages, and why the answer is incomplete ("" when it is not).
func (d *Driver) blindBuild(ctx context.Context, srv *lsp.Server, v *view) ([]engine.Diagnostic, string) {
	dirs, gen := srv.Blind()
	if len(dirs) == 0 {
		return nil, ""
	}
	d.mu.Lock()
	a, ok := d.blind[v.root]
	d.mu.Unlock()
	if ok && a.srv == srv && a.gen == gen {
		return a.diags, a.problem
	}
	var diags []engine.Diagnostic
	var problems []string
	groups := map[string][]string{} // module directory → its packages, as ./dir
	for _, dir := range dirs {
		mod := moduleDir(dir)
		rel, err := filepath.Rel(mod, dir)
		if err != nil {
			continue
		}
		pkg := "."
		if rel != "." {
			pkg = "./" + filepath.ToSlash(rel)
		}
		groups[mod] = append(groups[mod], pkg)
	}
	mods := make([]string, 0, len(groups))
	for m := range groups {
		mods = append(mods, m)
	}
	slices.Sort(mods)
	for _, mod := range mods {
		out, built := lsp.GoBuild(ctx, mod, d.cfg.Env, groups[mod])
		if ctx.Err() != nil {
			return diags, "go build of the packages with sources gopls does not compile did not finish: " + ctx.Err().Error()
		}
		if built {
			continue
		}
		placed := false
		for _, line := range strings.Split(out, "\n") {
			m := blindLine.FindStringSubmatch(strings.TrimSpace(line))
			if m == nil {
				continue
			}
			file := m[1]
			if !filepath.IsAbs(file) {
				file = filepath.Join(mod, file)
			}
			if strings.HasSuffix(file, ".go") {
				placed = true // gopls's to report, on the workspace's content
				continue
			}
			p := v.shown(file)
			if p == "" {
				continue
			}
			ln, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			diags = append(diags, engine.Diagnostic{Path: p, Line: ln, Column: max(col, 1), Severity: engine.SeverityError, Source: "go build", Message: m[4]})
			placed = true
		}
		if !placed {
			where := mod
			if v.rel(mod) == "" && mod != v.root {
				where += " (outside the root)"
			}
			why := ""
			if v.rel(mod) != "" || mod == v.root {
				why = ": " + shownLines(out, mod, v, 3)
			}
			problems = append(problems, "go build of "+strings.Join(groups[mod], " ")+" in "+where+" fails"+why+"; gopls does not compile their assembly, C++ or other non-Go sources: run go build there to see why")
		}
	}
	a = blindAnswer{srv: srv, gen: gen, diags: diags, problem: strings.Join(problems, "; ")}
	d.mu.Lock()
	d.blind[v.root] = a
	d.mu.Unlock()
	return a.diags, a.problem
}

// moduleDir is the directory of the go.mod nearest above dir (dir itself
// when there is none).
func moduleDir(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if fi, err := os.Stat(filepath.Join(d, "go.mod")); err == nil && !fi.IsDir() {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
}

// shownLines is up to n lines of the go command's output out (run in
// mod) that carry no text read outside the root, joined by "; ": its
// package headers ("# example.com/m/p"), its own lines about those
// packages ("example.com/m/p: ..."), and the lines it places in a file
// under the root. Any other line may quote a file outside the root (an
// assembler or a C compiler quotes what an #include brought in) and is
// only counted.
func shownLines(out, mod string, v *view, n int) string {
	var shown []string
	var pkgs []string
	left := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		line = strings.TrimSpace(line)
		ok := false
		if pkg, isHeader := strings.CutPrefix(line, "# "); isHeader && !strings.ContainsAny(pkg, " \t") {
			pkgs = append(pkgs, pkg)
			ok = true
		} else if m := blindLine.FindStringSubmatch(line); m != nil {
			file := m[1]
			if !filepath.IsAbs(file) {
				file = filepath.Join(mod, file)
			}
			ok = v.shown(file) != ""
		} else {
			for _, pkg := range pkgs {
				ok = ok || strings.HasPrefix(line, pkg+": ")
			}
		}
		switch {
		case line == "":
		case !ok:
			left++
		case len(shown) < n:
			shown = append(shown, line)
		}
	}
	if left > 0 {
		shown = append(shown, fmt.Sprintf("%d more lines not shown (they name no file under the root, and may quote one outside it)", left))
	}
	return strings.Join(shown, "; ")
}
