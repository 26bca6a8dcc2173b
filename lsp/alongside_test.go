package lsp_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp"
)

// TestAlongsideFollowsDisk: a request whose check of the inputs runs
// alongside it stands while nothing changed; a file written on disk with
// no event (no watcher, no FilesChanged) makes it fall, and the request
// asked again under the same request's ctx lists the new use.
func TestAlongsideFollowsDisk(t *testing.T) {
	root, _ := filepath.EvalSymlinks(module(t))
	s := lsp.NewServer(lsp.Config{Command: []string{gopls(t)}, Root: root, NoWatch: true, Settings: map[string]any{"diagnosticsDelay": "0s"}})
	t.Cleanup(func() { _ = s.Close() })
	a := filepath.Join(root, "a/a.go")
	at := lsp.Position{Line: 2, Character: 5} // "func F" in a.go
	bg, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	refs := func(ctx context.Context) int {
		t.Helper()
		locs, err := s.References(ctx, nil, a, at, false)
		if err != nil {
			t.Fatal(err)
		}
		return len(locs)
	}
	if n := refs(lsp.Began(bg)); n != 1 {
		t.Fatalf("first: %d references, want 1", n)
	}
	ask := func() (int, bool) {
		ctx := lsp.Began(bg)
		release := lsp.HoldAlongsideChecks()
		defer release()
		actx, settled := s.Alongside(ctx)
		n := refs(actx)
		release()
		if settled() {
			return n, true
		}
		return refs(ctx), false
	}
	if n, stood := ask(); n != 1 || !stood {
		t.Fatalf("nothing changed: %d references (want 1), stood %v (want true)", n, stood)
	}
	testtree.Put(t, root, "b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n\nvar Y = a.F()\n") // no event: the watcher is off
	if n, stood := ask(); n != 2 || stood {
		t.Fatalf("after a write on disk: %d references (want 2), stood %v (want false)", n, stood)
	}
	if n, stood := ask(); n != 2 || !stood {
		t.Fatalf("after that: %d references (want 2), stood %v (want true)", n, stood)
	}
}
