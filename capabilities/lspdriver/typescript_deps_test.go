package lspdriver_test

// This file tests that a TypeScript check reports the files that depend
// on the changed ones, as gopls and pyright do: tsserver's fileReferences,
// followed transitively (lsp/tsdeps.go, dependents.go).

import (
	"github.com/devbroker/devbroker/capabilities/lspdriver"

	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// writeRoot writes files (workspace path to content) to the disk under
// root.
func writeRoot(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		abs := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// checkPaths checks only paths of a workspace whose changes (path to
// content) are held in memory, and returns the answer, which must come
// from typescript-language-server with status ok.
func checkPaths(t *testing.T, set *capabilities.Set, root string, changes map[string]string, paths ...string) *engine.Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	req := engine.Request{Kind: engine.Check, Root: root, Files: map[string]*text.Doc{}, Paths: paths}
	for p, c := range changes {
		req.Files[p] = text.FromString(c)
		req.Changed = append(req.Changed, p)
	}
	slices.Sort(req.Changed)
	resp, err := set.Run(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("check %v: %+v", paths, resp.Diagnostics)
	if len(resp.Drivers) != 1 || resp.Drivers[0].Driver != "typescript-language-server" || resp.Drivers[0].Status != engine.StatusOK {
		t.Fatalf("drivers: %+v", resp.Drivers)
	}
	return resp
}

// errorsIn lists "path:line code" of resp's errors, sorted.
func errorsIn(resp *engine.Response) []string {
	var out []string
	for _, d := range resp.Diagnostics {
		if d.Severity == engine.SeverityError {
			out = append(out, d.Path+":"+strconv.Itoa(d.Line)+" "+d.Code)
		}
	}
	slices.Sort(out)
	return out
}

// notesIn lists "first path: message" of resp's coverage notes, and an
// info diagnostic as "path: info: message" (there should be none: a note
// is not a finding).
func notesIn(resp *engine.Response) []string {
	var out []string
	for _, n := range resp.Coverage {
		first := ""
		if len(n.Paths) > 0 {
			first = n.Paths[0]
		}
		out = append(out, first+": "+n.Message)
	}
	for _, d := range resp.Diagnostics {
		if d.Severity == engine.SeverityInfo {
			out = append(out, d.Path+": info: "+d.Message)
		}
	}
	return out
}

const (
	tsconfig = "{\"compilerOptions\": {\"strict\": true, \"noEmit\": true, \"allowJs\": true, \"checkJs\": true}, \"include\": [\"src\"]}\n"
	aTS      = "export function f(x: number): number {\n  return x;\n}\n"
	// aTSArg changes f's parameter: b.ts's call breaks.
	aTSArg = "export function f(x: string): number {\n  return x.length;\n}\n"
	// aTSResult changes f's result: b.ts still type-checks, but the type
	// of its y changes, and c.ts, which imports b.ts, breaks.
	aTSResult = "export function f(x: number): string {\n  return String(x);\n}\n"
	aTSClean  = "export function f(x: number): number {\n  return x + 1;\n}\n"
	bTS       = "import { f } from \"./a\";\n\nexport const y = f(1);\n"
	cTS       = "import { y } from \"./b\";\n\nexport const z: number = y;\n"
)

// tsRoot returns a Set and a root holding files on disk.
func tsRoot(t *testing.T, files map[string]string) (*capabilities.Set, string) {
	t.Helper()
	set, _, root := typescriptSet(t)
	writeRoot(t, root, files)
	return set, root
}

// TestTypeScriptDependents changes a.ts's exported function in the
// workspace and checks a.ts alone: b.ts, on disk, calls it with the old
// argument and no longer type-checks, which the check reports. A clean
// change of a.ts reports nothing at all.
func TestTypeScriptDependents(t *testing.T) {
	set, root := tsRoot(t, map[string]string{"tsconfig.json": tsconfig, "src/a.ts": aTS, "src/b.ts": bTS})
	resp := checkPaths(t, set, root, map[string]string{"src/a.ts": aTSArg}, "src/a.ts")
	if got := errorsIn(resp); !slices.Equal(got, []string{"src/b.ts:3 2345"}) || len(resp.Diagnostics) != 1 {
		t.Fatalf("want the dependent's error at src/b.ts:3 alone; got %+v", resp.Diagnostics)
	}
	if d := resp.Diagnostics[0]; d.Column != 20 || !strings.Contains(d.Message, "'string'") {
		t.Errorf("dependent's error: %+v", d)
	}
	if resp := checkPaths(t, set, root, map[string]string{"src/a.ts": aTSClean}, "src/a.ts"); len(resp.Diagnostics) != 0 {
		t.Fatalf("a clean change: %+v", resp.Diagnostics)
	}
}

// TestTypeScriptDependentsTransitive changes a.ts's result type: b.ts
// still type-checks, c.ts (which imports b.ts) does not, and is reported.
// A JavaScript file that imports a.ts (checkJs) is reported too.
func TestTypeScriptDependentsTransitive(t *testing.T) {
	set, root := tsRoot(t, map[string]string{
		"tsconfig.json": tsconfig, "src/a.ts": aTS, "src/b.ts": bTS, "src/c.ts": cTS,
		"src/j.js": "import { f } from \"./a\";\n\n/** @type {number} */\nexport const n = f(2);\n",
	})
	resp := checkPaths(t, set, root, map[string]string{"src/a.ts": aTSResult}, "src/a.ts")
	if got := errorsIn(resp); !slices.Equal(got, []string{"src/c.ts:3 2322", "src/j.js:4 2322"}) {
		t.Fatalf("want the errors of src/c.ts and src/j.js; got %+v", resp.Diagnostics)
	}
}

// TestTypeScriptDependentsInWorkspace: a dependent that exists only in
// the workspace (b.js, added by the plan, of another extension than the
// file asked about) is checked. tsserver puts a file that is not on disk
// in an inferred project, whatever tsconfig.json includes, but then only
// workspace files can import it, and those are all checked: no note.
func TestTypeScriptDependentsInWorkspace(t *testing.T) {
	set, root := tsRoot(t, map[string]string{"tsconfig.json": tsconfig, "src/a.ts": aTS})
	resp := checkPaths(t, set, root, map[string]string{"src/a.ts": aTSArg, "src/b.js": "// @ts-check\n" + bTS}, "src/a.ts")
	if got := errorsIn(resp); !slices.Equal(got, []string{"src/b.js:4 2345"}) {
		t.Fatalf("want the error of the workspace's src/b.js; got %+v", resp.Diagnostics)
	}
	if notes := notesIn(resp); len(notes) != 0 {
		t.Fatalf("want no note: only workspace files can import src/b.js, and those are all checked; got %+v", resp.Diagnostics)
	}
}

// TestTypeScriptDependentsInferred: without a tsconfig.json, tsserver
// knows no file on disk that imports a.ts; the check says so in a coverage
// note rather than claiming that nothing broke.
func TestTypeScriptDependentsInferred(t *testing.T) {
	set, root := tsRoot(t, map[string]string{"src/a.ts": aTS, "src/b.ts": bTS})
	resp := checkPaths(t, set, root, map[string]string{"src/a.ts": aTSArg}, "src/a.ts")
	notes := notesIn(resp)
	if len(errorsIn(resp)) != 0 || len(notes) != 1 || !strings.HasPrefix(notes[0], "src/a.ts: typescript-language-server: the files that import src/a.ts may not all have been checked: no tsconfig.json") ||
		resp.Coverage[0].Kind != engine.NoteDependents {
		t.Fatalf("want one coverage note on src/a.ts; got %q", notes)
	}
}

// TestTypeScriptDependentsThroughCheckedFile: an importer that the
// session holds and the check asks about too (b.ts, unchanged) is
// followed like any other: c.ts, which imports b.ts, breaks through it
// and is reported, as when b.ts is not held.
func TestTypeScriptDependentsThroughCheckedFile(t *testing.T) {
	set, root := tsRoot(t, map[string]string{"tsconfig.json": tsconfig, "src/a.ts": aTS, "src/b.ts": bTS, "src/c.ts": cTS})
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	req := engine.Request{Kind: engine.Check, Root: root, Paths: []string{"src/a.ts", "src/b.ts"}, Changed: []string{"src/a.ts"},
		Files: map[string]*text.Doc{"src/a.ts": text.FromString(aTSResult), "src/b.ts": text.FromString(bTS)}}
	resp, err := set.Run(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := errorsIn(resp); !slices.Equal(got, []string{"src/c.ts:3 2322"}) {
		t.Fatalf("want the error of src/c.ts; got %+v", resp.Diagnostics)
	}
}

// TestTypeScriptDependentsOnDisk: a check of a file the session did not
// change (it changed on disk, as for the command line's check) reports
// its importers' errors too, as gopls reports a package's dependents.
func TestTypeScriptDependentsOnDisk(t *testing.T) {
	set, root := tsRoot(t, map[string]string{"tsconfig.json": tsconfig, "src/a.ts": aTSArg, "src/b.ts": bTS})
	ctx, cancel := context.WithTimeout(context.Background(), lspdriver.TestWait)
	defer cancel()
	req := engine.Request{Kind: engine.Check, Root: root, Paths: []string{"src/a.ts"},
		Files: map[string]*text.Doc{"src/a.ts": text.FromString(aTSArg)}}
	resp, err := set.Run(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if got := errorsIn(resp); !slices.Equal(got, []string{"src/b.ts:3 2345"}) {
		t.Fatalf("want the importer's error at src/b.ts:3; got %+v", resp.Diagnostics)
	}
}
