package gotest

// This file turns a run's report into diagnostics: each failed test at
// the line its failure names (or where the test is declared), each
// compiler or vet finding of a package that did not build at its place.

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

var (
	// testLine is a testing.T message: "    x_test.go:12: got 1".
	testLine = regexp.MustCompile(`^(\s+)([^\s:]+\.go):(\d+): (.*)$`)
	// frameLine is a stack frame's place: "\t/abs/x_test.go:12 +0x1d".
	frameLine = regexp.MustCompile(`^\t(.+\.go):(\d+)(?: \+0x[0-9a-f]+)?$`)
	// buildLine is a compiler's or vet's finding: "./a.go:3:9: msg".
	buildLine = regexp.MustCompile(`^(.+\.go):(\d+)(?::(\d+))?: (.*)$`)
)

// maxMessageLines bounds the lines of a failure's message: its first line
// and the more indented lines that continue it (got and want).
const maxMessageLines = 12

// places turns the paths the go command prints into workspace paths.
type places struct {
	root string
	// copies maps the overlay's copies to the workspace paths they
	// stand for: the compiler names a changed file by its copy.
	copies map[string]string
	// fallback is where a failure that names no place of its own is
	// reported: the first file of the request in the module.
	fallback string
}

// at is the workspace path of p, printed relative to dir or absolute, if
// it is under the root or is a copy of a file that is.
func (pl places) at(dir, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	if w, ok := pl.copies[p]; ok {
		return w, true
	}
	return workspacePath(pl.root, pl.root, p)
}

// findings turns rep into diagnostics. dir is the go command's working
// directory; pkgs are the packages run, by import path; all is the
// workspace content (for where a test is declared).
func (d *Driver) findings(rep *report, pl places, dir string, pkgs map[string]*listed, all map[string]*text.Doc) []engine.Diagnostic {
	var out []engine.Diagnostic
	for _, f := range rep.failures {
		out = append(out, d.failed(f, pl, pkgs[f.pkg], all))
	}
	for ip, lines := range rep.build {
		if !rep.failedBuild[ip] {
			continue
		}
		for _, l := range lines {
			m := buildLine.FindStringSubmatch(l)
			if m == nil {
				continue
			}
			p, ok := pl.at(dir, m[1])
			if !ok {
				continue
			}
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			out = append(out, engine.Diagnostic{Path: p, Line: max(line, 1), Column: max(col, 1), Severity: engine.SeverityError, Source: d.name, Code: "build", Message: m[4]})
		}
	}
	return out
}

// failed is the diagnostic of one failure.
func (d *Driver) failed(f *failure, pl places, pkg *listed, all map[string]*text.Doc) engine.Diagnostic {
	name := f.test
	if name == "" {
		name = f.pkg
	}
	diag := engine.Diagnostic{Severity: engine.SeverityError, Source: d.name, Code: engine.CodeTestFailed}
	msg, at, line := failureText(f.lines, pl)
	dir := pl.root
	if pkg != nil {
		dir = pkg.Dir
	}
	if p, ok := pl.at(dir, at); ok {
		diag.Path, diag.Line = p, max(line, 1)
	} else if pkg != nil {
		diag.Path, diag.Line = declared(pl.root, pkg, f.test, all)
	}
	if diag.Path == "" {
		diag.Path, diag.Line = pl.fallback, 1
	}
	if msg == "" {
		msg = "failed"
	}
	diag.Column = 1
	diag.Message = fmt.Sprintf("%s: %s", name, msg)
	return diag
}

// failureText finds a failure's first message and its place in the
// test's output: a testing.T message, else a panic and the first frame
// in the workspace. The place is the file as printed (a base name for a
// testing.T message) and its line.
func failureText(lines []string, pl places) (msg, file string, line int) {
	for i, l := range lines {
		if m := testLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[3])
			parts := []string{m[4]}
			for _, more := range lines[i+1:] {
				if len(parts) == maxMessageLines || !strings.HasPrefix(more, m[1]+"    ") {
					break
				}
				parts = append(parts, strings.TrimSpace(more))
			}
			return strings.Join(parts, "\n"), m[2], n
		}
	}
	for i, l := range lines {
		if !strings.HasPrefix(l, "panic: ") {
			continue
		}
		msg = l
		for _, fl := range lines[i+1:] {
			if m := frameLine.FindStringSubmatch(fl); m != nil {
				if _, ok := pl.at(pl.root, m[1]); !ok {
					continue
				}
				n, _ := strconv.Atoi(m[2])
				return msg, m[1], n
			}
		}
		return msg, "", 0
	}
	for _, l := range lines {
		t := strings.TrimSpace(l)
		if t != "" && !strings.HasPrefix(t, "=== ") && !strings.HasPrefix(t, "--- ") && t != "FAIL" && !strings.HasPrefix(t, "FAIL\t") && !strings.HasPrefix(t, "exit status") {
			return t, "", 0
		}
	}
	return "", "", 0
}

// declared is where test is declared in pkg's test files (line 1 of the
// first test file when it is not found, or the package's first file).
func declared(root string, pkg *listed, test string, all map[string]*text.Doc) (string, int) {
	top, _, _ := strings.Cut(test, "/")
	files := append(append(append([]string(nil), pkg.TestGoFiles...), pkg.XTestGoFiles...), pkg.GoFiles...)
	first := ""
	for _, f := range files {
		p, ok := workspacePath(root, root, filepath.Join(pkg.Dir, f))
		if !ok {
			continue
		}
		if first == "" {
			first = p
		}
		if top == "" {
			break
		}
		var data []byte
		if doc, ok := all[p]; ok {
			data = doc.Bytes()
		} else if b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(p))); err == nil {
			data = b
		}
		if i := bytes.Index(data, []byte("func "+top+"(")); i >= 0 {
			return p, bytes.Count(data[:i], []byte("\n")) + 1
		}
	}
	return first, 1
}

// workspacePath turns a path the go command printed (relative to dir, or
// absolute) into a workspace path, if it is under root.
func workspacePath(root, dir, p string) (string, bool) {
	if p == "" {
		return "", false
	}
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	rel, err := filepath.Rel(root, p)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}
