package engine_test

import (
	"context"
	"slices"
	"testing"

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
