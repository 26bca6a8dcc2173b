package lsp_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/lsp"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// recorder collects a subscription's events.
type recorder struct {
	mu  sync.Mutex
	evs []lsp.Progress
}

func (r *recorder) add(p lsp.Progress) { r.mu.Lock(); r.evs = append(r.evs, p); r.mu.Unlock() }

func (r *recorder) events() []lsp.Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]lsp.Progress(nil), r.evs...)
}

// pairs reports the titles of the pieces of work that began and ended.
func pairs(evs []lsp.Progress) map[string]bool {
	begun, out := map[string]string{}, map[string]bool{}
	for _, e := range evs {
		if !e.Done {
			begun[e.Token] = e.Title
		} else if t, ok := begun[e.Token]; ok && t == e.Title {
			out[t] = true
		}
	}
	return out
}

// TestGoplsProgress: gopls's workspace load ("Setting up workspace")
// reaches a subscriber as a begin and an end, during a first Diagnose,
// and the server is not busy after.
func TestGoplsProgress(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	var rec recorder
	stop := s.Subscribe(rec.add)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a := filepath.Join(root, "a/a.go")
	if _, err := s.Diagnose(ctx, nil, []string{a}); err != nil {
		t.Fatal(err)
	}
	stop()
	evs := rec.events()
	t.Logf("events: %+v", evs)
	if len(pairs(evs)) == 0 {
		t.Fatalf("no begin/end pair among %+v", evs)
	}
	for _, e := range evs {
		if e.Server == "" || e.Title == "" {
			t.Errorf("event without server or title: %+v", e)
		}
	}
	if busy, what := s.Busy(); busy {
		t.Errorf("busy after the answer: %s", what)
	}
}

// TestSubscribeStop: events published after stop do not arrive.
func TestSubscribeStop(t *testing.T) {
	s := fake(t, lsptest.Push, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p := filepath.Join(t.TempDir(), "x.txt")
	var rec recorder
	stop := s.Subscribe(rec.add)
	if _, err := s.Diagnose(ctx, []lsp.Document{{Path: p, LanguageID: "text", Text: "a"}}, []string{p}); err != nil {
		t.Fatal(err)
	}
	stop()
	n := len(rec.events())
	if !pairs(rec.events())["checking"] {
		t.Fatalf("no checking pair: %+v", rec.events())
	}
	if _, err := s.Diagnose(ctx, []lsp.Document{{Path: p, LanguageID: "text", Text: "b"}}, []string{p}); err != nil {
		t.Fatal(err)
	}
	if got := len(rec.events()); got != n {
		t.Fatalf("%d events after stop", got-n)
	}
}

// TestSubscribeReplaysOpenWork: a server whose load never ends is busy,
// its request times out with the report saying so, and a subscriber that
// joins later is told first that the load began.
func TestSubscribeReplaysOpenWork(t *testing.T) {
	s := fake(t, lsptest.LoadForever, 0)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	p := filepath.Join(t.TempDir(), "x.txt")
	rep, err := s.Diagnose(ctx, []lsp.Document{{Path: p, LanguageID: "text", Text: "a"}}, []string{p})
	if err == nil || rep == nil || !rep.Indexing || len(rep.Files[p]) != 1 {
		t.Fatalf("err %v, report %+v: want a timeout while indexing, with the settled diagnostic", err, rep)
	}
	if busy, what := s.Busy(); !busy || what != "Setting up workspace: Loading packages..." {
		t.Fatalf("busy %v %q", busy, what)
	}
	first := make(chan lsp.Progress, 1)
	stop := s.Subscribe(func(p lsp.Progress) {
		select {
		case first <- p:
		default:
		}
	})
	defer stop()
	if got := <-first; got.Title != "Setting up workspace" || got.Done || got.Server != "fake" {
		t.Fatalf("first event %+v", got)
	}
}
