package modcache

import (
	"os"
	"path/filepath"
	"testing"
)

// TestCopy: the copy holds the regular files with writable modes, and
// neither .git nor symlinks.
func TestCopy(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	for name, content := range map[string]string{"go.mod": "module m\n", "a/a.go": "package a\n", ".git/HEAD": "ref\n"} {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	if err := Copy(src, dst); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dst, "a", "a.go"))
	if err != nil || st.Mode().Perm()&0o200 == 0 {
		t.Fatalf("a/a.go: %v, mode %v; want a writable copy", err, st)
	}
	for _, gone := range []string{".git", "link"} {
		if _, err := os.Lstat(filepath.Join(dst, gone)); !os.IsNotExist(err) {
			t.Errorf("%s was copied (%v)", gone, err)
		}
	}
}
