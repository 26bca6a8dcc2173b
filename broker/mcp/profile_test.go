package mcp

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// Each profile lists its tools, those that need a driver only when one
// serves them; only the full profile's tools declare output schemas.
func TestProfilesListTheirTools(t *testing.T) {
	for _, c := range []struct {
		p            Profile
		every, bare  []string // with every kind served; with none
		outputSchema bool
	}{
		{ProfileDefault,
			[]string{"check", "dev_plan", "discard", "edit_file", "probe", "search"},
			[]string{"dev_plan", "discard", "edit_file", "probe", "search"}, false},
		{ProfileLean,
			[]string{"check", "code_actions", "definition", "dev_plan", "discard", "hover", "probe", "references", "rename", "symbols"},
			[]string{"dev_plan", "discard", "probe"}, false},
		{ProfileFull,
			[]string{"apply_patch", "check", "code_actions", "definition", "dev_plan", "discard", "edit", "edit_file", "format", "hover", "lint", "probe", "read_file", "read_lines", "references", "rename", "search", "symbols", "test", "write", "write_file"},
			[]string{"apply_patch", "dev_plan", "discard", "edit", "edit_file", "probe", "read_file", "read_lines", "search", "write", "write_file"}, true},
	} {
		for _, kinds := range [][]engine.Kind{allKinds(), nil} {
			tools, _ := listToolsIn(t, c.p, kinds...)
			var names []string
			for _, tl := range tools {
				names = append(names, tl.Name)
				if (tl.OutputSchema != nil) != c.outputSchema {
					t.Errorf("%s: %s declares an output schema: %v, want %v", c.p, tl.Name, tl.OutputSchema != nil, c.outputSchema)
				}
			}
			slices.Sort(names)
			want := c.every
			if kinds == nil {
				want = c.bare
			}
			if !slices.Equal(names, want) {
				t.Errorf("%s, kinds %v: tools %v, want %v", c.p, kinds, names, want)
			}
		}
	}
	// The configuration's [mcp] tools takes the same names.
	var names []string
	for _, p := range profiles {
		names = append(names, string(p))
	}
	if !slices.Equal(names, configs.MCPTools) {
		t.Errorf("profiles %v, configs.MCPTools %v", names, configs.MCPTools)
	}
	if _, err := ParseProfile("tiny"); err == nil || !strings.Contains(err.Error(), "default, lean, full") {
		t.Errorf("ParseProfile(tiny): %v", err)
	}
}

// reachArgs are each step's arguments for TestEveryStepReachableInEveryProfile's
// file.
var reachArgs = map[engine.StepName]map[string]any{
	engine.StepReadLines:   {"path": "a.go", "start": 1},
	engine.StepEdit:        {"path": "a.go", "edits": []any{map[string]any{"find": "func F() {}", "replace": "func F() {}\n\nfunc G() {}"}}},
	engine.StepApplyPatch:  {"patch": "*** Begin Patch\n*** Add File: b.txt\n+bee\n*** End Patch\n"},
	engine.StepWrite:       {},
	engine.StepSearch:      {"pattern": "func"},
	engine.StepFormat:      {"paths": []string{"a.go"}},
	engine.StepLint:        {"paths": []string{"a.go"}},
	engine.StepCheck:       {},
	engine.StepTest:        {},
	engine.StepDefinition:  {"path": "a.go", "line": 3, "column": 6},
	engine.StepReferences:  {"path": "a.go", "line": 3, "column": 6},
	engine.StepHover:       {"path": "a.go", "line": 3, "column": 6},
	engine.StepSymbols:     {"query": "F"},
	engine.StepRename:      {"path": "a.go", "line": 3, "column": 6, "new_name": "H"},
	engine.StepCodeActions: {"path": "a.go"},
}

// Every step is reachable in every profile: through its own tool where
// the profile offers one, else through dev_plan, and each answers (the
// fake drivers serve every kind).
func TestEveryStepReachableInEveryProfile(t *testing.T) {
	for _, p := range profiles {
		h := newHarnessWith(t, p, &fakeDrivers{has: kindSet(allKinds())}, map[string]string{"a.go": "package a\n\nfunc F() {}\n"})
		cs := h.connect(nil)
		listed := toolNames(t, cs)
		for _, st := range engine.Steps() {
			args := reachArgs[st.Name]
			if args == nil {
				t.Fatalf("no arguments for step %s", st.Name)
			}
			var res *sdk.CallToolResult
			via := "its tool"
			if slices.Contains(listed, string(st.Name)) {
				res = call(t, cs, string(st.Name), args)
			} else {
				via = "dev_plan"
				res = call(t, cs, "dev_plan", map[string]any{"paths": []string{"a.go"}, "ops": []any{map[string]any{"step": string(st.Name), "args": args}}})
			}
			// The step ran: it answered, or failed on what the fake
			// drivers answered (an error finding on every changed file;
			// a rename that changes nothing), never as a step or a call
			// the server could not run.
			dr := structured[wire.DevResult](t, res)
			if e := dr.Error; e != nil && (slices.Contains([]string{"unavailable", "bad_argument", "not_found", "internal"}, e.Kind) || e.Name != string(st.Name)) {
				t.Errorf("%s: %s through %s: %s", p, st.Name, via, text(res))
			}
			if dr.Error == nil && (res.IsError || !dr.OK && st.Kind == "") {
				t.Errorf("%s: %s through %s: %s", p, st.Name, via, text(res))
			}
		}
		if got := h.read("b.txt"); got != "bee\n" {
			t.Errorf("%s: b.txt = %q after apply_patch and write", p, got)
		}
	}
}

// A call of a tool of devbroker's that the profile does not offer is a
// tool error saying what to call instead: dev_plan for a step, edit_file
// or the client's own tools for a file tool; it changes nothing. A name
// that is no tool of devbroker's stays the protocol's unknown tool.
func TestNotOfferedToolSaysWhatToCall(t *testing.T) {
	for _, c := range []struct {
		p    Profile
		tool string
		args map[string]any
		want []string
	}{
		{ProfileDefault, "edit", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "one", "replace": "1"}}}, []string{"edit is not one of this server's tools", `{"ops": [{"step": "edit", "args": {...}}]}`, "--tools full", "offers dev_plan, search, check, discard, edit_file, probe"}},
		{ProfileDefault, "read_file", map[string]any{"file_path": "/a.txt"}, []string{"read_file is not one of this server's tools", "edit_file's view command reads a file"}},
		{ProfileDefault, "write_file", map[string]any{"file_path": "/a.txt", "content": "x"}, []string{"write_file is not one of this server's tools", "dev_plan's apply_patch step creates a file"}},
		{ProfileLean, "write_file", map[string]any{"file_path": "/a.txt", "content": "x"}, []string{"write_file is not one of this server's tools", "use your own file tools", "--tools full"}},
		{ProfileLean, "edit_file", map[string]any{"command": "view", "file_path": "/a.txt"}, []string{"edit_file is not one of this server's tools", "use your own file tools"}},
		{ProfileLean, "lint", map[string]any{}, []string{"lint is not one of this server's tools", "run it as a step of dev_plan"}},
	} {
		h := newHarnessWith(t, c.p, &fakeDrivers{has: kindSet(allKinds())}, map[string]string{"a.txt": "one\n"})
		cs := h.connect(nil)
		res := call(t, cs, c.tool, c.args)
		if !res.IsError {
			t.Errorf("%s: %s answered: %s", c.p, c.tool, text(res))
		}
		for _, w := range c.want {
			if !strings.Contains(text(res), w) {
				t.Errorf("%s: %s's answer does not say %q:\n%s", c.p, c.tool, w, text(res))
			}
		}
		if f := structured[wire.Failure](t, res); f.Error == nil || f.Error.Kind != "unavailable" || f.Error.Retryable {
			t.Errorf("%s: %s: structured %+v, want a failure of kind unavailable, not retryable", c.p, c.tool, f.Error)
		}
		if h.read("a.txt") != "one\n" {
			t.Errorf("%s: %s changed a.txt", c.p, c.tool)
		}
		if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "frobnicate"}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
			t.Errorf("%s: frobnicate: %v, want the protocol's unknown tool", c.p, err)
		}
	}
}

// docs/mcp.md lists each profile's tools, as the server offers them.
func TestDocsListEachProfile(t *testing.T) {
	doc, err := os.ReadFile("../../docs/mcp.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range profiles {
		want := "\n- `" + string(p) + "`: `" + strings.Join(p.Tools(), "`, `") + "`\n"
		if !strings.Contains(string(doc), want) {
			t.Errorf("docs/mcp.md does not list the %s profile's tools as\n%s", p, want)
		}
	}
}
