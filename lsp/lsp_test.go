package lsp_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

func TestMain(m *testing.M) {
	lsptest.Main()
	os.Exit(m.Run())
}

// gopls finds gopls by devbroker's rule, from this module (which declares
// it as a tool), or skips.
func gopls(t testing.TB) string {
	t.Helper()
	wd, _ := os.Getwd()
	p, _, err := lsp.FindServer(context.Background(), "gopls", filepath.Dir(wd), true)
	if err != nil {
		t.Skipf("no gopls: %v", err)
	}
	return p
}

// module writes a module with package a and package b importing a.
func module(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	testtree.Put(t, root, "go.mod", "module example.com/m\n\ngo 1.22\n")
	testtree.Put(t, root, "a/a.go", "package a\n\nfunc F() int { return 1 }\n")
	testtree.Put(t, root, "b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n")
	return root
}

func newGopls(t testing.TB, root string) *lsp.Server {
	t.Helper()
	s := lsp.NewServer(lsp.Config{Command: []string{gopls(t)}, Root: root, Settings: map[string]any{"diagnosticsDelay": "0s"}})
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func messages(rep *lsp.Report, path string) []string {
	var out []string
	for _, d := range rep.Files[path] {
		out = append(out, d.Message)
	}
	sort.Strings(out)
	return out
}

func TestGoplsDependentPackage(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a, b := filepath.Join(root, "a/a.go"), filepath.Join(root, "b/b.go")

	rep, err := s.Diagnose(ctx, nil, []string{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 0 {
		t.Fatalf("clean module: got %v", rep.Files)
	}
	// Rename F in memory only: b breaks.
	broken := []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n\nfunc G() int { return 1 }\n"}}
	rep, err = s.Diagnose(ctx, broken, []string{a})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Settle != lsp.SettleBarrier {
		t.Errorf("settle = %s, want barrier", rep.Settle)
	}
	if got := messages(rep, b); len(got) != 1 || !strings.Contains(got[0], "undefined: a.F") {
		t.Fatalf("b.go: got %q, want undefined: a.F (all: %v)", got, rep.Files)
	}
	// Fix it in memory: b is clean again.
	fixed := []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n\nfunc G() int { return 1 }\n\nfunc F() int { return G() }\n"}}
	rep, err = s.Diagnose(ctx, fixed, []string{a})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 0 {
		t.Fatalf("after fix: got %v", rep.Files)
	}
	// A file that exists only in memory.
	added := filepath.Join(root, "a/new.go")
	rep, err = s.Diagnose(ctx, append(fixed, lsp.Document{Path: added, LanguageID: "go", Text: "package a\n\nvar Y string = 1\n"}), []string{added})
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(rep, added); len(got) != 1 || !strings.Contains(got[0], "cannot use 1") {
		t.Fatalf("new.go: got %q", got)
	}
	// Back to disk: everything closed, clean.
	rep, err = s.Diagnose(ctx, nil, []string{a})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 0 {
		t.Fatalf("back to disk: got %v", rep.Files)
	}
}

func TestGoplsFreshness(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a := filepath.Join(root, "a/a.go")
	var lat []time.Duration
	for i := range 200 {
		name := fmt.Sprintf("undefined%d", i)
		doc := lsp.Document{Path: a, LanguageID: "go", Text: fmt.Sprintf("package a\n\nfunc F() int { return %s }\n", name)}
		start := time.Now()
		rep, err := s.Diagnose(ctx, []lsp.Document{doc}, []string{a})
		if err != nil {
			t.Fatalf("cycle %d: %v", i, err)
		}
		lat = append(lat, time.Since(start))
		got := messages(rep, a)
		if len(got) != 1 || got[0] != "undefined: "+name {
			t.Fatalf("cycle %d: got %q, want [undefined: %s]", i, got, name)
		}
	}
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	t.Logf("edit→diagnostics over 200 cycles: min %v, median %v, p90 %v, max %v (first cycle includes start)", lat[0], lat[100], lat[180], lat[199])
}

func TestGoplsConcurrentCallers(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a := filepath.Join(root, "a/a.go")
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 6 {
		wg.Go(func() {
			for i := range 5 {
				name := fmt.Sprintf("caller%d_%d", g, i)
				doc := lsp.Document{Path: a, LanguageID: "go", Text: fmt.Sprintf("package a\n\nfunc F() int { return %s }\n", name)}
				rep, err := s.Diagnose(ctx, []lsp.Document{doc}, []string{a})
				if err != nil {
					errs <- err
					return
				}
				if got := messages(rep, a); len(got) != 1 || got[0] != "undefined: "+name {
					errs <- fmt.Errorf("%s: got %q", name, got)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := s.Starts(); n != 1 {
		t.Errorf("%d servers started, want 1", n)
	}
}

func TestGoplsKilledRestarts(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a, b := filepath.Join(root, "a/a.go"), filepath.Join(root, "b/b.go")
	broken := []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n\nfunc G() int { return 1 }\n"}}
	if _, err := s.Diagnose(ctx, broken, []string{a}); err != nil {
		t.Fatal(err)
	}
	pid, exited := s.PID(), lsp.Exited(s)
	proc, err := os.FindProcess(pid)
	if err == nil {
		err = proc.Kill() // SIGKILL where there are signals
	}
	if err != nil {
		t.Fatal(err)
	}
	<-exited // the death is noticed
	if s.PID() != 0 {
		t.Fatal("the killed server still counts as running")
	}
	// The open document is re-sent to the new server; the request's own
	// content is what counts.
	rep, err := s.Diagnose(ctx, broken, []string{a})
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(rep, b); len(got) != 1 || !strings.Contains(got[0], "undefined: a.F") {
		t.Fatalf("after restart: b.go got %q", got)
	}
	if s.Starts() != 2 || s.PID() == pid {
		t.Errorf("starts = %d, pid %d (was %d)", s.Starts(), s.PID(), pid)
	}
}

func TestGoplsFormatAndFix(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a := filepath.Join(root, "a/a.go")
	docs := []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n\nfunc   F() int {\nreturn 1 }\n"}}
	edits, err := s.Format(ctx, docs, a)
	if err != nil {
		t.Fatal(err)
	}
	if len(edits) == 0 {
		t.Fatal("no formatting edits")
	}
	// An unused variable: gopls offers a quick fix.
	docs = []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n\nfunc F() int {\n\tx := 1\n\treturn 1\n}\n"}}
	rep, err := s.Diagnose(ctx, docs, []string{a})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files[a]) == 0 {
		t.Fatal("no diagnostic for the unused variable")
	}
	fixes, err := s.Fixes(ctx, docs, a, rep.Files[a])
	if err != nil {
		t.Fatal(err)
	}
	if len(fixes) == 0 || len(fixes[0].Edits[a]) == 0 {
		t.Fatalf("no fix: %+v", fixes)
	}
	t.Logf("fix %q: %+v", fixes[0].Title, fixes[0].Edits[a])
}

func fake(t *testing.T, mode string, idle time.Duration) *lsp.Server {
	t.Helper()
	s := lsp.NewServer(lsp.Config{Name: "fake", Command: []string{os.Args[0]}, Root: t.TempDir(), Env: []string{lsptest.EnvVar + "=" + mode}, IdleTimeout: idle})
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestFakeHangTimesOut(t *testing.T) {
	s := fake(t, lsptest.Hang, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := s.Diagnose(ctx, nil, nil)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want deadline exceeded", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("took %v", took)
	}
	if s.PID() != 0 {
		t.Error("the hung server is still running")
	}
	start = time.Now()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("close took %v", took)
	}
}

func TestFakeCrash(t *testing.T) {
	s := fake(t, lsptest.Crash, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := s.Diagnose(ctx, nil, nil)
	if !errors.Is(err, lsp.ErrExited) {
		t.Fatalf("err = %v, want ErrExited", err)
	}
	if !strings.Contains(err.Error(), "fake: crashing on initialize") || !strings.Contains(err.Error(), "exit status 3") {
		t.Errorf("err = %v: want the exit status and stderr", err)
	}
}

func TestFakeBabble(t *testing.T) {
	s := fake(t, lsptest.Babble, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p := filepath.Join(t.TempDir(), "x.txt")
	_, err := s.Diagnose(ctx, []lsp.Document{{Path: p, LanguageID: "text", Text: "x"}}, []string{p})
	if !errors.Is(err, lsp.ErrExited) {
		t.Fatalf("err = %v, want ErrExited", err)
	}
	// The next request starts a new one (which babbles again).
	_, err = s.Diagnose(ctx, []lsp.Document{{Path: p, LanguageID: "text", Text: "y"}}, []string{p})
	if !errors.Is(err, lsp.ErrExited) || s.Starts() != 2 {
		t.Fatalf("err = %v, starts %d", err, s.Starts())
	}
}

func TestFakeGarbage(t *testing.T) {
	s := fake(t, lsptest.Garbage, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p := filepath.Join(t.TempDir(), "x.txt")
	rep, err := s.Diagnose(ctx, []lsp.Document{{Path: p, LanguageID: "text", Text: "abc"}}, []string{p})
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(rep, p); len(got) != 2 || got[0] != "fake error v1" {
		t.Fatalf("got %q", got)
	}
	if rep.Settle != lsp.SettlePush {
		t.Errorf("settle %s", rep.Settle)
	}
}

// A server idle for its idle timeout stops, and the next request starts
// it again. The test expires the idle time itself (lsp.ExpireIdle) instead
// of waiting for the timer, which an hour's timeout keeps from firing.
func TestFakePushAndIdle(t *testing.T) {
	s := fake(t, lsptest.Push, time.Hour)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p := filepath.Join(t.TempDir(), "x.txt")
	for i, text := range []string{"a", "b", "b", "c"} {
		rep, err := s.Diagnose(ctx, []lsp.Document{{Path: p, LanguageID: "text", Text: text}}, []string{p})
		if err != nil {
			t.Fatal(err)
		}
		want := map[int]string{0: "push v1", 1: "push v2", 2: "push v2", 3: "push v3"}[i]
		if got := messages(rep, p); len(got) != 1 || got[0] != want {
			t.Fatalf("request %d: got %q, want %s", i, got, want)
		}
	}
	if lsp.ExpireIdle(s, time.Minute); s.PID() == 0 {
		t.Fatal("a server used a minute ago stopped for an hour's idle timeout")
	}
	if lsp.ExpireIdle(s, time.Hour); s.PID() != 0 {
		t.Fatal("the idle server did not stop")
	}
	rep, err := s.Diagnose(ctx, []lsp.Document{{Path: p, LanguageID: "text", Text: "d"}}, []string{p})
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(rep, p); len(got) != 1 || s.Starts() != 2 {
		t.Fatalf("after idle: got %q, starts %d", got, s.Starts())
	}
}

func TestSupervisorShares(t *testing.T) {
	sup := lsp.NewSupervisor()
	defer sup.Close()
	cfg := lsp.Config{Command: []string{os.Args[0]}, Root: t.TempDir(), Env: []string{lsptest.EnvVar + "=" + lsptest.Push}}
	s1, rel1, _ := sup.Acquire(cfg)
	s2, rel2, _ := sup.Acquire(cfg)
	if s1 != s2 {
		t.Fatal("two servers for one command and root")
	}
	rel1()
	rel1()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := s2.Diagnose(ctx, nil, nil); err != nil {
		t.Fatalf("after one release: %v", err)
	}
	rel2()
	if _, err := s2.Diagnose(ctx, nil, nil); !errors.Is(err, lsp.ErrClosed) {
		t.Fatalf("after the last release: %v", err)
	}
}

// TestFakeDisconnectMidRequest: a server that exits, closes its pipe, or
// announces a message over the limit while a request waits on it is an
// exited server (ErrExited), never a timeout, and the error says why.
func TestFakeDisconnectMidRequest(t *testing.T) {
	for mode, want := range map[string]string{
		lsptest.ExitMidRequest:  "fake: exiting mid-request",
		lsptest.CloseMidRequest: "the connection broke",
		lsptest.HugeMessage:     "over the limit of 67108864 bytes",
	} {
		t.Run(mode, func(t *testing.T) {
			s := fake(t, mode, 0)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			doc := lsp.Document{Path: filepath.Join(t.TempDir(), "a.txt"), LanguageID: "plaintext", Text: "abc\n"}
			_, err := s.Diagnose(ctx, []lsp.Document{doc}, nil)
			if !errors.Is(err, lsp.ErrExited) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("err = %v, want ErrExited and no context error", err)
			}
			if !strings.Contains(err.Error(), want) {
				t.Errorf("err = %v, want it to say %q", err, want)
			}
		})
	}
}

// TestPulledAnswerIgnoresPushes: a server whose diagnostics are pulled
// may also push, without a version, for documents devbroker has since
// closed (typescript-language-server does). An answer settled by pulling
// holds what was pulled, never such a push.
func TestPulledAnswerIgnoresPushes(t *testing.T) {
	s := fake(t, lsptest.PullAndPush, 0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	docs := []lsp.Document{{Path: a, LanguageID: "text", Text: "a1"}, {Path: b, LanguageID: "text", Text: "b1"}}
	if _, err := s.Diagnose(ctx, docs, []string{a, b}); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Diagnose(ctx, docs[:1], []string{a})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Settle != lsp.SettlePull {
		t.Fatalf("settle %s, want pull", rep.Settle)
	}
	if got := messages(rep, a); len(got) != 1 || got[0] != "pull: a1" {
		t.Errorf("a: got %q, want the pulled warning", got)
	}
	if got := messages(rep, b); len(got) != 0 {
		t.Errorf("closed b: got %q, want nothing (a push for a closed document)", got)
	}
}
