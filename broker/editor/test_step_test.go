package editor_test

import (
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/configs/trust"
	"github.com/devbroker/devbroker/engine/testtree"
)

// trustAll trusts every root: the test drivers run only in a trusted one.
type trustAll struct{}

func (trustAll) Check(string, string) trust.Verdict { return trust.Verdict{Trusted: true} }

// TestTestStepPublishesFailures: a plan's test step that fails stops the
// plan before its write and publishes the failing test as a diagnostic
// of its test file.
func TestTestStepPublishesFailures(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	disk := map[string]string{
		"go.mod":      "module example.com/m\n\ngo 1.22\n",
		"a/a.go":      "package a\n\nfunc Add(x, y int) int { return x + y }\n",
		"a/a_test.go": "package a\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(1, 2) != 3 {\n\t\tt.Error(\"Add(1, 2) is not 3\")\n\t}\n}\n",
	}
	root := testtree.New(t, disk)
	load := func(ctx context.Context, root string, _ broker.Drivers) (broker.Drivers, error) {
		set, _, err := drivers.LoadWith(ctx, root, drivers.Options{Trust: trustAll{}})
		if err != nil {
			return nil, err
		}
		return set, nil
	}
	c := startWith(t, root, broker.Options{Load: load})
	c.init(map[string]any{"publishDiagnostics": true})
	var r failedResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"a/a.go"}, "apply": "disk", "ops": []any{
		editOp("a/a.go", "func Add(x, y int) int { return x + y }", "func Add(x, y int) int { return x * y }"),
		map[string]any{"step": "test"}, map[string]any{"step": "write"},
	}}, &r)
	if r.OK || r.Error == nil || r.Error.Kind != "diagnostics" || r.Error.Step != 2 || len(r.Written) != 0 {
		t.Fatalf("plan: ok %v error %+v written %v", r.OK, r.Error, r.Written)
	}
	if d := testtree.Read(t, root); d["a/a.go"] != disk["a/a.go"] {
		t.Errorf("the failed plan wrote a/a.go: %q", d["a/a.go"])
	}
	notes := c.notesOf("textDocument/publishDiagnostics", func(n []note) bool { return len(n) > 0 })
	found := false
	for _, n := range notes {
		var p struct {
			URI         string `json:"uri"`
			Diagnostics []struct {
				Range struct {
					Start struct{ Line int } `json:"start"`
				} `json:"range"`
				Message string `json:"message"`
			} `json:"diagnostics"`
		}
		if err := json.Unmarshal(n.Params, &p); err != nil {
			t.Fatal(err)
		}
		for _, d := range p.Diagnostics {
			if p.URI == c.uri("a/a_test.go") && d.Range.Start.Line == 6 && strings.Contains(d.Message, "TestAdd: Add(1, 2) is not 3") {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no published diagnostic for the failing test: %v", notes)
	}
}
