package editor_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// relatedChecker reports one error on a.txt's line 1 whose related places
// are b.txt's "here" (after a character outside the BMP, in a file the
// plan did not acquire) and a place in a file outside the root.
type relatedChecker struct{ checker }

func (relatedChecker) Run(context.Context, engine.Request) (*engine.Response, error) {
	return &engine.Response{
		Output: engine.Output{
			Diagnostics: []engine.Diagnostic{{
				Path: "a.txt", Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Severity: engine.SeverityError, Source: "bad", Message: "declared twice",
				Related: []engine.Related{{Path: "b.txt", Line: 2, Column: 3, Message: "other declaration"}, {Path: "/elsewhere/x.go", Line: 4, Column: 5, Message: "outside"}},
			}},
		},
		Drivers: []engine.DriverStatus{{Driver: "bad", Status: engine.StatusOK}},
	}, nil
}

// The editor endpoint publishes a diagnostic's related places as LSP's
// relatedInformation: under the root, at the URI and position of the
// negotiated encoding (the file read from disk when the workspace does
// not hold it); outside the root, at its file URI, line and column as the
// tool counted them.
func TestPublishRelatedInformation(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "x\n", "b.txt": "one\n😀 here\n"})
	c := startWith(t, root, broker.Options{Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) { return relatedChecker{}, nil }})
	c.init(map[string]any{"publishDiagnostics": true})
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{map[string]any{"step": "check"}}}, nil)
	notes := c.notesOf("textDocument/publishDiagnostics", func(n []note) bool { return len(n) == 1 })
	type pos struct{ Line, Character int }
	var p struct {
		Diagnostics []struct {
			RelatedInformation []struct {
				Location struct {
					URI   string                   `json:"uri"`
					Range struct{ Start, End pos } `json:"range"`
				} `json:"location"`
				Message string `json:"message"`
			} `json:"relatedInformation"`
		} `json:"diagnostics"`
	}
	if err := json.Unmarshal(notes[0].Params, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Diagnostics) != 1 || len(p.Diagnostics[0].RelatedInformation) != 2 {
		t.Fatalf("published %s", notes[0].Params)
	}
	in, out := p.Diagnostics[0].RelatedInformation[0], p.Diagnostics[0].RelatedInformation[1]
	// "😀 " is two characters and three UTF-16 units.
	if in.Location.URI != c.uri("b.txt") || in.Location.Range.Start != (pos{1, 3}) || in.Location.Range.End != (pos{1, 3}) || in.Message != "other declaration" {
		t.Errorf("related place in the root: %+v", in)
	}
	if out.Location.URI != "file:///elsewhere/x.go" || out.Location.Range.Start != (pos{3, 4}) || out.Message != "outside" {
		t.Errorf("related place outside the root: %+v", out)
	}
}
