package search

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/workspace"
)

// The search benchmarks run over one tree of 10,000 files of about 2 KiB
// (100 per directory, in 100 directories nested three deep, with a
// .gitignore), 20 of which hold the needle once. BenchmarkFloor is what
// `grep -rn` does at least: a bare filepath.WalkDir, os.ReadFile and
// bytes.Contains of every file; compare BenchmarkSearch* with it.

var (
	benchOnce sync.Once
	benchRoot string
)

// TestMain removes the benchmarks' tree.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchRoot != "" {
		os.RemoveAll(benchRoot)
	}
	os.Exit(code)
}

// benchTree writes the tree once per process, for every benchmark of the
// run (TestMain removes it), and returns its root.
func benchTree(b *testing.B) string {
	b.Helper()
	benchOnce.Do(func() {
		root, err := os.MkdirTemp("", "devbroker-search-bench-")
		if err != nil {
			b.Fatal(err)
		}
		line := "func example(x int) int { return x * 2 } // some ordinary code\n"
		body := strings.Repeat(line, 32)
		for d := range 100 {
			dir := filepath.Join(root, fmt.Sprintf("a%d", d%5), fmt.Sprintf("b%d", d%20), fmt.Sprintf("c%d", d))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				b.Fatal(err)
			}
			for i := range 100 {
				content := body
				if i == 7 && d%5 == 0 {
					content = body + "the needle is here\n"
				}
				if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d.go", i)), []byte(content), 0o644); err != nil {
					b.Fatal(err)
				}
			}
		}
		if err := os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\nbuild/\n"), 0o644); err != nil {
			b.Fatal(err)
		}
		settle()
		benchRoot = root
	})
	return benchRoot
}

func BenchmarkFloor(b *testing.B) {
	root := benchTree(b)
	needle := []byte("needle")
	for b.Loop() {
		n := 0
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if bytes.Contains(data, needle) {
				n++
			}
			return nil
		})
		if err != nil || n != 20 {
			b.Fatalf("floor: %d files hold the needle, %v", n, err)
		}
	}
}

func BenchmarkSearchLiteral(b *testing.B) { benchSearch(b, Query{Pattern: "needle"}) }

func BenchmarkSearchRegex(b *testing.B) { benchSearch(b, Query{Pattern: `need[l]e\b`, Regex: true}) }

func benchSearch(b *testing.B, q Query) {
	fsys, err := rootfs.New(benchTree(b))
	if err != nil {
		b.Fatal(err)
	}
	ws := workspace.New(fsys, workspace.Limits{})
	for b.Loop() {
		r, err := Search(context.Background(), fsys, ws, q)
		if err != nil || len(r.Matches) != 20 || r.Files != 10001 {
			b.Fatalf("search: %d matches in %d files, %v", len(r.Matches), r.Files, err)
		}
	}
}
