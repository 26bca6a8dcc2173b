package lspdriver_test

// BenchmarkEditToDiagnostics: a warm gopls through the driver, each
// iteration a one-line edit that adds or removes a type error in a
// mid-chain package of a small generated module, then a check settled by
// gopls.diagnose_files. Besides ns/op it reports, per direction, the
// median ("add-p50-ms", "remove-p50-ms") and the 95th percentile.
// bench/lspbench measures the same on a real module against other
// strategies.
//
//	go test -run '^$' -bench EditToDiagnostics ./capabilities/lspdriver/

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// benchModule writes a module of n packages, p0 … p(n-1), each importing
// the one before, with three files of twenty functions each.
func benchModule(b *testing.B, n int) string {
	b.Helper()
	root, _ := filepath.EvalSymlinks(b.TempDir())
	write := func(p, content string) { testtree.Put(b, root, p, content) }
	write("go.mod", "module example.com/bench\n\ngo 1.22\n")
	for i := range n {
		for f := range 3 {
			var src strings.Builder
			fmt.Fprintf(&src, "package p%d\n\n", i)
			prev := ""
			if i > 0 {
				fmt.Fprintf(&src, "import \"example.com/bench/p%d\"\n\n", i-1)
				prev = fmt.Sprintf(" + p%d.F%d_0(x)", i-1, f)
			}
			for k := range 20 {
				fmt.Fprintf(&src, "// F%d_%d is generated.\nfunc F%d_%d(x int) int {\n\tif x > %d {\n\t\treturn x - %d\n\t}\n\treturn x%s\n}\n\n", f, k, f, k, k, k, prev)
			}
			write(fmt.Sprintf("p%d/f%d.go", i, f), src.String())
		}
	}
	return root
}

// BenchmarkEditToDiagnostics's series: "memory" changes the workspace
// only (dev_plan's edit, check), "memory-exact" too but sends the file
// at disk content exactly, as devbroker did before documents at disk
// content were padded (the baseline of the put-back), and "disk" writes
// the file and tells the driver (edit_file, then check). Each reports
// the two directions side by side: "add" breaks the file, "remove" puts
// it back to its content on disk at the start.
func BenchmarkEditToDiagnostics(b *testing.B) {
	for _, mode := range []string{"memory", "memory-exact", "disk"} {
		b.Run(mode, func(b *testing.B) { benchEdits(b, mode) })
	}
}

func benchEdits(b *testing.B, mode string) {
	wd, _ := os.Getwd()
	gopls, _, err := lsp.FindServer(context.Background(), "gopls", filepath.Join(wd, "../.."), true)
	if err != nil {
		b.Skipf("no gopls: %v", err)
	}
	root := benchModule(b, 12)
	const file = "p6/f1.go"
	abs := filepath.Join(root, file)
	data, err := os.ReadFile(abs)
	if err != nil {
		b.Fatal(err)
	}
	clean := string(data)
	broken := clean + "var _ int = \"bench\"\n"
	d, err := lspdriver.Type.New("gopls", &configs.Driver{
		Type: "lsp", Command: []string{gopls}, Settings: goplsSettings(b),
	}, capabilities.Env{Root: root, Language: "go"})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	check := func(content string) int {
		changed := []string{file}
		switch {
		case mode == "disk":
			if err := os.WriteFile(abs, []byte(content), 0o644); err != nil {
				b.Fatal(err)
			}
			d.(engine.DiskObserver).DiskChanged([]string{abs})
			changed = nil
		case mode == "memory" && content == clean:
			changed = nil
		}
		res := d.Run(context.Background(), &capabilities.Request{
			Kind: engine.Check, Root: root, Files: []string{file},
			All: map[string]*text.Doc{file: text.FromString(content)}, Changed: changed,
		})
		if res.Status != engine.StatusOK {
			b.Fatalf("status %s: %s", res.Status, res.Message)
		}
		errs := 0
		for _, dg := range res.Diagnostics {
			if dg.Severity == engine.SeverityError {
				errs++
			}
		}
		return errs
	}
	for range 2 { // cold start and warm-up
		check(broken)
		check(clean)
	}
	var took [2][]time.Duration
	i := 0
	for b.Loop() {
		content, want := clean, 0
		if i%2 == 0 {
			content, want = broken, 1
		}
		start := time.Now()
		if got := check(content); got != want {
			b.Fatalf("edit %d: %d errors, want %d", i, got, want)
		}
		took[i%2] = append(took[i%2], time.Since(start))
		i++
	}
	for k, name := range []string{"add", "remove"} {
		t := took[k]
		if len(t) == 0 {
			continue
		}
		slices.Sort(t)
		b.ReportMetric(float64(t[len(t)/2].Microseconds())/1000, name+"-p50-ms")
		b.ReportMetric(float64(t[(len(t)*95+99)/100-1].Microseconds())/1000, name+"-p95-ms")
	}
}
