package lsp_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp"
)

// TestGoplsFollowsDiskWrites: a file gopls does not have open changes on
// disk (written by another process); the next request on a dependent
// package sees the change, and sees it again when it is undone.
func TestGoplsFollowsDiskWrites(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b := filepath.Join(root, "b/b.go")
	bDoc := func() []lsp.Document {
		data, err := os.ReadFile(b)
		if err != nil {
			t.Fatal(err)
		}
		return []lsp.Document{{Path: b, LanguageID: "go", Text: string(data)}}
	}
	check := func(what string, want string) {
		t.Helper()
		rep, err := s.Diagnose(ctx, bDoc(), []string{b})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got := messages(rep, b)
		switch {
		case want == "" && len(got) != 0:
			t.Fatalf("%s: b.go: got %q, want clean", what, got)
		case want != "" && (len(got) == 0 || !strings.Contains(strings.Join(got, "\n"), want)):
			t.Fatalf("%s: b.go: got %q, want %q", what, got, want)
		}
	}
	check("before", "")
	testtree.Put(t, root, "a/a.go", "package a\n\nfunc F(x int) int { return x }\n")
	check("after the signature changed on disk", "not enough arguments in call to a.F")
	testtree.Put(t, root, "a/a.go", "package a\n\nfunc F() int { return 1 }\n")
	check("after it was restored", "")
	// A new file in a new directory that b starts to import.
	testtree.Put(t, root, "c/c.go", "package c\n\nconst C = \"x\"\n")
	testtree.Put(t, root, "b/b.go", "package b\n\nimport (\n\t\"example.com/m/a\"\n\t\"example.com/m/c\"\n)\n\nvar X int = a.F() + c.C\n")
	check("after a new package appeared", "mismatched types")
	if err := os.Remove(filepath.Join(root, "c/c.go")); err != nil {
		t.Fatal(err)
	}
	check("after the new package was deleted", "could not import example.com/m/c")
	testtree.Put(t, root, "b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n")
	check("after b was restored", "")
}

// TestGoplsFollowsExplicitChanges: with the watcher off, FilesChanged
// tells the server, and a change nobody told of is found all the same.
func TestGoplsFollowsExplicitChanges(t *testing.T) {
	root := module(t)
	s := lsp.NewServer(lsp.Config{Command: []string{gopls(t)}, Root: root, Settings: map[string]any{"diagnosticsDelay": "0s"}, NoWatch: true})
	t.Cleanup(func() { _ = s.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	a, b := filepath.Join(root, "a/a.go"), filepath.Join(root, "b/b.go")
	docs := []lsp.Document{{Path: b, LanguageID: "go", Text: "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n"}}
	rep, err := s.Diagnose(ctx, docs, []string{b})
	if err != nil || len(rep.Files) != 0 {
		t.Fatalf("before: %v %v", rep, err)
	}
	testtree.Put(t, root, "a/a.go", "package a\n\nfunc F(x int) int { return x }\n")
	s.FilesChanged([]string{a})
	rep, err = s.Diagnose(ctx, docs, []string{b})
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(rep, b); len(got) == 0 || !strings.Contains(got[0], "not enough arguments") {
		t.Fatalf("after FilesChanged: b.go: got %q", got)
	}
	testtree.Put(t, root, "a/a.go", "package a\n\nfunc G() int { return 1 }\n")
	rep, err = s.Diagnose(ctx, docs, []string{b})
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(rep, b); len(got) == 0 || !strings.Contains(got[0], "undefined: a.F") {
		t.Fatalf("after a change nobody told of: b.go: got %q", got)
	}
	if msg := s.WatchStatus(); !strings.Contains(msg, "off") || !strings.Contains(msg, "still found") {
		t.Errorf("WatchStatus with the watcher off = %q, want it off and changes still found", msg)
	}
	if msg := s.Unverified(); msg != "" {
		t.Errorf("Unverified = %q, want every input verified", msg)
	}
}

// TestCancelledRequestKeepsDiskChanges: a request whose context is
// cancelled (an MCP client cancelling a check, a driver's timeout) neither
// turns the disk watcher off nor loses the changes collected for the
// server: the next request still sees a change another process made.
func TestCancelledRequestKeepsDiskChanges(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b := filepath.Join(root, "b/b.go")
	docs := []lsp.Document{{Path: b, LanguageID: "go", Text: "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n"}}
	if rep, err := s.Diagnose(ctx, docs, []string{b}); err != nil || len(messages(rep, b)) != 0 {
		t.Fatalf("before: %v %v", rep, err)
	}
	testtree.Put(t, root, "a/a.go", "package a\n\nfunc F(x int) int { return x }\n")
	done, stop := context.WithCancel(context.Background())
	stop()
	// A cancelled request may stop while waiting for its turn; many of
	// them reach the disk flush.
	for range 50 {
		if _, err := s.Diagnose(done, docs, []string{b}); err == nil {
			t.Fatal("a cancelled request succeeded")
		}
	}
	if msg := s.WatchStatus(); msg != "" {
		t.Errorf("after cancelled requests, WatchStatus = %q, want the watcher still on", msg)
	}
	rep, err := s.Diagnose(ctx, docs, []string{b})
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(rep, b); len(got) == 0 || !strings.Contains(got[0], "not enough arguments") {
		t.Fatalf("after cancelled requests, b.go: got %q, want the change on disk seen", got)
	}
}

// TestGoplsWatcherComesBack: a disk watcher that fails is started again by
// the next request, and what changed on disk while it was down (a changed
// file, a deleted one) is seen by the request after the failure.
func TestGoplsWatcherComesBack(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b := filepath.Join(root, "b/b.go")
	check := func(what, text, want string) {
		t.Helper()
		rep, err := s.Diagnose(ctx, []lsp.Document{{Path: b, LanguageID: "go", Text: text}}, []string{b})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got := strings.Join(messages(rep, b), "\n")
		if (want == "") != (got == "") || !strings.Contains(got, want) {
			t.Fatalf("%s: b.go: got %q, want %q", what, got, want)
		}
	}
	// fail breaks the watcher; the next request finds it broken and says so.
	fail := func(text string) {
		t.Helper()
		if !lsp.BreakWatcher(s) {
			t.Fatal("no watcher to break")
		}
		check("the request that finds the watcher broken", text, "")
		// The watcher is a hint: the request that finds it broken may
		// already have started the next one (its first retry waits for
		// nothing), so the status is either the failure with when the
		// watcher comes back, or nothing. No answer depends on it.
		if msg := s.WatchStatus(); msg != "" && (!strings.Contains(msg, "failed") || !strings.Contains(msg, "next request")) {
			t.Fatalf("WatchStatus with the watcher down = %q, want the failure and when it comes back", msg)
		}
	}
	plain := "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n"
	check("before", plain, "")
	fail(plain)
	testtree.Put(t, root, "a/a.go", "package a\n\nfunc F(x int) int { return x }\n")
	check("after a change made while the watcher was down", plain, "not enough arguments in call to a.F")
	if msg := s.WatchStatus(); msg != "" {
		t.Fatalf("WatchStatus after the watcher came back = %q, want none", msg)
	}
	testtree.Put(t, root, "a/a.go", "package a\n\nfunc F() int { return 1 }\n")
	testtree.Put(t, root, "c/c.go", "package c\n\nconst C = 1\n")
	withC := "package b\n\nimport (\n\t\"example.com/m/a\"\n\t\"example.com/m/c\"\n)\n\nvar X = a.F() + c.C\n"
	check("with a new package", withC, "")
	fail(withC)
	if err := os.Remove(filepath.Join(root, "c/c.go")); err != nil {
		t.Fatal(err)
	}
	check("after a file was deleted while the watcher was down", withC, "example.com/m/c")
}

// TestGoplsLostEventsStillSeen: a watcher that lost every event (its
// watches gone) tells nothing; the change whose event was lost is found by
// the check of the inputs all the same.
func TestGoplsLostEventsStillSeen(t *testing.T) {
	root := module(t)
	s := newGopls(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	b := filepath.Join(root, "b/b.go")
	docs := []lsp.Document{{Path: b, LanguageID: "go", Text: "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n"}}
	if rep, err := s.Diagnose(ctx, docs, []string{b}); err != nil || len(messages(rep, b)) != 0 {
		t.Fatalf("before: %v %v", rep, err)
	}
	if !lsp.StallWatcher(s) {
		t.Fatal("no watcher to stall")
	}
	testtree.Put(t, root, "a/a.go", "package a\n\nfunc F(x int) int { return x }\n")
	rep, err := s.Diagnose(ctx, docs, []string{b})
	if err != nil {
		t.Fatal(err)
	}
	if got := messages(rep, b); len(got) == 0 || !strings.Contains(got[0], "not enough arguments") {
		t.Fatalf("after the events were lost: b.go: got %q, want the change whose event was lost seen", got)
	}
}
