package lspdriver_test

// BenchmarkNavigate: warm references and definition through the driver
// on a generated module (a function called 240 times in 120 files, more
// than the engine lists), against the same request sent straight to the
// driver's gopls with the same documents ("floor-…"): the difference is
// the driver's overhead (its view of the workspace and the conversion of
// the answer). bench/navbench measures the same on a real module through
// MCP.
//
//	go test -run '^$' -bench Navigate -count 6 ./capabilities/lspdriver/

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// navBenchModule writes a module whose package rep declares Report (line
// 4 of rep/rep.go), called twice in each of two files of n packages,
// each file padded with forty small functions.
func navBenchModule(b *testing.B, n int) string {
	b.Helper()
	root, _ := filepath.EvalSymlinks(b.TempDir())
	write := func(p, content string) { testtree.Put(b, root, p, content) }
	write("go.mod", "module example.com/nav\n\ngo 1.22\n")
	write("rep/rep.go", "package rep\n\n// Report reports x.\nfunc Report(x int) int { return x + 1 }\n")
	for i := range n {
		for f := range 2 {
			var src strings.Builder
			fmt.Fprintf(&src, "package u%d\n\nimport \"example.com/nav/rep\"\n\n", i)
			fmt.Fprintf(&src, "// Use calls rep.Report: «é».\nfunc Use%d(x int) int {\n\treturn rep.Report(x) + rep.Report(x+1)\n}\n\n", f)
			for k := range 40 {
				fmt.Fprintf(&src, "// G%d_%d is generated.\nfunc G%d_%d(x int) int {\n\tif x > %d {\n\t\treturn x - %d\n\t}\n\treturn x\n}\n\n", f, k, f, k, k, k)
			}
			write(fmt.Sprintf("u%03d/f%d.go", i, f), src.String())
		}
	}
	return root
}

func BenchmarkNavigate(b *testing.B) {
	wd, _ := os.Getwd()
	gopls, _, err := lsp.FindServer(context.Background(), "gopls", filepath.Join(wd, "../.."), true)
	if err != nil {
		b.Skipf("no gopls: %v", err)
	}
	const n = 60
	root := navBenchModule(b, n)
	d, err := lspdriver.Type.New("gopls", &configs.Driver{
		Type: "lsp", Command: []string{gopls}, Settings: goplsSettings(b),
	}, capabilities.Env{Root: root, Language: "go"})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	requests := map[string]struct {
		kind engine.Kind
		q    engine.Query
		want int
	}{
		"references": {engine.References, engine.Query{Path: "rep/rep.go", Line: 4, Column: 6}, 4 * n},
		"definition": {engine.Definition, engine.Query{Path: "u007/f1.go", Line: 7, Column: 13}, 1},
	}
	for _, name := range []string{"references", "definition"} {
		r := requests[name]
		req := func() *capabilities.Request {
			q := r.q
			data, err := os.ReadFile(filepath.Join(root, q.Path))
			if err != nil {
				b.Fatal(err)
			}
			return &capabilities.Request{Kind: r.kind, Root: root, Files: []string{q.Path}, Query: &q,
				All: map[string]*text.Doc{q.Path: text.FromString(string(data))}}
		}
		driverCall := func() int {
			res := d.Run(context.Background(), req())
			if res.Status != engine.StatusOK {
				b.Fatalf("%s: %s: %s", name, res.Status, res.Message)
			}
			return len(res.Locations) + res.Omitted
		}
		floor, err := lspdriver.Floor(context.Background(), d, req())
		if err != nil {
			b.Fatal(err)
		}
		floorCall := func() int {
			got, err := floor()
			if err != nil {
				b.Fatal(err)
			}
			return got
		}
		for _, side := range []struct {
			name string
			call func() int
		}{{"driver", driverCall}, {"floor", floorCall}} {
			b.Run(name+"-"+side.name, func(b *testing.B) {
				for range 2 { // warm-up
					side.call()
				}
				for b.Loop() {
					if got := side.call(); got != r.want {
						b.Fatalf("%d locations, want %d", got, r.want)
					}
				}
			})
		}
	}
}
