package gofumpt

// Benchmarks: the driver formatting a whole module held in memory against
// the floor, gofumpt's format.Source on each file with the same
// parallelism (what the gofumpt command does per file), in one run:
//
//	go test -run '^$' -bench Module -count 6 ./capabilities/gofumpt/
//
// The module is honnef.co/go/tools (devbroker links it in, so it is in the
// module cache after go mod download), testdata left out as gofumpt -w .
// leaves it out.

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"mvdan.cc/gofumpt/format"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// benchModule reads the module's Go files (and go.mod) into a request.
func benchModule(b *testing.B) *capabilities.Request {
	b.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "honnef.co/go/tools").Output()
	dir := strings.TrimSpace(string(out))
	if err != nil || dir == "" {
		b.Skipf("honnef.co/go/tools is not in the module cache (go mod download): %v", err)
	}
	req := &capabilities.Request{Kind: engine.Format, Root: dir, All: map[string]*text.Doc{}}
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && d.Name() == "testdata" {
			return fs.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") && d.Name() != "go.mod" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		doc, err := text.Parse(data)
		if err != nil {
			return err
		}
		req.All[filepath.ToSlash(rel)] = doc
		// One file (nilness.go) makes gofumpt v0.10.0 fail; it is left out.
		if _, err := format.Source(data, format.Options{}); err == nil && strings.HasSuffix(p, ".go") {
			req.Files = append(req.Files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	slices.Sort(req.Files)
	return req
}

// BenchmarkModuleDriver: the driver formats every Go file of the module.
func BenchmarkModuleDriver(b *testing.B) {
	req := benchModule(b)
	d, _ := New("gofumpt", nil, capabilities.Env{Root: req.Root})
	b.ResetTimer()
	for b.Loop() {
		if r := d.Run(context.Background(), req); r.Status != engine.StatusOK {
			b.Fatalf("%s: %s", r.Status, r.Message)
		}
	}
}

// BenchmarkModuleFloor: format.Source on every Go file, bytes in and out.
func BenchmarkModuleFloor(b *testing.B) {
	req := benchModule(b)
	srcs := make([][]byte, len(req.Files))
	for i, p := range req.Files {
		srcs[i] = req.All[p].Bytes()
	}
	opts := format.Options{LangVersion: "go1.26", ModulePath: "honnef.co/go/tools"}
	b.ResetTimer()
	for b.Loop() {
		sem := make(chan struct{}, runtime.GOMAXPROCS(0))
		var wg sync.WaitGroup
		for _, src := range srcs {
			sem <- struct{}{}
			wg.Go(func() {
				defer func() { <-sem }()
				format.Source(src, opts)
			})
		}
		wg.Wait()
	}
}
