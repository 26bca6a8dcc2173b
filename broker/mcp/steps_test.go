package mcp

import (
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
)

// Every step of the engine's registry has its tool, listed in the
// registry's order and advertised when the step's capability is.
func TestEveryStepHasATool(t *testing.T) {
	specs := tools()
	var names []string
	for _, st := range engine.Steps() {
		names = append(names, string(st.Name))
		i := slices.IndexFunc(specs, func(ts toolSpec) bool { return ts.name == string(st.Name) })
		if i < 0 || specs[i].build == nil || specs[i].needs != st.Kind {
			t.Errorf("step %s: no tool, or one that needs %q instead of %q", st.Name, specs[max(i, 0)].needs, st.Kind)
		}
	}
	if i := slices.Index(ToolNames(), names[0]); i < 0 || !slices.Equal(ToolNames()[i:i+len(names)], names) {
		t.Errorf("tools %v do not list the steps %v in order", ToolNames(), names)
	}
}

// argDecodes counts the calls of decodeArgs in this test binary; the hook
// is set before any server runs.
var argDecodes atomic.Int64

func init() { testHookDecodeArgs = func() { argDecodes.Add(1) } }

// One call of a step tool decodes its arguments once: the tool decodes
// them into the step's typed arguments, and the broker and the engine run
// those (broker/step.go imports no JSON decoder: see the broker's
// TestStepDecodesNothing).
func TestStepCallDecodesOnce(t *testing.T) {
	h := newHarness(t, nil, map[string]string{"a.txt": "one\ntwo\n"})
	cs := h.connect(nil)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"edit", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "two", "replace": "2"}}}},
		{"apply_patch", map[string]any{"patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-2\n+two\n*** End Patch\n"}},
		{"read_lines", map[string]any{"path": "a.txt", "start": 2}},
	} {
		before := argDecodes.Load()
		res := call(t, cs, c.tool, c.args)
		if dr := structured[wire.DevResult](t, res); res.IsError || !dr.OK {
			t.Fatalf("%s: %s", c.tool, text(res))
		}
		if n := argDecodes.Load() - before; n != 1 {
			t.Errorf("%s decoded its arguments %d times", c.tool, n)
		}
	}
	if h.read("a.txt") != "one\ntwo\n" {
		t.Fatalf("a.txt = %q", h.read("a.txt"))
	}
}

// A dev_plan call decodes its plan once: decodeArgs decodes the request
// (engine.PlanJSON, through its front end),
// leaving each op's arguments raw for its step's decoder; the handler
// neither re-encodes the request nor parses it again as a plan. A step's
// bad arguments are reported as before, with the plan's other problems.
func TestPlanCallDecodesOnce(t *testing.T) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "tool_plan.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && slices.Contains([]string{"ParsePlan", "Marshal", "Unmarshal"}, sel.Sel.Name) {
			t.Errorf("%s: tool_plan.go calls %s: build the plan from the decoded parameters", fset.Position(sel.Pos()), sel.Sel.Name)
		}
		return true
	})
	h := newHarness(t, nil, map[string]string{"a.txt": "one\ntwo\n"})
	cs := h.connect(nil)
	before := argDecodes.Load()
	res := call(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "two", "replace": "2"}}}},
		map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 2}, "label": "second"},
		map[string]any{"step": "discard_me"},
		map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": "2"}},
		map[string]any{"step": "read_lines", "args": "a.txt"},
	}})
	if n := argDecodes.Load() - before; n != 1 {
		t.Errorf("dev_plan decoded its arguments %d times", n)
	}
	want := []string{"the plan was rejected and nothing was run", `step 3 (discard_me): unknown step "discard_me"`, "step 4 (read_lines): start must be an integer, got a JSON string",
		"step 5 (read_lines): the arguments must be a JSON object, got a JSON string; the arguments are: path (required), start (required), end"}
	for _, w := range want {
		if !res.IsError || !strings.Contains(text(res), w) {
			t.Errorf("dev_plan's error lacks %q:\n%s", w, text(res))
		}
	}
	res = call(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "two", "replace": "2"}}}},
		map[string]any{"step": "read_lines", "args": map[string]any{"path": "a.txt", "start": 2}, "label": "second"},
	}})
	if dr := structured[wire.DevResult](t, res); res.IsError || !dr.OK || dr.Reads["second"] != "2" {
		t.Fatalf("dev_plan: %s", text(res))
	}
}

// dev_plan's description, as a client lists it, names every step the
// root serves with its arguments (the language steps share one line) and
// what each does, and says which are unavailable: in the default and lean
// profiles it is the one description most steps have.
func TestPlanDocCoversEveryStep(t *testing.T) {
	ident := regexp.MustCompile(`[a-z_]+`)
	for _, kinds := range [][]engine.Kind{allKinds(), {engine.Format, engine.Lint, engine.Check}, {engine.Lint}} {
		tools, _ := listToolsIn(t, ProfileDefault, kinds...)
		tl := toolNamed(tools, "dev_plan")
		d := tl.Description
		var steps, note string
		for _, line := range strings.Split(d, "\n") {
			if strings.HasPrefix(line, "- ") {
				steps += line + "\n"
			} else if strings.Contains(line, "unavailable") {
				note = line
			}
		}
		for _, st := range engine.Steps() {
			name := regexp.MustCompile(`\b` + string(st.Name) + `\b`)
			on := st.Kind == "" || slices.Contains(kinds, st.Kind)
			if note := stepNotes[st.Name]; on && note != "" && !strings.Contains(steps, "- "+string(st.Name)+" "+st.Synopsis+note+"\n") {
				t.Errorf("kinds %v: dev_plan's description lacks %s's line with its synopsis and what it does:\n%s", kinds, st.Name, d)
			}
			if name.MatchString(steps) != on || name.MatchString(note) == on {
				t.Errorf("kinds %v: dev_plan's description lists %s: %v, notes it unavailable: %v; want %v, %v:\n%s", kinds, st.Name, !on, on, on, !on, d)
			}
			for _, arg := range ident.FindAllString(st.Synopsis, -1) {
				if on && !strings.Contains(steps, arg) {
					t.Errorf("kinds %v: dev_plan's description lacks %s's argument %s", kinds, st.Name, arg)
				}
			}
		}
	}
}

// A step tool's answer speaks of its step, not of a plan: a lone check
// that finds an error fails "at check", and its message says to check
// again, with no plan that stopped; a plan's failure names the step by
// number and says which steps after it did not run, and none when it was
// the last.
func TestStepToolSpeaksOfItsStep(t *testing.T) {
	h := newHarness(t, &fakeDrivers{has: kindSet(allKinds())}, map[string]string{"a.txt": "one\ntwo\n"})
	cs := h.connect(nil)
	edit := map[string]any{"step": "edit", "args": map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "one", "replace": "ONE"}}}}

	// The fake checker reports an error on every changed file.
	res := call(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{edit}})
	if res.IsError {
		t.Fatalf("edit: %s", text(res))
	}
	res = call(t, cs, "check", map[string]any{})
	got := text(res)
	if !strings.HasPrefix(got, "FAILED at check [diagnostics; ") || !strings.Contains(got, "fix the code, then check again") || strings.Contains(got, "plan") || strings.Contains(got, "step 1") {
		t.Errorf("a lone check's failure:\n%s", got)
	}
	res = call(t, cs, "edit", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "absent", "replace": "x"}}})
	if got := text(res); !res.IsError || !strings.HasPrefix(got, "FAILED at edit [no_match; ") || strings.Contains(got, "plan") {
		t.Errorf("a lone edit's failure:\n%s", got)
	}

	check, write := map[string]any{"step": "check"}, map[string]any{"step": "write"}
	res = call(t, cs, "dev_plan", map[string]any{"ops": []any{check, write}})
	if got := text(res); !strings.HasPrefix(got, "FAILED at step 1 (check) [diagnostics; ") || !strings.Contains(got, "the plan stopped here, so the steps after it (write) did not run") {
		t.Errorf("a plan's check before write:\n%s", got)
	}
	res = call(t, cs, "dev_plan", map[string]any{"ops": []any{check}})
	if got := text(res); !strings.HasPrefix(got, "FAILED at step 1 (check) [diagnostics; ") || strings.Contains(got, "did not run") {
		t.Errorf("a plan whose last step failed:\n%s", got)
	}
}
