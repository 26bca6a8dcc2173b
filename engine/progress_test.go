package engine_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine"
)

// TestProgressHook: reports reach every receiver of the context, outer
// first, and nothing happens without one.
func TestProgressHook(t *testing.T) {
	ctx := context.Background()
	if engine.WantsProgress(ctx) {
		t.Fatal("a bare context wants progress")
	}
	engine.ReportProgress(ctx, engine.Progress{Title: "nobody listens"})
	var got []string
	ctx = engine.WithProgress(ctx, func(p engine.Progress) { got = append(got, "outer:"+p.Title) })
	ctx = engine.WithProgress(ctx, func(p engine.Progress) { got = append(got, "inner:"+p.Title) })
	if !engine.WantsProgress(ctx) {
		t.Fatal("WantsProgress is false with receivers")
	}
	engine.ReportProgress(ctx, engine.Progress{Driver: "gopls", Title: "load", Percentage: -1})
	if want := []string{"outer:load", "inner:load"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestProgressString(t *testing.T) {
	for _, c := range []struct {
		p    engine.Progress
		want string
	}{
		{engine.Progress{Driver: "gopls", Title: "Setting up workspace", Message: "Loading packages...", Percentage: -1}, "gopls: Setting up workspace: Loading packages..."},
		{engine.Progress{Driver: "gopls", Title: "check", Message: "driver 1 of 2, 3 files", Percentage: 0}, "gopls: check: driver 1 of 2, 3 files (0%)"},
		{engine.Progress{Driver: "x", Title: "indexing", Percentage: 40}, "x: indexing (40%)"},
		{engine.Progress{Driver: "x", Title: "indexing", Message: "finished", Percentage: 100, Done: true}, "x: indexing: finished (done)"},
		{engine.Progress{Driver: "gopls", Title: "loading the workspace", Message: "Loading packages...", Percentage: -1, Elapsed: 65*time.Second + 400*time.Millisecond}, "gopls: loading the workspace: Loading packages... (1m5s)"},
		{engine.Progress{Driver: "gopls", Title: "checking", Percentage: 9, Elapsed: 95 * time.Second}, "gopls: checking (9%, 1m35s)"},
		{engine.Progress{Driver: "x", Title: "waiting", Percentage: -1, Elapsed: 300 * time.Millisecond}, "x: waiting"},
		{engine.Progress{Driver: "x", Title: "waiting", Percentage: -1, Elapsed: time.Minute, Done: true}, "x: waiting (done)"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
