package lsp_test

// One turn of gopls answers several callers waiting at once only when
// their documents agree (batch.go): each caller's answer is about its own
// content exactly, and a caller never sees another's unwritten content or
// its findings.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp"
)

// batchModule is module with a third package, c, that imports nothing.
func batchModule(t *testing.T) string {
	root := module(t)
	testtree.Put(t, root, "c/c.go", "package c\n\nfunc G() int { return 2 }\n")
	return root
}

// atDisk is the file at path as a document at disk content, read again
// when asked whether the disk still holds it.
func atDisk(t *testing.T, path string) lsp.Document {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	return lsp.Document{Path: path, LanguageID: "go", Text: text, OnDisk: true, Current: func() bool {
		now, err := os.ReadFile(path)
		return err == nil && string(now) == text
	}}
}

// call is one caller of Diagnose; ctx, when set, is its own context.
type call struct {
	ctx   context.Context
	docs  []lsp.Document
	files []string
	rep   *lsp.Report
	err   error
}

// turns records the shared turns: the number of callers of each.
type turns struct {
	mu    sync.Mutex
	sizes []int
}

func (tu *turns) record(docs [][]lsp.Document) {
	tu.mu.Lock()
	defer tu.mu.Unlock()
	tu.sizes = append(tu.sizes, len(docs))
}

// sharedServer is a gopls server on batchModule's module whose shared
// turns are recorded.
func sharedServer(t *testing.T) (string, *lsp.Server, *turns) {
	t.Helper()
	root := batchModule(t)
	s := newGopls(t, root)
	tu := &turns{}
	lsp.OnShared(s, tu.record)
	return root, s, tu
}

func (tu *turns) get() []int {
	tu.mu.Lock()
	defer tu.mu.Unlock()
	return slices.Clone(tu.sizes)
}

// atOnce has every call wait for the server's turn, held meanwhile, and
// then lets them all go; before releases the turn it runs (while every
// call waits). Every call must succeed.
func atOnce(t *testing.T, s *lsp.Server, calls []*call, before func()) {
	t.Helper()
	race(t, s, calls, before)
	for i, c := range calls {
		if c.err != nil {
			t.Fatalf("call %d: %v", i, c.err)
		}
	}
}

// race is atOnce whose calls may fail.
func race(t *testing.T, s *lsp.Server, calls []*call, before func()) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	waiting := make(chan int, 16)
	lsp.OnWaiting(s, func(n int) { waiting <- n })
	defer lsp.OnWaiting(s, nil)
	release := lsp.HoldTurn(s)
	if before != nil {
		before()
	}
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Go(func() {
			cctx := ctx
			if c.ctx != nil {
				cctx = c.ctx
			}
			c.rep, c.err = s.Diagnose(lsp.Began(cctx), c.docs, c.files)
		})
	}
	for n := range waiting {
		if n == len(calls) {
			break
		}
	}
	release()
	wg.Wait()
}

// errorsIn returns the error messages of every file of rep, as
// "file: message", paths relative to root.
func errorsIn(rep *lsp.Report, root string) []string {
	var out []string
	for p, ds := range rep.Files {
		for _, d := range ds {
			if d.Severity == lsp.SeverityError {
				rel, _ := filepath.Rel(root, p)
				out = append(out, filepath.ToSlash(rel)+": "+d.Message)
			}
		}
	}
	slices.Sort(out)
	return out
}

// TestSharedTurnForTheSameContent: callers at the disk's content asking
// about different files, and callers with the same unwritten change, each
// share one turn; each answer has its own documents' versions and the
// others' as kept, and the findings of its own content.
func TestSharedTurnForTheSameContent(t *testing.T) {
	root, s, tu := sharedServer(t)
	a, c := filepath.Join(root, "a/a.go"), filepath.Join(root, "c/c.go")
	diagnose(t, s, nil, a) // the workspace's load is behind

	calls := []*call{
		{docs: []lsp.Document{atDisk(t, a)}, files: []string{a}},
		{docs: []lsp.Document{atDisk(t, c)}, files: []string{c}},
	}
	atOnce(t, s, calls, nil)
	if got := tu.get(); !slices.Equal(got, []int{2}) {
		t.Fatalf("shared turns %v, want one of 2", got)
	}
	for i, own := range []string{a, c} {
		rep := calls[i].rep
		if len(rep.Versions) != 1 || rep.Versions[own] == 0 {
			t.Errorf("call %d: versions %v, want %s's only", i, rep.Versions, own)
		}
		other := []string{c, a}[i]
		if !slices.Contains(rep.Kept, other) {
			t.Errorf("call %d: kept %v, want the other caller's %s", i, rep.Kept, other)
		}
		if got := errorsIn(rep, root); len(got) != 0 {
			t.Errorf("call %d at the disk's content: errors %q", i, got)
		}
	}

	// The same unwritten change in a.go: both see its error, and b.go's.
	broken := lsp.Document{Path: a, LanguageID: "go", Text: "package a\n\nfunc H() int { return 1 }\n"}
	calls = []*call{
		{docs: []lsp.Document{broken}, files: []string{a}},
		{docs: []lsp.Document{broken, atDisk(t, c)}, files: []string{c}},
	}
	atOnce(t, s, calls, nil)
	if got := tu.get(); !slices.Equal(got, []int{2, 2}) {
		t.Fatalf("shared turns %v, want a second one of 2", got)
	}
	for i, call := range calls {
		got := strings.Join(errorsIn(call.rep, root), "\n")
		if !strings.Contains(got, "b/b.go: undefined: a.F") {
			t.Errorf("call %d with a.go changed: errors %q, want b.go's", i, got)
		}
	}
}

// TestNoSharedTurnAcrossContents: callers whose documents disagree each
// get a turn of their own, and none sees another's change or its
// findings: a change that breaks a package another caller's file imports,
// two changes to one package, and a document at disk content that the
// disk no longer holds when the turn comes.
func TestNoSharedTurnAcrossContents(t *testing.T) {
	root, s, tu := sharedServer(t)
	a, b, c := filepath.Join(root, "a/a.go"), filepath.Join(root, "b/b.go"), filepath.Join(root, "c/c.go")
	a2 := filepath.Join(root, "a/a2.go")
	diagnose(t, s, nil, a)

	// One caller's change breaks a, which b imports; the other asks
	// about b at the disk's content.
	breaksA := lsp.Document{Path: a, LanguageID: "go", Text: "package a\n\nfunc H() int { return 1 }\n"}
	calls := []*call{
		{docs: []lsp.Document{breaksA}, files: []string{a}},
		{docs: []lsp.Document{atDisk(t, b)}, files: []string{b}},
	}
	atOnce(t, s, calls, nil)
	if got := errorsIn(calls[0].rep, root); len(got) != 1 || !strings.HasPrefix(got[0], "b/b.go: undefined: a.F") {
		t.Errorf("the caller breaking a: errors %q, want b.go's", got)
	}
	if got := errorsIn(calls[1].rep, root); len(got) != 0 {
		t.Errorf("the caller at the disk's content: errors %q, want none (the other's change is not its own)", got)
	}

	// Two changes to package a, each with its own error.
	own := func(word string) string { return "package a\n\nvar _ int = \"" + word + "\"\n" }
	calls = []*call{
		{docs: []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n\nfunc F() int { return 1 }\n" + strings.TrimPrefix(own("one"), "package a\n")}}, files: []string{a}},
		{docs: []lsp.Document{{Path: a2, LanguageID: "go", Text: own("two")}}, files: []string{a2}},
	}
	ownOnly := func() {
		t.Helper()
		atOnce(t, s, calls, nil)
		for i, word := range []string{"one", "two"} {
			got := strings.Join(errorsIn(calls[i].rep, root), "\n")
			other := []string{"two", "one"}[i]
			if !strings.Contains(got, `"`+word+`"`) || strings.Contains(got, `"`+other+`"`) {
				t.Errorf("call %d: errors %q, want its own error (%s) only", i, got, word)
			}
		}
	}
	ownOnly()
	// Two changes to the same file.
	calls = []*call{
		{docs: []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n\nfunc F() int { return 1 }\n" + strings.TrimPrefix(own("one"), "package a\n")}}, files: []string{a}},
		{docs: []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n\nfunc F() int { return 1 }\n" + strings.TrimPrefix(own("two"), "package a\n")}}, files: []string{a}},
	}
	ownOnly()

	// a.go read at the disk's content by one caller, then broken on disk
	// before the other's request began: the other sees the disk's a.go
	// (and b's error), not the first caller's copy.
	first := atDisk(t, a)
	calls = []*call{
		{docs: []lsp.Document{first}, files: []string{a}},
		{docs: []lsp.Document{atDisk(t, c)}, files: []string{c}},
	}
	atOnce(t, s, calls, func() {
		testtree.Put(t, root, "a/a.go", "package a\n\nfunc H() int { return 1 }\n")
	})
	if got := tu.get(); len(got) != 0 {
		t.Errorf("shared turns %v, want none", got)
	}
	if got := errorsIn(calls[0].rep, root); len(got) != 0 {
		t.Errorf("the caller that sent a.go as it read it: errors %q, want none", got)
	}
	// When the other caller's turn came first, it saw the disk's a.go.
	// (After the first caller's turn, the server keeps its a.go open at
	// the content it stated, as it keeps any document at disk content.)
	if calls[1].rep.Versions[c] < calls[0].rep.Versions[a] {
		if got := errorsIn(calls[1].rep, root); len(got) != 1 || !strings.HasPrefix(got[0], "b/b.go: undefined: a.F") {
			t.Errorf("the caller that did not send a.go: errors %q, want b.go's from the disk's a.go", got)
		}
	}
}

// TestPoolSharesALaneForTheSameContent: callers of a pool of one lane
// that share (lsp.Sharing) and wait with the same content are handed the
// lane together when it is freed, and one turn answers them; a caller
// with other content waiting too gets a turn of its own, and its change
// reaches no other answer.
func TestPoolSharesALaneForTheSameContent(t *testing.T) {
	root := batchModule(t)
	p := lsp.NewPool(lsp.Config{Command: []string{gopls(t)}, Root: root, Settings: map[string]any{"diagnosticsDelay": "0s"}}, 1, 0)
	t.Cleanup(func() { _ = p.Close() })
	var tu turns
	lsp.OnShared(p.Primary(), tu.record)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a, b, c := filepath.Join(root, "a/a.go"), filepath.Join(root, "b/b.go"), filepath.Join(root, "c/c.go")
	diagnose(t, p.Primary(), nil, a)

	waiting := make(chan int, 16)
	lsp.OnPoolWaiting(p, func(n int) { waiting <- n })
	_, hold, err := p.Take(ctx, lsp.Want{})
	if err != nil {
		t.Fatal(err)
	}
	broken := lsp.Document{Path: a, LanguageID: "go", Text: "package a\n\nfunc H() int { return 1 }\n"}
	calls := []*call{
		{docs: []lsp.Document{atDisk(t, a)}},
		{docs: []lsp.Document{atDisk(t, b)}},
		{docs: []lsp.Document{atDisk(t, c)}},
		{docs: []lsp.Document{broken}},
	}
	wants := []lsp.Want{{}, {}, {}, {State: map[string]string{"a/a.go": "+" + broken.Text}}}
	var wg sync.WaitGroup
	for i, cl := range calls {
		wg.Go(func() {
			cctx := lsp.Sharing(lsp.Began(ctx))
			srv, done, err := p.Take(cctx, wants[i])
			if err != nil {
				cl.err = err
				return
			}
			defer done()
			cl.rep, cl.err = srv.Diagnose(cctx, cl.docs, []string{cl.docs[0].Path})
		})
	}
	for n := range waiting {
		if n == len(calls) {
			break
		}
	}
	hold()
	wg.Wait()
	for i, cl := range calls {
		if cl.err != nil {
			t.Fatalf("call %d: %v", i, cl.err)
		}
		got := errorsIn(cl.rep, root)
		switch {
		case i < 3 && len(got) != 0:
			t.Errorf("call %d at the disk's content: errors %q", i, got)
		case i == 3 && (len(got) != 1 || !strings.HasPrefix(got[0], "b/b.go: undefined: a.F")):
			t.Errorf("the call with a.go changed: errors %q, want b.go's", got)
		}
	}
	if got := tu.get(); !slices.Contains(got, 3) {
		t.Errorf("shared turns %v, want one of the 3 callers at the disk's content", got)
	}
}

// TestSharedTurnStaleDiskDocNotKept: documents at disk content that every
// caller of a shared turn read before the disk changed (the turn's own
// check of the disk finds the change) are sent as they state them but not
// kept open as the disk's: the next request that leaves them out sees the
// disk's new content (as for one caller: TestGoplsStaleDiskDocNotKept).
func TestSharedTurnStaleDiskDocNotKept(t *testing.T) {
	root, s, tu := sharedServer(t)
	a, b, c := filepath.Join(root, "a/a.go"), filepath.Join(root, "b/b.go"), filepath.Join(root, "c/c.go")
	diagnose(t, s, nil, a)

	read := atDisk(t, a) // read before the change
	calls := []*call{
		{docs: []lsp.Document{read}, files: []string{a}},
		{docs: []lsp.Document{read, atDisk(t, c)}, files: []string{c}},
	}
	atOnce(t, s, calls, func() {
		testtree.Put(t, root, "a/a.go", "package a\n\nfunc F() int { return \"one\" }\n")
	})
	if got := tu.get(); !slices.Equal(got, []int{2}) {
		t.Fatalf("shared turns %v, want one of 2", got)
	}
	if got := messages(diagnose(t, s, nil, a, b), a); len(got) != 1 || !strings.Contains(got[0], "cannot use") {
		t.Fatalf("a.go left out after a shared turn sent its old disk text: got %q, want the disk's cannot use", got)
	}
}

// TestSharedTurnCallerGivesUp: a caller of a shared turn whose context
// ends during the turn leaves it without holding up the others: when it
// is the leader, the callers it took along ask again, each answered about
// its own content; when it was taken along, the leader's answer is
// unchanged.
func TestSharedTurnCallerGivesUp(t *testing.T) {
	root := batchModule(t)
	s := newGopls(t, root)
	a, c := filepath.Join(root, "a/a.go"), filepath.Join(root, "c/c.go")
	diagnose(t, s, nil, a)
	for _, quits := range []int{0, 1} { // the leader, one taken along
		name := []string{"leader", "taken along"}[quits]
		t.Run(name, func(t *testing.T) {
			var tu turns
			cancels := map[string]context.CancelFunc{}
			calls := []*call{
				{docs: []lsp.Document{atDisk(t, a)}, files: []string{a}},
				{docs: []lsp.Document{atDisk(t, c)}, files: []string{c}},
			}
			for _, cl := range calls {
				var cancel context.CancelFunc
				cl.ctx, cancel = context.WithCancel(context.Background())
				defer cancel()
				cancels[cl.docs[0].Path] = cancel
			}
			quitter := ""
			lsp.OnShared(s, func(docs [][]lsp.Document) {
				tu.record(docs)
				quitter = docs[quits][0].Path
				cancels[quitter]()
			})
			defer lsp.OnShared(s, nil)
			race(t, s, calls, nil)
			if got := tu.get(); !slices.Equal(got, []int{2}) {
				t.Fatalf("shared turns %v, want one of 2", got)
			}
			for i, cl := range calls {
				own := cl.docs[0].Path
				if own == quitter {
					if cl.err != nil && !errors.Is(cl.err, context.Canceled) {
						t.Errorf("call %d, which gave up: %v, want a cancellation or its answer", i, cl.err)
					}
					continue
				}
				if cl.err != nil {
					t.Fatalf("call %d, which did not give up: %v", i, cl.err)
				}
				if len(cl.rep.Versions) != 1 || cl.rep.Versions[own] == 0 || len(errorsIn(cl.rep, root)) != 0 {
					t.Errorf("call %d: versions %v, errors %q, want its own document's version and no error", i, cl.rep.Versions, errorsIn(cl.rep, root))
				}
			}
		})
	}
}

// TestSharedTurnServerKilled: a server that dies during a shared turn
// gives every caller of the turn an error (or its correct answer), and the
// next request is answered by a new process.
func TestSharedTurnServerKilled(t *testing.T) {
	root, s, tu := sharedServer(t)
	a, b, c := filepath.Join(root, "a/a.go"), filepath.Join(root, "b/b.go"), filepath.Join(root, "c/c.go")
	diagnose(t, s, nil, a)
	pid, exited := s.PID(), lsp.Exited(s)
	proc, err := os.FindProcess(pid)
	if err != nil {
		t.Fatal(err)
	}
	var armed atomic.Bool
	lsp.TraceNotifications(s, func(string, any) {
		if armed.CompareAndSwap(true, false) {
			if err := proc.Kill(); err != nil {
				t.Error(err)
			}
			<-exited
		}
	})
	broken := lsp.Document{Path: a, LanguageID: "go", Text: "package a\n\nfunc H() int { return 1 }\n"}
	calls := []*call{
		{docs: []lsp.Document{broken}, files: []string{a}},
		{docs: []lsp.Document{broken, atDisk(t, c)}, files: []string{c}},
	}
	race(t, s, calls, func() { armed.Store(true) })
	if got := tu.get(); !slices.Equal(got, []int{2}) {
		t.Fatalf("shared turns %v, want one of 2", got)
	}
	if armed.Load() {
		t.Fatal("the shared turn sent nothing")
	}
	for i, cl := range calls {
		if cl.err != nil {
			if errors.Is(cl.err, context.DeadlineExceeded) || errors.Is(cl.err, context.Canceled) {
				t.Errorf("call %d: %v, want the server's death", i, cl.err)
			}
			continue
		}
		if got := messages(cl.rep, b); len(got) != 1 || !strings.Contains(got[0], "undefined: a.F") {
			t.Errorf("call %d answered after the server died: b.go %q", i, got)
		}
	}
	if got := messages(diagnose(t, s, []lsp.Document{broken}, a), b); len(got) != 1 || !strings.Contains(got[0], "undefined: a.F") {
		t.Errorf("after the shared turn: b.go %q", got)
	}
	if s.PID() == pid || s.Starts() != 2 {
		t.Errorf("pid %d (was %d), %d starts: want a new process", s.PID(), pid, s.Starts())
	}
}

// TestSharedLaneClosed: a caller waiting for the other holders of its
// lane to ask, one of which never does, gets ErrClosed when the pool
// closes, and so does a caller the pool would have taken along.
func TestSharedLaneClosed(t *testing.T) {
	root := module(t)
	p := newPool(t, root, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a := filepath.Join(root, "a/a.go")
	actx := lsp.Sharing(lsp.Began(ctx))
	srv, doneA, err := p.Take(actx, lsp.Want{})
	if err != nil {
		t.Fatal(err)
	}
	defer doneA()
	_, doneB, err := p.Take(lsp.Sharing(ctx), lsp.Want{}) // joins, never asks
	if err != nil {
		t.Fatal(err)
	}
	defer doneB()
	waiting := make(chan int, 4)
	lsp.OnWaiting(srv, func(n int) { waiting <- n })
	got := make(chan error, 1)
	go func() {
		_, err := srv.Diagnose(actx, nil, []string{a})
		got <- err
	}()
	<-waiting
	_ = p.Close()
	if err := <-got; !errors.Is(err, lsp.ErrClosed) {
		t.Fatalf("waiting for a holder that never asks, then closed: %v, want ErrClosed", err)
	}
}

// TestPoolSharingCallerLeavesTheQueue: a sharing caller that waited for a
// lane, then joined the one held with its content once nobody else
// waited, no longer counts as waiting: later callers of that content
// join the lane too, and it is free again once every holder gave it back.
func TestPoolSharingCallerLeavesTheQueue(t *testing.T) {
	root := module(t)
	p := newPool(t, root, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	waiting := make(chan int, 64)
	lsp.OnPoolWaiting(p, func(n int) { waiting <- n })
	_, doneA, err := p.Take(lsp.Sharing(ctx), lsp.Want{})
	if err != nil {
		t.Fatal(err)
	}
	other := lsp.Want{State: map[string]string{filepath.Join(root, "a/a.go"): "h"}}
	octx, ocancel := context.WithCancel(ctx)
	oerr := make(chan error, 1)
	go func() {
		_, _, err := p.Take(octx, other)
		oerr <- err
	}()
	<-waiting
	type held struct {
		done func()
		err  error
	}
	joined := make(chan held, 1)
	go func() {
		_, done, err := p.Take(lsp.Sharing(ctx), lsp.Want{})
		joined <- held{done, err}
	}()
	<-waiting // behind the caller with other content
	ocancel()
	if err := <-oerr; err == nil {
		t.Fatal("a caller with other content got the held lane")
	}
	lsp.WakePool(p)
	j := <-joined
	if j.err != nil {
		t.Fatal(j.err)
	}
	gone, stop := context.WithCancel(ctx)
	stop()
	_, doneN, err := p.Take(lsp.Sharing(gone), lsp.Want{})
	if err != nil {
		t.Fatalf("a sharing caller of the held lane's content, nobody waiting: %v, want the lane", err)
	}
	doneN()
	j.done()
	doneA()
	for _, w := range []lsp.Want{{}, other} {
		_, done, err := p.Take(lsp.Sharing(gone), w)
		if err != nil {
			t.Fatalf("every holder gave the lane back: %v, want it free", err)
		}
		done()
	}
}
