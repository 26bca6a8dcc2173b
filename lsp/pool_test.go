package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/lsp"
)

func newPool(t *testing.T, root string, size int) *lsp.Pool {
	t.Helper()
	p := lsp.NewPool(lsp.Config{Command: []string{gopls(t)}, Root: root, Settings: map[string]any{"diagnosticsDelay": "0s"}}, size, 0)
	t.Cleanup(func() { _ = p.Close() })
	return p
}

// Two callers with conflicting unwritten content, asking at once, get a
// lane each (the pool grows while the first lane is taken), and each sees
// only its own error; the lanes follow the disk; a lane that dies is
// restarted by its next request, with the caller's content.
func TestPoolLanesKeepEachCallersContent(t *testing.T) {
	root := module(t)
	p := newPool(t, root, 2)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a, b := filepath.Join(root, "a/a.go"), filepath.Join(root, "b/b.go")
	state := func(name string) lsp.Want {
		return lsp.Want{State: map[string]string{"a/a.go": name}, Files: []string{a, b}}
	}
	doc := func(name string) []lsp.Document {
		return []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n\nfunc F() int { return " + name + " }\n"}}
	}
	// The first caller holds the first lane: the second one's Take adds
	// a lane and waits until it has started.
	s1, done1, err := p.Take(ctx, state("one"))
	if err != nil {
		t.Fatal(err)
	}
	s2, done2, err := p.Take(ctx, state("two"))
	if err != nil {
		t.Fatal(err)
	}
	if s1 == s2 || len(p.Servers()) != 2 {
		t.Fatalf("two callers at once got the same lane (%d lanes)", len(p.Servers()))
	}
	var wg sync.WaitGroup
	for _, c := range []struct {
		srv  *lsp.Server
		name string
	}{{s1, "one"}, {s2, "two"}} {
		wg.Go(func() {
			for range 3 {
				rep, err := c.srv.Diagnose(ctx, doc(c.name), []string{a, b})
				if err != nil {
					t.Error(err)
					return
				}
				if got := messages(rep, a); len(got) != 1 || got[0] != "undefined: "+c.name {
					t.Errorf("caller %s: got %q", c.name, got)
				}
			}
		})
	}
	wg.Wait()
	if s1.PID() == s2.PID() {
		t.Errorf("the lanes share process %d", s1.PID())
	}
	done1()
	done2()
	done2() // idempotent

	// The same content is handed the lane that has it.
	for _, name := range []string{"two", "one", "two"} {
		s, done, err := p.Take(ctx, state(name))
		if err != nil {
			t.Fatal(err)
		}
		if want := map[string]*lsp.Server{"one": s1, "two": s2}[name]; s != want {
			t.Errorf("content %s was handed the other lane", name)
		}
		done()
	}

	// Both lanes follow the disk: b changes under them, without a word.
	if err := os.WriteFile(b, []byte("package b\n\nimport \"example.com/m/a\"\n\nvar X string = a.F()\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*lsp.Server{s1, s2} {
		rep, err := s.Diagnose(ctx, nil, []string{a, b})
		if err != nil {
			t.Fatal(err)
		}
		if got := messages(rep, b); len(got) != 1 {
			t.Errorf("lane %d after b changed on disk: %q", s.PID(), got)
		}
	}

	// A lane that dies is restarted by its next request.
	pid, exited := s2.PID(), lsp.Exited(s2)
	proc, err := os.FindProcess(pid)
	if err == nil {
		err = proc.Kill()
	}
	if err != nil {
		t.Fatal(err)
	}
	<-exited
	s, done, err := p.Take(ctx, state("two"))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := s.Diagnose(ctx, doc("two"), []string{a})
	done()
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(rep, a); len(got) != 1 || got[0] != "undefined: two" {
		t.Errorf("after a lane died: %q", got)
	}
	if s.PID() == pid || s.PID() == 0 {
		t.Errorf("the lane's process is %d, it was %d", s.PID(), pid)
	}

	// Unused for the idle time, the added lane closes; the first stays.
	exited = lsp.Exited(s2)
	lsp.ExpireLanes(p)
	<-exited
	if lanes := p.Servers(); len(lanes) != 1 || lanes[0] != s1 || s1.PID() == 0 || s2.PID() != 0 {
		t.Errorf("after the idle time: %d lanes, the first's process %d, the added one's %d", len(lanes), s1.PID(), s2.PID())
	}
	s, done, err = p.Take(ctx, state("two"))
	if err != nil {
		t.Fatal(err)
	}
	done()
	if s != s1 {
		t.Error("a caller alone was not handed the first lane")
	}
}

// A pool of one is today's server: a second caller waits for the first
// to give its lane back.
func TestPoolOfOneWaits(t *testing.T) {
	root := module(t)
	p := newPool(t, root, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	s1, done1, err := p.Take(ctx, lsp.Want{})
	if err != nil {
		t.Fatal(err)
	}
	short, stop := context.WithCancel(ctx)
	stop()
	if _, _, err := p.Take(short, lsp.Want{}); err == nil {
		t.Fatal("a second caller got a lane of a pool of one while the first held it")
	}
	got := make(chan *lsp.Server)
	go func() {
		s, done, err := p.Take(ctx, lsp.Want{})
		if err != nil {
			t.Error(err)
		} else {
			done()
		}
		got <- s
	}()
	done1()
	if s := <-got; s != s1 || len(p.Servers()) != 1 {
		t.Errorf("the second caller got another server (%d lanes)", len(p.Servers()))
	}
}

// A caller with the content a taken lane is being brought to (a second
// request of the same session, or of another session with no unwritten
// content) waits for that lane rather than adding a process; a caller
// with other content adds one.
func TestPoolSameContentSharesALane(t *testing.T) {
	root := module(t)
	p := newPool(t, root, 4)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	mine := lsp.Want{State: map[string]string{filepath.Join(root, "b/b.go"): "h1"}}
	_, done, err := p.Take(ctx, mine)
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	gone, stop := context.WithCancel(ctx)
	stop()
	for _, w := range []lsp.Want{mine, {State: map[string]string{filepath.Join(root, "b/b.go"): "h1"}}} {
		if _, _, err := p.Take(gone, w); err == nil {
			t.Fatal("a second caller got a lane while the only one was taken")
		}
		if n := len(p.Servers()); n != 1 {
			t.Fatalf("a caller with the taken lane's content added a lane: %d lanes", n)
		}
	}
	if _, _, err := p.Take(gone, lsp.Want{State: map[string]string{filepath.Join(root, "b/b.go"): "h2"}}); err == nil {
		t.Fatal("a caller with other content got a lane at once")
	}
	if n := len(p.Servers()); n != 2 {
		t.Fatalf("a caller with other content: %d lanes, want a second one being added", n)
	}
}
