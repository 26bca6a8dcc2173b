// Package testtree writes and reads file trees for tests: a tree is a map
// from slash-separated paths, relative to a directory, to file contents,
// as gopls's fake.Sandbox takes them. It is for tests only (no product
// package imports it; cmd/devbroker's rules test checks that) and imports
// nothing from the module, so any package's tests may use it.
//
// Files are written with mode 0o644 and their directories with 0o755;
// every failure fails the test.
package testtree

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// New writes files under a new temporary directory (t.TempDir) and
// returns the directory.
func New(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	Write(t, dir, files)
	return dir
}

// Write writes files under dir, creating their directories.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for p, content := range files {
		Put(t, dir, p, content)
	}
}

// Put writes one file at the slash path p under dir, creating its
// directories.
func Put(t testing.TB, dir, p, content string) {
	t.Helper()
	abs := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Read returns every file under dir (slash path → content), hidden ones
// included; a symlink is read through.
func Read(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}
