package main

// Tests of introduced and pre-existing findings through the real binary's
// MCP server and the Go SDK's client, in a Go, a Python and a TypeScript
// project (docs/verdicts.md, "Introduced or pre-existing").

import (
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// introducedProject is a project with an error that was there before the
// session, and an edit of lib that breaks a caller in main.
type introducedProject struct {
	name   string
	server string // the language server the test needs
	files  map[string]string
	// lib's old and new text: the edit that breaks main's call.
	lib, libOld, libNew string
	// main, and a line of it above the old error: the moved-lines edit
	// inserts lines before it.
	main, mainLine string
	// what the introduced error and the old error say.
	broken, old string
}

var introducedProjects = []introducedProject{
	{
		name: "go", server: "gopls",
		files: map[string]string{
			"go.mod":   "module example.com/m\n\ngo 1.22\n",
			"a/a.go":   "package a\n\nfunc F() int { return 1 }\n",
			"b/b.go":   "package b\n\nimport \"example.com/m/a\"\n\nfunc G() int { return a.F() }\n\nfunc H() int { return undefinedThing }\n",
			"c/c.go":   "package c\n\nfunc OK() int { return 1 }\n",
			"notes.md": "notes\n",
		},
		lib: "a/a.go", libOld: "func F() int { return 1 }", libNew: "func F(x int) int { return x }",
		main: "b/b.go", mainLine: "func H() int { return undefinedThing }",
		broken: "not enough arguments in call to a.F", old: "undefined: undefinedThing",
	},
	{
		name: "python", server: "pyright-langserver",
		files: map[string]string{
			"lib.py":  "def f() -> int:\n    return 1\n",
			"main.py": "from lib import f\n\n\nn = f()\nprint(undefined_name)\n",
		},
		lib: "lib.py", libOld: "def f() -> int:", libNew: "def f(x: int) -> int:",
		main: "main.py", mainLine: "print(undefined_name)",
		broken: `Argument missing for parameter "x"`, old: `"undefined_name" is not defined`,
	},
	{
		name: "typescript", server: "typescript-language-server",
		files: map[string]string{
			"tsconfig.json": `{"compilerOptions": {"strict": true, "noEmit": true}, "include": ["src"]}` + "\n",
			"src/lib.ts":    "export function f(): number {\n  return 1;\n}\n",
			"src/main.ts":   "import { f } from \"./lib\";\n\nexport const n: number = f();\nexport const s: string = 1;\n",
		},
		lib: "src/lib.ts", libOld: "export function f(): number {", libNew: "export function f(x: number): number {",
		main: "src/main.ts", mainLine: "export const s: string = 1;",
		broken: "Expected 1 arguments, but got 0.", old: "Type 'number' is not assignable to type 'string'.",
	},
}

// markedResult is the part of a DevResult these tests read.
type markedResult struct {
	OK          bool         `json:"ok"`
	Written     []string     `json:"written"`
	Diagnostics []markedDiag `json:"diagnostics"`
	PreExisting []markedDiag `json:"pre_existing"`
	Baseline    *struct {
		Introduced  int `json:"introduced"`
		PreExisting int `json:"pre_existing"`
	} `json:"baseline"`
	Error *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

type markedDiag struct {
	Path       string `json:"path"`
	Line       int    `json:"line"`
	Severity   string `json:"severity"`
	Message    string `json:"message"`
	Introduced *bool  `json:"introduced"`
}

// find returns the finding of ds in path whose message holds msg.
func find(ds []markedDiag, path, msg string) *markedDiag {
	for i, d := range ds {
		if d.Path == path && strings.Contains(d.Message, msg) {
			return &ds[i]
		}
	}
	return nil
}

// wantMark fails unless ds has the finding, marked introduced or not.
func wantMark(t *testing.T, what string, ds []markedDiag, path, msg string, introduced bool, text string) *markedDiag {
	t.Helper()
	d := find(ds, path, msg)
	switch {
	case d == nil:
		t.Fatalf("%s: no finding %q in %s among %+v:\n%s", what, msg, path, ds, text)
	case d.Introduced == nil || *d.Introduced != introduced:
		t.Fatalf("%s: %s:%d %q introduced = %v, want %v:\n%s", what, path, d.Line, msg, d.Introduced, introduced, text)
	}
	return d
}

// Through MCP, in each language: edit_file breaks a caller in a file it
// did not touch; check {} marks the caller's error introduced and the
// error that was there false, and counts both. A plan that moves the old
// error's line keeps it pre-existing. With fail_on introduced, a plan
// whose only error was there before writes; without, it stops.
func TestServeIntroduced(t *testing.T) {
	for _, p := range introducedProjects {
		t.Run(p.name, func(t *testing.T) {
			if _, err := exec.LookPath(p.server); err != nil {
				t.Skipf("%s is not installed (make tools)", p.server)
			}
			root := testtree.New(t, p.files)
			cs := connectStdio(t, root, "--trust")
			lib := filepath.Join(root, p.lib)
			for _, args := range []map[string]any{
				{"command": "view", "file_path": lib},
				{"command": "str_replace", "file_path": lib, "old_str": p.libOld, "new_str": p.libNew},
			} {
				if r := callTool(t, cs, "edit_file", args); r.IsError {
					t.Fatalf("edit_file %s: %s", args["command"], resultText(r))
				}
			}

			res := callTool(t, cs, "check", map[string]any{})
			dr := decodeStructured[markedResult](t, res)
			text := resultText(res)
			if dr.OK || dr.Error == nil || dr.Error.Kind != "diagnostics" {
				t.Fatalf("check after breaking a caller: ok %v, error %+v:\n%s", dr.OK, dr.Error, text)
			}
			wantMark(t, "check", dr.Diagnostics, p.main, p.broken, true, text)
			old := wantMark(t, "check", dr.Diagnostics, p.main, p.old, false, text)
			if b := dr.Baseline; b == nil || b.Introduced < 1 || b.PreExisting < 1 || b.Introduced+b.PreExisting != len(dr.Diagnostics) {
				t.Errorf("check: baseline %+v over %d findings: want both counted", b, len(dr.Diagnostics))
			}
			if !strings.Contains(text, p.broken) || !strings.Contains(text, "[introduced]") || !strings.Contains(text, "[pre-existing]") {
				t.Errorf("check's text does not mark the findings:\n%s", text)
			}
			if !strings.Contains(dr.Error.Message, "introduced by the change") {
				t.Errorf("check's error does not count the introduced errors: %s", dr.Error.Message)
			}

			// Lines inserted above the old error move it: still not
			// introduced; the caller's error still is.
			moved := map[string]any{"paths": []string{p.main}, "ops": []any{
				map[string]any{"step": "edit", "args": map[string]any{"path": p.main, "edits": []any{
					map[string]any{"find": p.mainLine, "replace": commentFor(p.main) + " moved down\n\n" + p.mainLine}}}},
				map[string]any{"step": "check"},
			}}
			res = callTool(t, cs, "dev_plan", moved)
			dr = decodeStructured[markedResult](t, res)
			wantMark(t, "moved", dr.Diagnostics, p.main, p.broken, true, resultText(res))
			if d := wantMark(t, "moved", dr.Diagnostics, p.main, p.old, false, resultText(res)); d.Line != old.Line+2 {
				t.Errorf("moved: the old error is on line %d, want %d (moved down by 2)", d.Line, old.Line+2)
			}

			// Undo the caller's break: only the old error is left, in
			// main's unwritten change. By default it stops the plan;
			// with fail_on introduced the plan writes, listing it apart.
			if r := callTool(t, cs, "edit_file", map[string]any{"command": "undo_edit", "file_path": lib}); r.IsError {
				t.Fatalf("undo_edit: %s", resultText(r))
			}
			res = callTool(t, cs, "dev_plan", map[string]any{"paths": []string{p.main}, "ops": []any{
				map[string]any{"step": "check"}, map[string]any{"step": "write"}}})
			dr = decodeStructured[markedResult](t, res)
			if dr.OK || dr.Error == nil || dr.Error.Kind != "diagnostics" || len(dr.Written) != 0 {
				t.Fatalf("only a pre-existing error, default fail_on: ok %v, error %+v, written %v:\n%s", dr.OK, dr.Error, dr.Written, resultText(res))
			}
			res = callTool(t, cs, "dev_plan", map[string]any{"paths": []string{p.main}, "fail_on": "introduced", "ops": []any{
				map[string]any{"step": "check"}, map[string]any{"step": "write"}}})
			dr = decodeStructured[markedResult](t, res)
			if !dr.OK || dr.Error != nil || !slices.Equal(dr.Written, []string{p.main}) {
				t.Fatalf("only a pre-existing error, fail_on introduced: ok %v, error %+v, written %v:\n%s", dr.OK, dr.Error, dr.Written, resultText(res))
			}
			wantMark(t, "fail_on introduced", dr.PreExisting, p.main, p.old, false, resultText(res))
			if find(dr.Diagnostics, p.main, p.old) != nil || find(dr.Diagnostics, p.main, p.broken) != nil {
				t.Errorf("fail_on introduced: diagnostics %+v, want the old error apart only", dr.Diagnostics)
			}
			if got := readFile(t, root, p.main); !strings.Contains(got, "moved down") {
				t.Errorf("%s on disk:\n%s\nwant the plan's edit written", p.main, got)
			}
		})
	}
}

// commentFor is the line comment of the file's language.
func commentFor(p string) string {
	if strings.HasSuffix(p, ".py") {
		return "#"
	}
	return "//"
}

// The editor endpoint, in each language: an unsaved buffer breaks a
// caller; the check's published diagnostics carry introduced in their
// data, true for the caller's error, false for the error the disk's
// content had, and the plan's answer marks and counts them as every
// surface does.
func TestEditorPublishesIntroduced(t *testing.T) {
	for _, p := range introducedProjects {
		t.Run(p.name, func(t *testing.T) {
			if _, err := exec.LookPath(p.server); err != nil {
				t.Skipf("%s is not installed (make tools)", p.server)
			}
			editorPublishesIntroduced(t, p)
		})
	}
}

func editorPublishesIntroduced(t *testing.T, p introducedProject) {
	root := testtree.New(t, p.files)
	c := startEditor(t, root, "--trust") // typescript-language-server runs the project's code
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"initializationOptions":{"publishDiagnostics":true}}}`)
	c.answer(1)
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	broken := strings.Replace(p.files[p.lib], p.libOld, p.libNew, 1)
	open, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": map[string]any{"textDocument": map[string]any{
		"uri": "file://" + filepath.ToSlash(filepath.Join(root, p.lib)), "languageId": p.name, "version": 1, "text": broken}}})
	c.send(string(open))
	c.send(`{"jsonrpc":"2.0","id":2,"method":"devbroker/plan","params":{"ops":[{"step":"check"}]}}`)
	answer, notes := c.until(2)
	b, _ := json.Marshal(answer["result"])
	var res markedResult
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("the plan's answer: %v: %s", err, b)
	}
	wantMark(t, "plan", res.Diagnostics, p.main, p.broken, true, string(b))
	wantMark(t, "plan", res.Diagnostics, p.main, p.old, false, string(b))
	if bl := res.Baseline; bl == nil || bl.Introduced < 1 || bl.PreExisting < 1 || bl.Introduced+bl.PreExisting != len(res.Diagnostics) {
		t.Errorf("the plan's answer does not count the findings: %s", b)
	}
	var published struct {
		URI         string `json:"uri"`
		Diagnostics []struct {
			Message string          `json:"message"`
			Data    map[string]bool `json:"data"`
		} `json:"diagnostics"`
	}
	marks := map[string]string{}
	for _, n := range notes {
		if n.Method != "textDocument/publishDiagnostics" {
			continue
		}
		if err := json.Unmarshal(n.Params, &published); err != nil {
			t.Fatal(err)
		}
		for _, d := range published.Diagnostics {
			v, ok := d.Data["introduced"]
			marks[d.Message] = fmt.Sprintf("%s %v %v", filepath.Base(published.URI), ok, v)
		}
	}
	main := filepath.Base(p.main)
	for msg, want := range map[string]string{p.broken: main + " true true", p.old: main + " true false"} {
		found := false
		for m, got := range marks {
			if strings.Contains(m, msg) {
				found = true
				if got != want {
					t.Errorf("published %q: %s, want %s (file, has introduced, introduced)", msg, got, want)
				}
			}
		}
		if !found {
			t.Errorf("no published diagnostic says %q: %v", msg, marks)
		}
	}
}

// editorNote is a notification the editor endpoint sent.
type editorNote struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// until reads messages until the answer to id, and returns it with the
// notifications sent before it.
func (c *editorClient) until(id int) (map[string]any, []editorNote) {
	c.t.Helper()
	var notes []editorNote
	for {
		n := -1
		for {
			l, err := c.out.ReadString('\n')
			if err != nil {
				c.t.Fatalf("reading the answer to %d: %v", id, err)
			}
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Content-Length:"); ok {
				fmt.Sscan(v, &n)
			}
			if strings.TrimSpace(l) == "" && n >= 0 {
				break
			}
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(c.out, b); err != nil {
			c.t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatalf("message %q: %v", b, err)
		}
		if m["id"] == float64(id) {
			return m, notes
		}
		var note editorNote
		if json.Unmarshal(b, &note) == nil && note.Method != "" {
			notes = append(notes, note)
		}
	}
}
