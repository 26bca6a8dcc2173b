package rootfs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeBenchFiles are 62 files of 8 KiB in 31 directories (the shape of
// a module's format --write).
func writeBenchFiles(b *testing.B) (*FS, []FileWrite) {
	b.Helper()
	root := b.TempDir()
	var files []FileWrite
	for i := range 62 {
		p := fmt.Sprintf("d%d/f%d.go", i/2, i)
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte("package x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		files = append(files, FileWrite{Path: p, Content: strings.Repeat("x", 8<<10)})
	}
	f, err := New(root)
	if err != nil {
		b.Fatal(err)
	}
	return f, files
}

// BenchmarkWriteFiles writes the 62 files as one batch; compare it with
// BenchmarkWriteFileEach, one WriteFile after the other.
func BenchmarkWriteFiles(b *testing.B) {
	f, files := writeBenchFiles(b)
	for b.Loop() {
		if _, _, err := f.WriteFiles(b.Context(), files); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteFileEach(b *testing.B) {
	f, files := writeBenchFiles(b)
	for b.Loop() {
		for _, fw := range files {
			if err := f.WriteFile(fw.Path, []byte(fw.Content)); err != nil {
				b.Fatal(err)
			}
		}
	}
}
