package lsp

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// walkLinks lists the symlinks under root as a walk finds them (outside
// the skipped directories), relative and slash-separated.
func walkLinks(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil || p == root:
		case d.IsDir() && skipDir(d.Name()):
			return filepath.SkipDir
		case d.Type()&fs.ModeSymlink != 0:
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	return out
}

// TestScanLinks: the check of the inputs knows every symlink under the
// root that a walk would find (outside VCS metadata and node_modules),
// through creations, new directories, removals, a file moved over a link
// and a directory moved away, with or without a watcher; once it cannot
// see every input it cannot tell.
func TestScanLinks(t *testing.T) {
	for _, noWatch := range []bool{false, true} {
		t.Run(fmt.Sprintf("nowatch=%v", noWatch), func(t *testing.T) { testScanLinks(t, noWatch) })
	}
}

func testScanLinks(t *testing.T, noWatch bool) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	outside := t.TempDir()
	link := func(target, p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	mkfile(t, filepath.Join(root, "a/a.go"), "package a\n")
	link(outside, filepath.Join(root, "a/out"))
	link("../outside", filepath.Join(root, ".git/x"))
	s := NewServer(Config{Name: "test", Root: root, NoWatch: noWatch})
	defer s.watch.stop(true)
	s.freshWatch()
	steps := []struct {
		name string
		do   func()
		want []string
	}{
		{"at the start", func() {}, []string{"a/out"}},
		{"created", func() { link("a.go", filepath.Join(root, "a/in")) }, []string{"a/in", "a/out"}},
		{"in a new directory", func() { link(outside, filepath.Join(root, "b/c/d")) }, []string{"a/in", "a/out", "b/c/d"}},
		{"removed", func() { _ = os.Remove(filepath.Join(root, "a/in")) }, []string{"a/out", "b/c/d"}},
		{"a file moved over", func() {
			mkfile(t, filepath.Join(root, "tmp"), "x\n")
			if err := os.Rename(filepath.Join(root, "tmp"), filepath.Join(root, "a/out")); err != nil {
				t.Fatal(err)
			}
		}, []string{"b/c/d"}},
		{"a directory moved away", func() {
			if err := os.Rename(filepath.Join(root, "b"), filepath.Join(outside, "b")); err != nil {
				t.Fatal(err)
			}
		}, nil},
		{"in node_modules", func() { link(outside, filepath.Join(root, "node_modules/m")) }, nil},
	}
	for _, st := range steps {
		st.do()
		got, ok := s.Links(Began(context.Background()))
		if !ok || !slices.Equal(got, st.want) || !slices.Equal(got, walkLinks(t, root)) {
			t.Fatalf("%s: got %v (ok %v), want %v (a walk finds %v)", st.name, got, ok, st.want, walkLinks(t, root))
		}
	}
	s.track.max = 3 // fewer than the inputs: the check cannot see them all
	if _, ok := s.Links(context.Background()); ok {
		t.Fatal("a check over the cap still claims to know every link")
	}
}

// TestServerLinks: a server that never started knows the root's links
// too: the check of the inputs needs no process.
func TestServerLinks(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.Symlink("x", filepath.Join(root, "l")); err != nil {
		t.Fatal(err)
	}
	s := NewServer(Config{Name: "test", Root: root})
	if got, ok := s.Links(context.Background()); !ok || !slices.Equal(got, []string{"l"}) {
		t.Fatalf("a server that never started: links %v (ok %v), want [l]", got, ok)
	}
}
