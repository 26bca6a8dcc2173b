package main

// End-to-end, through the real binary, a real MCP client over stdio and
// real gopls: format, lint and check without paths work on the root, as
// the command line does, and an answer that looked at no file is not ok
// (docs/verdicts.md, "No paths: the whole root").

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// callersModule is a module whose packages b and c call package a's F,
// with a broken Go file under testdata, which a walk of the root passes
// over as go build ./... does.
var callersModule = map[string]string{
	"go.mod":              "module example.com/m\n\ngo 1.22\n",
	"a/a.go":              "package a\n\n// F is used by b and c.\nfunc F() int { return 1 }\n",
	"b/b.go":              "package b\n\nimport \"example.com/m/a\"\n\n// X uses F.\nvar X = a.F()\n",
	"c/c.go":              "package c\n\nimport \"example.com/m/a\"\n\n// Y uses F.\nfunc Y() int { return a.F() + 1 }\n",
	"testdata/broken.go":  "package broken\n\nfunc {\n",
	"notes/readme.txt":    "not code\n",
	"vendor/x/y/bad.go":   "package y\n\nvar V int = \"no\"\n",
	"c/testdata/other.go": "package other\n\nfunc (\n",
}

// noPathResult is the part of a DevResult these tests read.
type noPathResult struct {
	OK          bool     `json:"ok"`
	Written     []string `json:"written"`
	Diagnostics []struct {
		Path     string `json:"path"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
	} `json:"diagnostics"`
	Drivers []struct {
		Driver string `json:"driver"`
		Status string `json:"status"`
	} `json:"drivers"`
	Error *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

// errorPaths lists the files with an error diagnostic, sorted, each once.
func (r noPathResult) errorPaths() []string {
	var out []string
	for _, d := range r.Diagnostics {
		if d.Severity == "error" && !slices.Contains(out, d.Path) {
			out = append(out, d.Path)
		}
	}
	slices.Sort(out)
	return out
}

// After edit_file breaks the callers of a function on disk, check, lint
// and dev_plan [check] without paths are not ok and name the broken
// callers, as `devbroker check` does; before, they are ok having run a
// driver. The walk passes over testdata and vendor.
func TestNoPathCheckSeesWhatEditFileBroke(t *testing.T) {
	root := testtree.New(t, callersModule)
	if !probeAvailable(t, root)["driver:gopls"] {
		t.Fatal("gopls was not found by the probe: install it (make tools)")
	}
	cs := connectSettled(t, root, "--tools", "full")
	planCheck := map[string]any{"ops": []any{map[string]any{"step": "check"}}}

	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"check", map[string]any{}}, {"dev_plan", planCheck}} {
		res := callTool(t, cs, c.tool, c.args)
		dr := decodeStructured[noPathResult](t, res)
		if res.IsError || !dr.OK || len(dr.Drivers) == 0 {
			t.Fatalf("%s without paths on a clean module: isError %v, ok %v, drivers %v:\n%s", c.tool, res.IsError, dr.OK, dr.Drivers, resultText(res))
		}
	}

	a := filepath.Join(root, "a/a.go")
	if v := callTool(t, cs, "edit_file", map[string]any{"command": "view", "file_path": a}); v.IsError {
		t.Fatalf("view: %s", resultText(v))
	}
	if ed := callTool(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": a,
		"old_str": "func F() int { return 1 }", "new_str": "func F(x int) int { return x }"}); ed.IsError {
		t.Fatalf("str_replace: %s", resultText(ed))
	}

	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"check", map[string]any{}}, {"dev_plan", planCheck}, {"lint", map[string]any{}}} {
		res := callTool(t, cs, c.tool, c.args)
		dr := decodeStructured[noPathResult](t, res)
		if dr.OK || dr.Error == nil || dr.Error.Kind != "diagnostics" {
			t.Fatalf("%s without paths after edit_file broke two callers: ok %v, error %+v:\n%s", c.tool, dr.OK, dr.Error, resultText(res))
		}
		if got := dr.errorPaths(); !slices.Equal(got, []string{"b/b.go", "c/c.go"}) {
			t.Errorf("%s without paths: errors in %v, want in b/b.go and c/c.go:\n%s", c.tool, got, resultText(res))
		}
		if !strings.Contains(dr.Error.Message, "b/b.go") {
			t.Errorf("%s without paths: the error does not name b/b.go: %s", c.tool, dr.Error.Message)
		}
	}
}

// format without paths formats every file of the root a language covers
// and writes those it changed, as `devbroker format --write` does.
func TestNoPathFormatFormatsTheRoot(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.22\n",
		"a/a.go":             "package a\n\nfunc F() int { return 1 }\n",
		"testdata/ugly.go":   "package ugly\nfunc  U( ) {}\n",
		"vendor/x/y/ugly.go": "package y\nfunc  U( ) {}\n",
	})
	cs := connectSettled(t, root, "--tools", "full")
	// write_file puts an unformatted file on disk, outside any workspace.
	ugly := "package b\nfunc  G( )  int {\nreturn 2}\n"
	if w := callTool(t, cs, "write_file", map[string]any{"file_path": filepath.Join(root, "b/b.go"), "content": ugly}); w.IsError {
		t.Fatalf("write_file: %s", resultText(w))
	}
	res := callTool(t, cs, "format", map[string]any{})
	dr := decodeStructured[noPathResult](t, res)
	if res.IsError || !dr.OK || !slices.Equal(dr.Written, []string{"b/b.go"}) {
		t.Fatalf("format without paths: isError %v, ok %v, written %v, want [b/b.go]:\n%s", res.IsError, dr.OK, dr.Written, resultText(res))
	}
	if got, want := readFile(t, root, "b/b.go"), "package b\n\nfunc G() int {\n\treturn 2\n}\n"; got != want {
		t.Fatalf("b/b.go after format: %q, want %q", got, want)
	}
	for p, want := range map[string]string{"testdata/ugly.go": "package ugly\nfunc  U( ) {}\n", "vendor/x/y/ugly.go": "package y\nfunc  U( ) {}\n"} {
		if readFile(t, root, p) != want {
			t.Errorf("format without paths changed %s, which the walk passes over", p)
		}
	}
}

// A format, lint or check that looked at no file is not ok, and says why:
// on an empty root, and on a root whose only file no checker serves.
func TestNoFileLookedAtIsNotOK(t *testing.T) {
	planCheck := map[string]any{"ops": []any{map[string]any{"step": "check"}}}
	for _, c := range []struct {
		name  string
		files map[string]string
		tool  string
		args  map[string]any
		why   string
	}{
		{"empty root, check", nil, "check", map[string]any{}, "no file"},
		{"empty root, dev_plan check", nil, "dev_plan", planCheck, "no file"},
		{"empty root, lint", nil, "lint", map[string]any{}, "no file"},
		{"empty root, format", nil, "format", map[string]any{}, "no file"},
		{"only a shell script, check", map[string]string{"run.sh": "#!/bin/sh\necho hi\n"}, "check", map[string]any{}, "run.sh"},
		{"only a shell script, dev_plan check", map[string]string{"run.sh": "#!/bin/sh\necho hi\n"}, "dev_plan", planCheck, "run.sh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := c.files
			if files == nil {
				files = map[string]string{}
			}
			root := testtree.New(t, files)
			cs := connectStdio(t, root, "--tools", "full")
			res := callTool(t, cs, c.tool, c.args)
			dr := decodeStructured[noPathResult](t, res)
			if !res.IsError || dr.OK || dr.Error == nil || dr.Error.Kind != "unchecked" {
				t.Fatalf("%s looked at no file: isError %v, ok %v, error %+v, want kind unchecked:\n%s", c.tool, res.IsError, dr.OK, dr.Error, resultText(res))
			}
			if !strings.Contains(dr.Error.Message, "looked at no file") || !strings.Contains(dr.Error.Message, c.why) || !strings.Contains(dr.Error.Message, "paths") {
				t.Fatalf("the error does not say why and what to do (want %q and paths): %s", c.why, dr.Error.Message)
			}
		})
	}
}
