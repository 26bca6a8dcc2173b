package lsp

// The cost of verifying a server's inputs before each request (verify.go),
// against what a request costs anyway: a warm gopls check on the same
// module.
//
//	go test -run '^$' -bench 'Verify|WarmCheck' -count 5 ./lsp/
//
// Each reports its median per request ("p50-ms") besides ns/op.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// benchGoModule writes a module of 1,000 Go files: 50 packages of 20
// files, each package importing the one before.
func benchGoModule(b *testing.B) string {
	b.Helper()
	root, _ := filepath.EvalSymlinks(b.TempDir())
	if err := os.WriteFile(filepath.Join(root, "go.mod"), []byte("module example.com/bench\n\ngo 1.22\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	for i := range 50 {
		for f := range 20 {
			var src strings.Builder
			fmt.Fprintf(&src, "package p%d\n\n", i)
			prev := ""
			if i > 0 {
				fmt.Fprintf(&src, "import \"example.com/bench/p%d\"\n\n", i-1)
				prev = fmt.Sprintf(" + p%d.F%d_0(x)", i-1, f)
			}
			for k := range 5 {
				fmt.Fprintf(&src, "// F%d_%d is generated.\nfunc F%d_%d(x int) int {\n\tif x > %d {\n\t\treturn x - %d\n\t}\n\treturn x%s\n}\n\n", f, k, f, k, k, k, prev)
			}
			p := filepath.Join(root, fmt.Sprintf("p%d/f%d.go", i, f))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				b.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(src.String()), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return root
}

// benchTree writes 16,000 files: 800 directories of 20, two levels deep.
func benchTree(b *testing.B) string {
	b.Helper()
	root, _ := filepath.EvalSymlinks(b.TempDir())
	for d := range 800 {
		dir := filepath.Join(root, fmt.Sprintf("d%02d/e%03d", d/40, d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		for f := range 20 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", f)), []byte("x\n"), 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	return root
}

// p50 reports the median of times as p50-ms.
func p50(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkVerify is the check of the inputs a request makes when nothing
// changed: every directory and file stat'ed, none listed again. The
// stamps are first let settle (older than the racy window), as they are
// but for files just written.
func BenchmarkVerify(b *testing.B) {
	for _, c := range []struct {
		name   string
		tree   func(*testing.B) string
		inputs Inputs
	}{
		{"module-1000", benchGoModule, Inputs{Go: true}},
		{"tree-16000", benchTree, Inputs{}},
	} {
		b.Run(c.name, func(b *testing.B) {
			root := c.tree(b)
			tr := newTracker(&Config{Root: root, Inputs: c.inputs})
			if _, problem := tr.scan(); problem != "" {
				b.Fatal(problem)
			}
			time.Sleep(racyWindow + 100*time.Millisecond) // the stamps settle
			tr.scan()
			var times []time.Duration
			for b.Loop() {
				start := time.Now()
				changes, problem := tr.scan()
				times = append(times, time.Since(start))
				if len(changes) != 0 || problem != "" {
					b.Fatalf("changes %v, problem %q", changes, problem)
				}
			}
			p50(b, times)
		})
	}
}

// BenchmarkVerifyFloor is the floor under BenchmarkVerify's tree: one
// os.Lstat per file and directory, in one goroutine, paths known.
func BenchmarkVerifyFloor(b *testing.B) {
	root := benchTree(b)
	var paths []string
	_ = filepath.WalkDir(root, func(p string, _ os.DirEntry, err error) error {
		if err == nil {
			paths = append(paths, p)
		}
		return nil
	})
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		for _, p := range paths {
			if _, err := os.Lstat(p); err != nil {
				b.Fatal(err)
			}
		}
		times = append(times, time.Since(start))
	}
	p50(b, times)
}

// BenchmarkWarmCheck is a warm gopls check of the 1,000-file module after
// an edit in the workspace (a function body of the middle package,
// alternately changed and put back), settled by gopls.diagnose_files: what
// the check of the inputs is added to.
func BenchmarkWarmCheck(b *testing.B) {
	wd, _ := os.Getwd()
	gopls, _, err := FindServer(context.Background(), "gopls", filepath.Dir(wd), true)
	if err != nil {
		b.Skipf("no gopls: %v", err)
	}
	root := benchGoModule(b)
	in, settings := GoplsInputs(map[string]any{"diagnosticsDelay": "0s", "diagnosticsTrigger": "Save"})
	s := NewServer(Config{Command: []string{gopls}, Root: root, Settings: settings, Inputs: in})
	defer s.Close()
	file := filepath.Join(root, "p25/f0.go")
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	texts := []string{string(data), strings.Replace(string(data), "return x - 0", "return x - 100", 1)}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	for i := range 4 { // warm up
		if _, err := s.Diagnose(ctx, []Document{{Path: file, LanguageID: "go", Text: texts[i%2]}}, []string{file}); err != nil {
			b.Fatal(err)
		}
	}
	var times []time.Duration
	i := 0
	for b.Loop() {
		i++
		start := time.Now()
		rep, err := s.Diagnose(ctx, []Document{{Path: file, LanguageID: "go", Text: texts[i%2]}}, []string{file})
		times = append(times, time.Since(start))
		if err != nil || len(rep.Files) != 0 {
			b.Fatalf("check: %v %v", err, rep.Files)
		}
	}
	p50(b, times)
}
