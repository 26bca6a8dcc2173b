package engine_test

// What comparing a check with its baseline costs, against a plain check,
// with the real gopls over a module of 101 files: an edit of package a
// breaks the callers in 20 packages, which had 20 errors already.
//
//	go test -run '^$' -bench 'PlainCheck|Introduced' -benchtime 10x -count 5 ./engine/
//
// BenchmarkPlainCheck is the check of an edit with no baseline;
// BenchmarkIntroducedFirst a session's first check after the edit (the
// baseline asked of gopls, then the answer); BenchmarkIntroducedLater a
// later check over the same baseline (kept: the answer alone, matched).

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// benchModule is a module whose 20 packages call a.F, each with 5 files,
// one of which has an error already.
func benchModule() map[string]string {
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\n// v 0\n\n// F is called everywhere.\nfunc F() int { return 1 }\n",
	}
	for p := range 20 {
		for f := range 5 {
			var b strings.Builder
			fmt.Fprintf(&b, "package p%d\n\nimport \"example.com/m/a\"\n\n", p)
			for i := range 30 {
				fmt.Fprintf(&b, "// G%d_%d calls F.\nfunc G%d_%d() int { return a.F() + %d }\n\n", f, i, f, i, i)
			}
			if f == 0 {
				b.WriteString("func Old() int { return undefinedThing }\n")
			}
			files[fmt.Sprintf("p%d/f%d.go", p, f)] = b.String()
		}
	}
	return files
}

// benchSet loads the default drivers for root, gopls probed.
func benchSet(b *testing.B, root string) *capabilities.Set {
	b.Helper()
	if _, err := exec.LookPath("gopls"); err != nil {
		b.Skip("gopls is not on PATH (make tools)")
	}
	b.Setenv("XDG_CONFIG_HOME", configtest.Dir(b))
	b.Setenv("XDG_STATE_HOME", b.TempDir())
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	set, _, err := drivers.LoadWith(ctx, root, drivers.Options{Probe: drivers.ProbePresent})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { set.Close() })
	return set
}

// editCheck edits a.go's comment from v from to v to (with first, also
// F's signature, which breaks every caller) and checks.
func editCheck(b *testing.B, e *engine.Engine, from, to int, first bool) *engine.Result {
	b.Helper()
	edits := fmt.Sprintf(`{"find": "// v %d", "replace": "// v %d"}`, from, to)
	if first {
		edits += `, {"find": "func F() int { return 1 }", "replace": "func F(x int) int { return x }"}`
	}
	p, err := engine.ParsePlan([]byte(`{"paths": ["a/a.go"], "ops": [{"step": "edit", "args": {"path": "a/a.go", "edits": [` + edits + `]}}, {"step": "check"}]}`))
	if err != nil {
		b.Fatal(err)
	}
	r := e.Run(context.Background(), p)
	if r.Error == nil || r.Error.Kind != "diagnostics" || len(r.Diagnostics) < 40 {
		b.Fatalf("check: %+v, %d findings", r.Error, len(r.Diagnostics))
	}
	return r
}

func benchEngine(b *testing.B, root string, set *capabilities.Set) *engine.Engine {
	b.Helper()
	e, err := engine.New(root, engine.Options{Capabilities: set})
	if err != nil {
		b.Fatal(err)
	}
	return e
}

func BenchmarkPlainCheck(b *testing.B) {
	root := testtree.New(b, benchModule())
	set := benchSet(b, root)
	e := benchEngine(b, root, set)
	engine.NoBaseline(e)
	editCheck(b, e, 0, 1, true)
	b.ResetTimer()
	for i := range b.N {
		if r := editCheck(b, e, i+1, i+2, false); r.Baseline != nil {
			b.Fatal("a plain check was compared with its baseline")
		}
	}
}

func BenchmarkIntroducedFirst(b *testing.B) {
	root := testtree.New(b, benchModule())
	set := benchSet(b, root)
	editCheck(b, benchEngine(b, root, set), 0, 1, true) // gopls loaded
	b.ResetTimer()
	for i := range b.N {
		// A new session: nothing kept.
		r := editCheck(b, benchEngine(b, root, set), 0, i+2, true)
		if r.Baseline == nil || r.Baseline.Introduced != 100*30 || r.Baseline.PreExisting != 20 {
			b.Fatalf("baseline %+v", r.Baseline)
		}
	}
}

func BenchmarkIntroducedLater(b *testing.B) {
	root := testtree.New(b, benchModule())
	set := benchSet(b, root)
	e := benchEngine(b, root, set)
	editCheck(b, e, 0, 1, true) // the baseline, kept
	b.ResetTimer()
	for i := range b.N {
		r := editCheck(b, e, i+1, i+2, false)
		if r.Baseline == nil || r.Baseline.Introduced != 100*30 || r.Baseline.PreExisting != 20 {
			b.Fatalf("baseline %+v", r.Baseline)
		}
	}
}
