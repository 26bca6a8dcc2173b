package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/workspace"
)

// bigGo returns Go-like source of about size bytes with unique lines.
func bigGo(size int) string {
	var b strings.Builder
	b.WriteString("package big\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "func f%d(x int) int {\n\treturn x + %d\n}\n\n", i, i)
	}
	return b.String()
}

// benchStep measures one step on a file of size bytes, in an engine whose
// workspace already holds the file (acquisition is not measured).
func benchStep(b *testing.B, size int, op func(src string) string) {
	root := b.TempDir()
	src := bigGo(size)
	if err := os.WriteFile(filepath.Join(root, "big.go"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	lim := workspace.Limits{MaxFileBytes: 64 << 20, MaxTotalBytes: 256 << 20}
	planJSON := `{"paths":[],"ops":[` + op(src) + `]}`
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		e, err := New(root, Options{Limits: lim})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := e.Workspace().Acquire([]string{"big.go"}); err != nil {
			b.Fatal(err)
		}
		p, err := ParsePlan([]byte(planJSON))
		if err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if r := e.Run(context.Background(), p); !r.OK {
			b.Fatal(r.Error)
		}
	}
}

// lastFunc returns the name of the last function in bigGo output, so that
// edits land near the end of the file (the worst case for a scan).
func lastFunc(src string) string {
	i := strings.LastIndex(src, "func f")
	j := strings.IndexByte(src[i:], '(')
	return src[i+5 : i+j]
}

func editOp(src string) string {
	name := lastFunc(src)
	args, _ := json.Marshal(map[string]any{"path": "big.go", "edits": []map[string]string{
		{"find": "func f1(x int) int {", "replace": "func f1(x int) int { // edited"},
		{"find": "func " + name + "(x int) int {", "replace": "func " + name + "(x int) int { // edited"},
	}})
	return `{"step":"edit","args":` + string(args) + `}`
}

func patchOp(src string) string {
	name := lastFunc(src)
	patch := "*** Begin Patch\n*** Update File: big.go\n@@\n func f1(x int) int {\n-\treturn x + 1\n+\treturn x + 100\n@@\n func " + name + "(x int) int {\n-\treturn x + " + strings.TrimPrefix(name, "f") + "\n+\treturn x - 1\n*** End Patch"
	args, _ := json.Marshal(map[string]string{"patch": patch})
	return `{"step":"apply_patch","args":` + string(args) + `}`
}

func BenchmarkEdit1MB(b *testing.B)        { benchStep(b, 1<<20, editOp) }
func BenchmarkEdit10MB(b *testing.B)       { benchStep(b, 10<<20, editOp) }
func BenchmarkApplyPatch1MB(b *testing.B)  { benchStep(b, 1<<20, patchOp) }
func BenchmarkApplyPatch10MB(b *testing.B) { benchStep(b, 10<<20, patchOp) }

// BenchmarkFloor10MB is the floor the step benchmarks are compared with,
// measured in the same run: one scan for the last function's header plus
// one copy of the whole file.
func BenchmarkFloor10MB(b *testing.B) {
	src := bigGo(10 << 20)
	needle := "func " + lastFunc(src) + "(x int) int {"
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		i := strings.Index(src, needle)
		_ = strings.Clone(src[:i] + "x" + src[i:])
	}
}

// benchPatchInWorkspace runs one apply_patch plan touching one small file
// in a workspace of n acquired files (acquisition is not measured).
func benchPatchInWorkspace(b *testing.B, n int) {
	root := b.TempDir()
	for i := range n {
		testtree.Put(b, root, fmt.Sprintf("d%02d/f%04d.txt", i%50, i), fmt.Sprintf("file %d\nline two\nline three\n", i))
	}
	e, err := New(root, Options{Limits: workspace.Limits{MaxFiles: n}})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := e.Workspace().Acquire([]string{"**"}); err != nil {
		b.Fatal(err)
	}
	// Alternate between two versions so every iteration changes the file.
	plans := make([]*Plan, 2)
	for k, pair := range [][2]string{{"line two", "LINE TWO"}, {"LINE TWO", "line two"}} {
		args, _ := json.Marshal(map[string]string{"patch": "*** Begin Patch\n*** Update File: d00/f0000.txt\n@@\n-" + pair[0] + "\n+" + pair[1] + "\n*** End Patch"})
		p, err := ParsePlan([]byte(`{"paths":[],"ops":[{"step":"apply_patch","args":` + string(args) + `}]}`))
		if err != nil {
			b.Fatal(err)
		}
		plans[k] = p
	}
	b.ResetTimer()
	i := 0
	for b.Loop() {
		if r := e.Run(context.Background(), plans[i%2]); !r.OK {
			b.Fatal(r.Error)
		}
		i++
	}
}

func BenchmarkApplyPatchIn5000Files(b *testing.B) { benchPatchInWorkspace(b, 5000) }
func BenchmarkApplyPatchIn1File(b *testing.B)     { benchPatchInWorkspace(b, 1) }

// readLinesOp reads 50 lines near the end of the file.
func readLinesOp(src string) string {
	n := strings.Count(src, "\n")
	return fmt.Sprintf(`{"step":"read_lines","args":{"path":"big.go","start":%d,"end":%d}}`, n-60, n-10)
}

func BenchmarkReadLines10MB(b *testing.B) { benchStep(b, 10<<20, readLinesOp) }
