package lsp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestWatcherStartRetried: a watcher that cannot start is not tried again
// until its wait is over, then starts; meanwhile every change (changed,
// created, deleted, devbroker's own) is found at the next request all the
// same: the watcher's events are hints, the check of the inputs finds
// them.
func TestWatcherStartRetried(t *testing.T) {
	if !watchable {
		t.Skip("no disk watcher on this platform")
	}
	root := t.TempDir()
	a, d, n := filepath.Join(root, "a/a.go"), filepath.Join(root, "d.go"), filepath.Join(root, "a/n.go")
	mkfile(t, a, "package a\n")
	mkfile(t, d, "package m\n")
	s := NewServer(Config{Name: "test", Root: root})
	defer s.watch.stop(true)
	attempts := 0
	s.watch.start = func(root string, log *slog.Logger) (*watcher, error) {
		attempts++
		if attempts == 1 {
			return nil, errors.New("injected failure")
		}
		return newWatcher(root, log)
	}
	ctx := context.Background()
	s.freshWatch() // the process starts without a watcher
	if msg := s.WatchStatus(); !strings.Contains(msg, "injected failure") || !strings.Contains(msg, "next request from") {
		t.Fatalf("WatchStatus after a failed start = %q, want the failure and when it is tried again", msg)
	}
	mkfile(t, a, "package a\n\nvar X = 1\n")
	mkfile(t, n, "package a\n")
	if err := os.Remove(d); err != nil {
		t.Fatal(err)
	}
	changes, err := s.collect(ctx)
	if want := map[string]bool{a: false, n: true, d: false}; err != nil || !maps.Equal(changes, want) || attempts != 1 {
		t.Fatalf("within the wait: changes %v, err %v, %d attempts; want %v and no new attempt", changes, err, attempts, want)
	}
	own := filepath.Join(root, "own.go")
	s.FilesChanged([]string{own}) // devbroker's own write
	mkfile(t, own, "package m\n")
	if changes, err := s.collect(ctx); err != nil || !maps.Equal(changes, map[string]bool{own: true}) {
		t.Fatalf("own write within the wait: changes %v, err %v", changes, err)
	}
	s.watch.next = time.Time{} // the wait is over
	changes, err = s.collect(ctx)
	if err != nil || attempts != 2 || len(changes) != 0 {
		t.Fatalf("after the wait: changes %v, err %v, %d attempts; want nothing new and a second attempt", changes, err, attempts)
	}
	if msg := s.WatchStatus(); msg != "" {
		t.Fatalf("WatchStatus with the watcher back = %q", msg)
	}
}

// TestWatcherRetryWait: a watcher that fails while running is started
// again by the next request; failures in a row wait longer, up to
// watchRetryMax.
func TestWatcherRetryWait(t *testing.T) {
	cases := []struct {
		fails   int
		running bool
		want    time.Duration
	}{
		{1, true, 0}, {1, false, 5 * time.Second}, {2, true, 5 * time.Second}, {2, false, 10 * time.Second},
		{3, false, 20 * time.Second}, {4, false, 40 * time.Second}, {5, false, time.Minute}, {100, false, time.Minute},
	}
	for _, c := range cases {
		if got := retryWait(c.fails, c.running); got != c.want {
			t.Errorf("retryWait(%d, %v) = %v, want %v", c.fails, c.running, got, c.want)
		}
	}
}

// TestWatcherDropped: a watcher whose loop ended is given up by the next
// request, which still finds what changed; a restart that fails waits;
// the restart after the wait finds the watcher back, and nothing was
// missed meanwhile.
func TestWatcherDropped(t *testing.T) {
	if !watchable {
		t.Skip("no disk watcher on this platform")
	}
	root := t.TempDir()
	a, d := filepath.Join(root, "a/a.go"), filepath.Join(root, "d.go")
	mkfile(t, a, "package a\n")
	mkfile(t, d, "package m\n")
	s := NewServer(Config{Name: "test", Root: root})
	defer s.watch.stop(true)
	fail := false
	s.watch.start = func(root string, log *slog.Logger) (*watcher, error) {
		if fail {
			return nil, errors.New("injected failure")
		}
		return newWatcher(root, log)
	}
	ctx := context.Background()
	s.freshWatch()
	collect := func(what string, want map[string]bool) {
		t.Helper()
		changes, err := s.collect(ctx)
		if err != nil || !maps.Equal(changes, want) {
			t.Fatalf("%s: changes %v, err %v; want %v", what, changes, err, want)
		}
	}
	collect("before", map[string]bool{})
	w := s.watch.running()
	if !BreakWatcher(s) {
		t.Fatal("no watcher")
	}
	<-w.done
	mkfile(t, a, "package a\n\nvar A = 1\n")
	collect("the watcher broke", map[string]bool{a: false})
	if msg := s.WatchStatus(); !strings.Contains(msg, "failed") || !strings.Contains(msg, "next request") {
		t.Fatalf("WatchStatus after the failure = %q", msg)
	}
	fail = true
	collect("the restart failed", map[string]bool{})
	if err := os.Remove(d); err != nil {
		t.Fatal(err)
	}
	collect("within the wait", map[string]bool{d: false})
	if msg := s.WatchStatus(); !strings.Contains(msg, "injected failure") || !strings.Contains(msg, "from") {
		t.Fatalf("WatchStatus after a failed restart = %q", msg)
	}
	fail, s.watch.next = false, time.Time{}
	collect("started again", map[string]bool{})
	if s.WatchStatus() != "" {
		t.Fatalf("the watcher is not back: %q", s.WatchStatus())
	}
}

// TestWatcherSystemLimit: a watcher that cannot start because the system's
// inotify limits are reached is not tried again (each try walks the whole
// root on a request's time) until the server's process starts again; the
// status says so and how to raise the limit.
func TestWatcherSystemLimit(t *testing.T) {
	if !watchable {
		t.Skip("no disk watcher on this platform")
	}
	root := t.TempDir()
	s := NewServer(Config{Name: "test", Root: root})
	defer s.watch.stop(true)
	attempts := 0
	s.watch.start = func(root string, log *slog.Logger) (*watcher, error) {
		attempts++
		if attempts == 1 {
			return nil, fmt.Errorf("watching %s: %w", root, syscall.ENOSPC)
		}
		return newWatcher(root, log)
	}
	s.freshWatch()
	msg := s.WatchStatus()
	if !strings.Contains(msg, "max_user_watches") || !strings.Contains(msg, "when "+s.cfg.Name+" starts again") {
		t.Fatalf("WatchStatus = %q, want the limit to raise and when it is tried again", msg)
	}
	s.watch.next = time.Time{} // even once a retry's wait would be over
	if _, err := s.collect(context.Background()); err != nil || attempts != 1 {
		t.Fatalf("collect: err %v, %d attempts; want no new attempt", err, attempts)
	}
	s.watch.stop(false) // the process stopped; the next one tries again
	s.freshWatch()
	if attempts != 2 || s.WatchStatus() != "" {
		t.Fatalf("after a restart: %d attempts, status %q; want a second, successful attempt", attempts, s.WatchStatus())
	}
}
