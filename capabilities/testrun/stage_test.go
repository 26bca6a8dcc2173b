package testrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

// TestStageKeepsWritesOutOfTheRoot: a symlink of the root that names a
// place in the root by its absolute path points into the copy, so that
// neither a test writing through it nor the staging of a changed file
// reaches the root.
func TestStageKeepsWritesOutOfTheRoot(t *testing.T) {
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, "real"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "target.py"), []byte("X = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "data")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "target.py"), filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	dst := t.TempDir()
	all := map[string]*text.Doc{"link.py": text.FromString("X = 2\n"), "target.py": text.FromString("X = 1\n")}
	if err := Stage(context.Background(), dst, root, all, []string{"link.py"}, nil); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "target.py")); string(b) != "X = 1\n" {
		t.Errorf("staging a changed file wrote the root's target.py: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "link.py")); string(b) != "X = 2\n" {
		t.Errorf("the copy's link.py holds %q", b)
	}
	// A test writes through the copy's data link.
	if err := os.WriteFile(filepath.Join(dst, "data", "out.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "real", "out.txt")); err == nil {
		t.Error("a write through the copy's data link reached the root")
	}
}

// TestStageStopsWithItsContext: a copy whose run ended (its timeout) stops
// with the context's error, not after copying the whole root.
func TestStageStopsWithItsContext(t *testing.T) {
	root := t.TempDir()
	for i := range 50 {
		if err := os.WriteFile(filepath.Join(root, "f"+string(rune('a'+i%26))+string(rune('a'+i/26))), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	dst := t.TempDir()
	if err := Stage(ctx, dst, root, nil, nil, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("Stage after its context ended: %v", err)
	}
	if entries, _ := os.ReadDir(dst); len(entries) != 0 {
		t.Errorf("Stage copied %d files after its context ended", len(entries))
	}
}
