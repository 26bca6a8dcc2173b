package mcp

import (
	"slices"
	"strings"
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

// dev_plan's description, as a client lists it, names every step the
// root serves with its synopsis, and says which are unavailable.
func TestPlanDocCoversEveryStep(t *testing.T) {
	for _, kinds := range [][]engine.Kind{{engine.Format, engine.Lint, engine.Check}, {engine.Lint}} {
		tools, _ := listTools(t, kinds...)
		d := toolNamed(tools, "dev_plan").Description
		for _, st := range engine.Steps() {
			head := "- " + string(st.Name) + " " + st.Synopsis
			if on := st.Kind == "" || slices.Contains(kinds, st.Kind); on != strings.Contains(d, head) {
				t.Errorf("kinds %v: dev_plan's description lists %q: %v, want %v", kinds, head, !on, on)
			}
		}
		if len(kinds) == 1 && !strings.Contains(d, "format and check unavailable") {
			t.Errorf("kinds %v: dev_plan's description does not say format and check are unavailable:\n%s", kinds, d)
		}
	}
}
