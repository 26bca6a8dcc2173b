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
