package rootfs

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// benchTree writes 10,000 files, 100 per directory, in 100 directories
// nested four deep, under a new root.
func benchTree(b *testing.B) *FS {
	b.Helper()
	root := b.TempDir()
	for d := range 100 {
		dir := filepath.Join(root, fmt.Sprintf("a%d", d%5), fmt.Sprintf("b%d", d%20), fmt.Sprintf("c%d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for i := range 100 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	f, err := New(root)
	if err != nil {
		b.Fatal(err)
	}
	return f
}

// BenchmarkGlobAll is Glob("**") over 10,000 files; compare it with
// BenchmarkWalkDir, a bare filepath.WalkDir of the same tree (the floor).
func BenchmarkGlobAll(b *testing.B) { benchGlob(b, "**", 10000) }

func BenchmarkWalkDir(b *testing.B) {
	f := benchTree(b)
	b.ResetTimer()
	for b.Loop() {
		n := 0
		err := filepath.WalkDir(f.Root(), func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				n++
			}
			return err
		})
		if err != nil || n != 10000 {
			b.Fatalf("WalkDir: %d files, %v", n, err)
		}
	}
}

// BenchmarkGlobGoFiles is Glob("**/*.go") over the same tree: every
// directory read, every name matched.
func BenchmarkGlobGoFiles(b *testing.B) { benchGlob(b, "**/*.go", 10000) }

// BenchmarkGlobSubtree is Glob("a1/b1/**"): the walk starts at the
// literal base, 5 of the 100 directories.
func BenchmarkGlobSubtree(b *testing.B) { benchGlob(b, "a1/b1/**", 500) }

// BenchmarkGlobPruned is Glob("*/b1*/c1*/*.go"): 11 of the 100 leaf
// directories can match (c1, c10 to c19); pruning leaves the others unread.
func BenchmarkGlobPruned(b *testing.B) { benchGlob(b, "*/b1*/c1*/*.go", 1100) }

// benchGlob globs pattern over benchTree, expecting n matches.
func benchGlob(b *testing.B, pattern string, n int) {
	f := benchTree(b)
	b.ResetTimer()
	for b.Loop() {
		m, err := f.Glob(pattern)
		if err != nil || len(m) != n {
			b.Fatalf("Glob(%q): %d matches, want %d; %v", pattern, len(m), n, err)
		}
	}
}
