package rootfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteFileIf(t *testing.T) {
	root := t.TempDir()
	f, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	abs := filepath.Join(root, "a.txt")
	if err := os.WriteFile(abs, []byte("old\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	refuse := errors.New("refused")
	var seen string
	err = f.WriteFileIf("a.txt", []byte("new\n"), func(cur []byte, exists bool) error {
		seen = string(cur)
		if !exists {
			t.Error("exists = false for an existing file")
		}
		return refuse
	})
	if !errors.Is(err, refuse) || seen != "old\n" {
		t.Fatalf("err %v, check saw %q", err, seen)
	}
	if b, _ := os.ReadFile(abs); string(b) != "old\n" {
		t.Fatalf("a refused write changed the file: %q", b)
	}
	entries, _ := os.ReadDir(root)
	if len(entries) != 1 {
		t.Fatalf("a refused write left files behind: %v", entries)
	}
	if err := f.WriteFileIf("a.txt", []byte("new\n"), func([]byte, bool) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(abs); st.Mode().Perm() != 0o755 {
		t.Errorf("mode %o after WriteFileIf", st.Mode().Perm())
	}
	err = f.WriteFileIf("new.txt", []byte("x\n"), func(cur []byte, exists bool) error {
		if exists || cur != nil {
			t.Errorf("new file: exists %v, cur %q", exists, cur)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestRenameIfAndRemoveIf(t *testing.T) {
	root := t.TempDir()
	f, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a.txt", "b.txt"} {
		if err := os.WriteFile(filepath.Join(root, n), []byte(n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	refuse := errors.New("refused")
	no := func() error { return refuse }
	if err := f.RenameIf("a.txt", "c.txt", no); !errors.Is(err, refuse) {
		t.Fatalf("RenameIf refused: err %v", err)
	}
	if err := f.RemoveIf("b.txt", no); !errors.Is(err, refuse) {
		t.Fatalf("RemoveIf refused: err %v", err)
	}
	if entries, _ := os.ReadDir(root); len(entries) != 2 {
		t.Fatalf("refused operations changed the root: %v", entries)
	}
	called := 0
	yes := func() error { called++; return nil }
	if err := f.RenameIf("a.txt", "c.txt", yes); err != nil {
		t.Fatal(err)
	}
	if err := f.RemoveIf("b.txt", yes); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, "c.txt")); err != nil || string(b) != "a.txt" || called != 2 {
		t.Fatalf("c.txt = %q, %v; check called %d times", b, err, called)
	}
	if _, err := os.Stat(filepath.Join(root, "b.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("b.txt was not removed: %v", err)
	}
}
