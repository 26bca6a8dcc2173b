package lspdriver_test

// This file tests clangd, C's and C++'s default check, end to end from
// the embedded default configuration: one clangd for the whole file (one
// root), on content that exists only in the workspace.

import (
	"github.com/devbroker/devbroker/capabilities/lspdriver"

	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// C and C++ sources: a type error each, and their clean versions.
const (
	brokenC   = "struct point { int x, y; };\n\nint norm(struct point p) {\n  int n = p;\n  return n;\n}\n"
	cleanC    = "struct point { int x, y; };\n\nint norm(struct point p) {\n  int n = p.x;\n  return n;\n}\n"
	brokenCpp = "#include <string>\n\nint size(const std::string &s) {\n  int n = s;\n  return n;\n}\n"
	cleanCpp  = "#include <string>\n\nint size(const std::string &s) {\n  return static_cast<int>(s.size());\n}\n"
	// A C++ header (a class) listed under c: clangd parses it as C++.
	headerH = "#pragma once\nclass Counter {\n public:\n  int n = 0;\n};\n"
)

// TestClangdFromDefaults checks C and C++ files that exist only in the
// workspace with the clangd of the default configuration: a type error
// in a .c and in a .cpp file is an error at its line, a C++ header listed
// under c is parsed as C++, clean content is ok with no diagnostics, and
// a plan's edit that breaks a file on disk is reported with the disk
// untouched.
func TestClangdFromDefaults(t *testing.T) {
	set, probe, root := defaultsSet(t, "clangd", "clangd", "apt-get install clangd", drivers.Options{})
	if probe.State != capabilities.Found || probe.Type != "lsp" || !strings.Contains(probe.Version, "clangd version") {
		t.Fatalf("probe: %+v", probe)
	}
	t.Logf("probe: %s %s at %s in %v", probe.State, probe.Version, probe.Path, probe.Took)

	t.Run("errors", func(t *testing.T) {
		resp := checkWith(t, set, "clangd", root, map[string]string{"src/p.c": brokenC, "src/s.cpp": brokenCpp, "include/counter.h": headerH})
		var sawC, sawCpp bool
		for _, d := range resp.Diagnostics {
			switch {
			case d.Path == "src/p.c" && d.Line == 4 && d.Column == 7 && d.Severity == engine.SeverityError && strings.Contains(d.Message, "incompatible type 'struct point'"):
				sawC = true
			case d.Path == "src/s.cpp" && d.Line == 4 && d.Severity == engine.SeverityError && strings.Contains(d.Message, "No viable conversion"):
				sawCpp = true
			default:
				t.Errorf("unexpected diagnostic %+v", d)
			}
		}
		if !sawC || !sawCpp {
			t.Fatalf("want the type errors at src/p.c:4:7 and src/s.cpp:4; got %+v", resp.Diagnostics)
		}
	})
	t.Run("clean", func(t *testing.T) {
		resp := checkWith(t, set, "clangd", root, map[string]string{"src/p.c": cleanC, "src/s.cpp": cleanCpp})
		if len(resp.Diagnostics) != 0 {
			t.Fatalf("clean content: %+v", resp.Diagnostics)
		}
	})
	t.Run("plan", func(t *testing.T) {
		testtree.Write(t, root, map[string]string{"lib/p.c": cleanC})
		eng, err := engine.New(root, engine.Options{Capabilities: set})
		if err != nil {
			t.Fatal(err)
		}
		if res := eng.Run(context.Background(), &engine.Plan{Paths: []string{"lib/p.c"}, Ops: []engine.Op{{Step: engine.StepCheck}}}); !res.OK || len(res.Diagnostics) != 0 {
			t.Fatalf("the clean file on disk: ok %v, %+v", res.OK, res.Diagnostics)
		}
		find, repl := "  int n = p.x;", "  int n = p;"
		res := eng.Run(context.Background(), &engine.Plan{Paths: []string{"lib/p.c"}, Ops: []engine.Op{
			{Step: engine.StepEdit, Args: &engine.EditArgs{Path: "lib/p.c", Edits: []engine.FindReplace{{Find: &find, Replace: &repl}}}},
			{Step: engine.StepCheck},
			{Step: engine.StepWrite},
		}})
		if res.OK || len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "lib/p.c" || res.Diagnostics[0].Line != 4 || len(res.Written) != 0 {
			t.Fatalf("plan: ok %v, written %v, %+v, error %+v", res.OK, res.Written, res.Diagnostics, res.Error)
		}
		if b, err := os.ReadFile(filepath.Join(root, "lib/p.c")); err != nil || string(b) != cleanC {
			t.Fatalf("the disk changed: %q, %v", b, err)
		}
	})
	// clangd's background index is off: nothing is written under the root.
	if _, err := os.Stat(filepath.Join(root, ".cache")); !os.IsNotExist(err) {
		t.Errorf("clangd wrote under the root: %v", err)
	}
}

// checkWith checks files (workspace path to content) that exist only in
// the workspace and returns the answer, which must come from driver
// alone with status ok.
func checkWith(t *testing.T, set *capabilities.Set, driver, root string, files map[string]string) *engine.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	req := engine.Request{Kind: engine.Check, Root: root, Files: map[string]*text.Doc{}}
	for p, c := range files {
		req.Files[p] = text.FromString(c)
		req.Changed = append(req.Changed, p)
	}
	start := time.Now()
	resp, err := set.Run(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("check took %v: %+v", time.Since(start), resp.Diagnostics)
	if len(resp.Drivers) != 1 || resp.Drivers[0].Driver != driver || resp.Drivers[0].Status != engine.StatusOK {
		t.Fatalf("drivers: %+v", resp.Drivers)
	}
	return resp
}
