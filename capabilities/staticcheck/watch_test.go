package staticcheck

// Tests of how long a run may take (watch.go), with faults injected into
// the real staticcheck run: a load held until the test lets it go
// (loadHook), an analyzer that does not return (analyzeHook).

import (
	"context"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// set gives *v the value x until the test ends.
func set[T any](t *testing.T, v *T, x T) {
	old := *v
	*v = x
	t.Cleanup(func() { *v = old })
}

// deadModule is a module whose only file has SA4006 at 5:2, and a
// content of its own (its function is named after the test), so that
// staticcheck's cache does not hold its analysis.
func deadModule(t *testing.T) (string, *capabilities.Request) {
	root := t.TempDir()
	src := deadIn("m", t.Name(), "")
	testtree.Write(t, root, map[string]string{"go.mod": goMod, "a.go": src})
	return root, &capabilities.Request{Kind: engine.Lint, Root: root, Files: []string{"a.go"}, All: docs(map[string]string{"a.go": src})}
}

// afterRun waits, at the test's end, for a run left in the background to
// end (it holds global until then).
func afterRun(t *testing.T) {
	t.Cleanup(func() {
		global.Lock()
		//lint:ignore SA2001 taking the lock is the wait
		global.Unlock()
	})
}

// TestLoadNotCounted: a run whose package load lasts past the driver's
// short timeout (the load is held until the timeout has run out during
// it) answers with its finding: the timeout does not count the load. The
// listener read the phases: loading, then analyzing (the analysis is
// held until the listener has read it).
func TestLoadNotCounted(t *testing.T) {
	set(t, &watchTick, 10*time.Millisecond)
	waited, read := make(chan struct{}), make(chan struct{})
	var waitOnce, readOnce, holdOnce sync.Once
	set(t, &waitingForLoad, func() { waitOnce.Do(func() { close(waited) }) })
	set(t, &loadHook, func() { <-waited })
	set(t, &analyzeHook, func() { holdOnce.Do(func() { <-read }) })
	afterRun(t)
	_, req := deadModule(t)
	d := newDriver(t)
	d.timeout = 3 * time.Second
	var mu sync.Mutex
	var evs []engine.Progress
	ctx := engine.WithProgress(context.Background(), func(p engine.Progress) {
		mu.Lock()
		defer mu.Unlock()
		evs = append(evs, p)
		if p.ID == "staticcheck/analyzing" {
			readOnce.Do(func() { close(read) })
		}
	})
	r := d.Run(ctx, req)
	if r.Status != engine.StatusOK || !has(r.Diagnostics, "a.go", 5, "SA4006") {
		t.Fatalf("status %s (%s), findings:\n%s; want ok with SA4006 at a.go:5", r.Status, r.Message, codes(r.Diagnostics))
	}
	mu.Lock()
	defer mu.Unlock()
	var lines []string
	var loading, analyzing bool
	counts := regexp.MustCompile(`^\d+ of \d+ packages?$`)
	for _, e := range evs {
		lines = append(lines, e.String())
		if e.Driver != "staticcheck" {
			t.Errorf("event not the driver's: %+v", e)
		}
		loading = loading || e.ID == "staticcheck/loading" && e.Title == "loading 1 package" && strings.HasPrefix(e.Message, "go list") && !e.Done
		analyzing = analyzing || e.ID == "staticcheck/analyzing" && counts.MatchString(e.Message) && !e.Done
	}
	t.Logf("progress:\n%s", strings.Join(lines, "\n"))
	if !loading || !analyzing {
		t.Errorf("want the loading and analyzing phases among the progress")
	}
	if last := evs[len(evs)-1]; !last.Done {
		t.Errorf("the last event %+v does not end a phase", last)
	}
}

// TestStallTimesOut: an analysis that makes no progress for the driver's
// timeout (an analyzer that does not return) answers timeout, saying
// where it stood and how to give the driver longer.
func TestStallTimesOut(t *testing.T) {
	set(t, &watchTick, 10*time.Millisecond)
	stuck := make(chan struct{})
	var once sync.Once
	set(t, &analyzeHook, func() { once.Do(func() { <-stuck }) })
	afterRun(t)
	t.Cleanup(func() { close(stuck) })
	_, req := deadModule(t)
	d := newDriver(t)
	d.timeout = 500 * time.Millisecond
	r := d.Run(context.Background(), req)
	if r.Status != engine.StatusTimeout {
		t.Fatalf("status %s (%s); want timeout", r.Status, r.Message)
	}
	for _, w := range []string{"made no progress for 500ms (the driver's timeout, which does not count loading the packages) while analyzing, 0 of ", `set timeout = "1s" under [drivers.staticcheck]`} {
		if !strings.Contains(r.Message, w) {
			t.Errorf("message %q does not say %q", r.Message, w)
		}
	}
}

// TestLoadBound: a load that never ends meets the load bound: the answer
// is indexing, says where the run stood, which bound ended it and to ask
// again.
func TestLoadBound(t *testing.T) {
	set(t, &watchTick, 10*time.Millisecond)
	set(t, &LoadCeiling, 2)
	held := make(chan struct{})
	set(t, &loadHook, func() { <-held })
	afterRun(t)
	t.Cleanup(func() { close(held) })
	_, req := deadModule(t)
	d := newDriver(t)
	d.timeout = 500 * time.Millisecond
	r := d.Run(context.Background(), req)
	if r.Status != engine.StatusIndexing {
		t.Fatalf("status %s (%s); want indexing", r.Status, r.Message)
	}
	for _, w := range []string{"staticcheck is still loading the packages (go list", "has made no progress for 1s (the load bound, 2 times the driver's timeout)", "ask again"} {
		if !strings.Contains(r.Message, w) {
			t.Errorf("message %q does not say %q", r.Message, w)
		}
	}
}
