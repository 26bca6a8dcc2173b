package capabilities_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// TestRunReportsPhases: each driver of a request is a piece of work the
// request's listener sees begin and end, with its files and its status.
// The drivers of a lint run at once, so the two pieces' events may
// interleave; each begins before it ends.
func TestRunReportsPhases(t *testing.T) {
	ok := func(*capabilities.Request) *capabilities.Result { return &capabilities.Result{Status: engine.StatusOK} }
	s := newFakeSet(t,
		&fake{name: "one", kinds: []engine.Kind{engine.Lint}, run: ok},
		&fake{name: "two", kinds: []engine.Kind{engine.Lint}, run: func(*capabilities.Request) *capabilities.Result {
			return &capabilities.Result{Status: engine.StatusTimeout}
		}})
	var (
		mu    sync.Mutex
		got   []string
		begun = map[string]bool{}
	)
	ctx := engine.WithProgress(context.Background(), func(p engine.Progress) {
		mu.Lock()
		defer mu.Unlock()
		if p.Done != begun[p.ID] {
			t.Errorf("%s: done=%v out of order", p.ID, p.Done)
		}
		begun[p.ID] = true
		got = append(got, fmt.Sprintf("%s %s %s: %s %d%% done=%v", p.ID, p.Driver, p.Title, p.Message, p.Percentage, p.Done))
	})
	all := map[string]*text.Doc{"a.x": text.FromString("a\n"), "b.x": text.FromString("b\n")}
	if _, err := s.Run(ctx, engine.Request{Kind: engine.Lint, Files: all}); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"devbroker/lint/one one lint: driver 1 of 2, 2 files 0% done=false",
		"devbroker/lint/one one lint: driver 1 of 2: ok 50% done=true",
		"devbroker/lint/two two lint: driver 2 of 2, 2 files 50% done=false",
		"devbroker/lint/two two lint: driver 2 of 2: timeout 100% done=true",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Fatalf("got\n%q\nwant\n%q", got, want)
	}
}
