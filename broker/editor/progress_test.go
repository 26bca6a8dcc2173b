package editor_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"go.lsp.dev/jsonrpc2"
)

// loadingChecker is checker whose run reports a load, as a language
// server's driver relays one.
type loadingChecker struct{ checker }

func (l loadingChecker) Run(ctx context.Context, req engine.Request) (*engine.Response, error) {
	engine.ReportProgress(ctx, engine.Progress{Driver: "bad", ID: "load", Title: "Setting up workspace", Message: "Loading packages...", Percentage: -1})
	engine.ReportProgress(ctx, engine.Progress{Driver: "bad", ID: "load", Title: "Setting up workspace", Message: "Finished loading packages.", Percentage: -1, Done: true})
	return l.checker.Run(ctx, req)
}

// TestPlanWorkDoneProgress: a plan sent with workDoneToken gets $/progress
// for that token, begin, the drivers' events as reports, then end, before
// its answer; a plan without one gets none; a token that is neither an
// integer nor a string is refused.
func TestPlanWorkDoneProgress(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "fine\n"})
	c := startWith(t, root, broker.Options{Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) { return loadingChecker{}, nil }})
	c.init(nil)
	check := map[string]any{"paths": []string{"a.txt"}, "ops": []any{map[string]any{"step": "check"}}, "workDoneToken": "plan-1"}
	c.must("devbroker/plan", check, nil)
	notes := c.notesOf("$/progress", func(n []note) bool { return len(n) >= 4 })
	var kinds []string
	for _, n := range notes {
		var p struct {
			Token json.RawMessage `json:"token"`
			Value struct{ Kind, Title, Message string }
		}
		if err := json.Unmarshal(n.Params, &p); err != nil {
			t.Fatal(err)
		}
		if string(p.Token) != `"plan-1"` {
			t.Errorf("token %s", p.Token)
		}
		kinds = append(kinds, p.Value.Kind+" "+p.Value.Title+p.Value.Message)
	}
	got := strings.Join(kinds, "\n")
	if !strings.HasPrefix(got, "begin devbroker/plan\n") || !strings.HasSuffix(got, "\nend ") ||
		!strings.Contains(got, "report bad: Setting up workspace: Loading packages...\n") ||
		!strings.Contains(got, "report bad: Setting up workspace: Finished loading packages. (done)\n") {
		t.Fatalf("$/progress:\n%s", got)
	}
	delete(check, "workDoneToken")
	c.must("devbroker/plan", check, nil)
	if n := c.notesOf("$/progress", func([]note) bool { return true }); len(n) != len(notes) {
		t.Errorf("a plan without a token got %d more $/progress", len(n)-len(notes))
	}
	check["workDoneToken"] = []int{1}
	err := c.call("devbroker/plan", check, nil)
	if code, kind, _, msg := rpcErr(t, err); code != jsonrpc2.InvalidParams || kind != "bad_argument" || !strings.Contains(msg, "workDoneToken") {
		t.Errorf("bad token: %d %s %q", code, kind, msg)
	}
}
