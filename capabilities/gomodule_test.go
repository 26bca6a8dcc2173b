package capabilities_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
)

// TestGoModuleLookup pins the one rule gofumpt and staticcheck share: the
// nearest go.mod or go.work at or above the root, past the root.
func TestGoModuleLookup(t *testing.T) {
	top := t.TempDir()
	root := filepath.Join(top, "mod", "sub", "root")
	if err := os.MkdirAll(filepath.Join(root, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	put := func(p string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(top, p), []byte("module m\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("mod/go.mod")
	if dir, gomod, work := capabilities.GoModule(root); dir != filepath.Join(top, "mod") || !gomod || work {
		t.Errorf("go.mod two levels up: got %q %v %v", dir, gomod, work)
	}
	put("mod/sub/go.work")
	if dir, gomod, work := capabilities.GoModule(root); dir != filepath.Join(top, "mod", "sub") || gomod || !work {
		t.Errorf("a nearer go.work: got %q %v %v", dir, gomod, work)
	}
	put("mod/sub/root/go.mod")
	if dir, gomod, _ := capabilities.GoModule(root); dir != root || !gomod {
		t.Errorf("the root's own go.mod: got %q %v", dir, gomod)
	}
	if err := os.Mkdir(filepath.Join(root, "dir", "go.mod"), 0o755); err != nil {
		t.Fatal(err)
	}
	if dir, _, _ := capabilities.GoModule(filepath.Join(root, "dir")); dir != root {
		t.Errorf("a directory named go.mod counted: got %q", dir)
	}
}
