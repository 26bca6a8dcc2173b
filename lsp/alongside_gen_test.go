package lsp

import (
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// TestAlongsideEarlierChangesNotSent: a request sent before another
// request's check found a change, and checked after that check, found
// nothing changed itself, yet does not stand: the change had not reached
// the server when it was asked.
func TestAlongsideEarlierChangesNotSent(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	testtree.Put(t, root, "a.go", "package a\n")
	s := NewServer(Config{Name: "none", Command: []string{"none"}, Root: root, NoWatch: true})
	t.Cleanup(func() { _ = s.Close() })
	if _, problem := s.track.scan(); problem != "" {
		t.Fatal(problem)
	}
	b := &alongside{s: s, done: make(chan struct{})}
	if got := b.collect(); len(got) != 0 {
		t.Fatalf("changes before the write: %v", got)
	}
	testtree.Put(t, root, "b.go", "package a\n")
	// Another request's check finds the change, after b was sent.
	if changes, _, _ := s.track.scanInto(s.watch.add); len(changes) != 1 {
		t.Fatalf("the other request's check: %v", changes)
	}
	// b's own check, after it, finds nothing new.
	changes, problem, prev := s.track.scanInto(s.watch.add)
	b.found, b.prev = len(changes) > 0 || problem != "", prev
	close(b.done)
	if b.found {
		t.Fatalf("b's check found %v", changes)
	}
	if b.settled() {
		t.Fatal("b stands, though the change reached no request before it")
	}
	// The next request takes the change before it is sent (waiting for
	// its own check, done here first), and stands.
	c := &alongside{s: s, done: make(chan struct{})}
	changes, problem, prev = s.track.scanInto(s.watch.add)
	c.found, c.prev = len(changes) > 0 || problem != "", prev
	close(c.done)
	if got := c.collect(); len(got) != 1 {
		t.Fatalf("the next request's changes: %v", got)
	}
	if !c.settled() {
		t.Fatal("the next request does not stand")
	}
}
