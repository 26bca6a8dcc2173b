package workspace

import (
	"fmt"
	"testing"

	"github.com/devbroker/devbroker/engine/patch"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

// benchFiles returns n small files named f0000.txt ...
func benchFiles(n int) map[string]string {
	files := make(map[string]string, n)
	for i := range n {
		files[fmt.Sprintf("d%02d/f%04d.txt", i%50, i)] = fmt.Sprintf("package f%d\n\nfunc F() int {\n\treturn %d\n}\n", i, i)
	}
	return files
}

// benchApplyPatch times what apply_patch does for one file: a transaction,
// one hunk matched and applied, Set, Commit. It alternates two hunks so
// that every iteration changes the file.
func benchApplyPatch(b *testing.B, n int) {
	files := benchFiles(n)
	fsys, err := rootfs.New(testtree.New(b, files))
	if err != nil {
		b.Fatal(err)
	}
	w := New(fsys, Limits{MaxFiles: n})
	if _, err := w.Acquire([]string{"**"}); err != nil {
		b.Fatal(err)
	}
	target := fmt.Sprintf("d%02d/f%04d.txt", (n/2)%50, n/2)
	hunks := [2][]patch.Hunk{
		{patch.FromFindReplace("func F() int {", "func G() int {")},
		{patch.FromFindReplace("func G() int {", "func F() int {")},
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		tx := w.Begin()
		d, ok := tx.Doc(target)
		if !ok {
			b.Fatal("no target")
		}
		out, err := patch.Apply(d, hunks[i%2])
		if err != nil {
			b.Fatal(err)
		}
		if err := tx.Set(target, out); err != nil {
			b.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkApplyPatchOneFileIn5000(b *testing.B) { benchApplyPatch(b, 5000) }
func BenchmarkApplyPatchOneFileIn1(b *testing.B)    { benchApplyPatch(b, 1) }

// BenchmarkWrite1000 times a write of 1,000 modified files; the workspace
// is rebuilt, untimed, before each one.
func BenchmarkWrite1000(b *testing.B) {
	const n = 1000
	fsys, err := rootfs.New(testtree.New(b, benchFiles(n)))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		w := New(fsys, Limits{MaxFiles: n})
		if _, err := w.Acquire([]string{"**"}); err != nil {
			b.Fatal(err)
		}
		tx := w.Begin()
		for _, p := range w.Paths() {
			d, _ := tx.Doc(p)
			if err := tx.Set(p, doc(fmt.Sprintf("// %d\n%s", i, d.String()))); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		written, err := w.Write(b.Context(), nil)
		if err != nil || len(written) != n {
			b.Fatalf("wrote %d: %v", len(written), err)
		}
	}
}

// BenchmarkOrderRenames orders a 1,000-rename chain (the worst case of
// the old quadratic ordering) plus 500 swaps.
func BenchmarkOrderRenames(b *testing.B) {
	var renames []rename
	for i := range 1000 {
		renames = append(renames, rename{fmt.Sprintf("c%04d", i), fmt.Sprintf("c%04d", i+1)})
	}
	for i := 0; i < 1000; i += 2 {
		renames = append(renames, rename{fmt.Sprintf("s%04d", i), fmt.Sprintf("s%04d", i+1)}, rename{fmt.Sprintf("s%04d", i+1), fmt.Sprintf("s%04d", i)})
	}
	b.ReportAllocs()
	for b.Loop() {
		if got := orderRenames(renames); len(got) != len(renames)+500 {
			b.Fatalf("%d steps", len(got))
		}
	}
}

// benchAcquire times acquiring 500 files by a glob: into an empty
// workspace (the first acquisition), or again into a workspace that holds
// them all with no unwritten change, where each is compared with the disk
// and read again only when it changed (here it never did).
func benchAcquire(b *testing.B, again bool) {
	const n = 500
	fsys, err := rootfs.New(testtree.New(b, benchFiles(n)))
	if err != nil {
		b.Fatal(err)
	}
	w := New(fsys, Limits{MaxFiles: n})
	if again {
		if _, err := w.Acquire([]string{"**"}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if !again {
			w = New(fsys, Limits{MaxFiles: n})
		}
		if _, err := w.Acquire([]string{"**"}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAcquire500First(b *testing.B) { benchAcquire(b, false) }
func BenchmarkAcquire500Again(b *testing.B) { benchAcquire(b, true) }

// benchFollowDisk times FollowDisk over a workspace holding 500 files of
// size bytes each, none changed on disk: what every format, lint and check
// step pays before its drivers run.
func benchFollowDisk(b *testing.B, size int) {
	const n = 500
	files := make(map[string]string, n)
	line := "\tx := fmt.Sprintf(\"%d\", 12345678901234567890) // padding padding\n"
	for i := range n {
		body := fmt.Sprintf("package f%d\n", i)
		for len(body) < size {
			body += line
		}
		files[fmt.Sprintf("d%02d/f%04d.go", i%50, i)] = body[:size-1] + "\n"
	}
	fsys, err := rootfs.New(testtree.New(b, files))
	if err != nil {
		b.Fatal(err)
	}
	w := New(fsys, Limits{MaxFiles: n, MaxTotalBytes: int64(n*size) + 1})
	if _, err := w.Acquire([]string{"**"}); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(n * size))
	b.ReportAllocs()
	for b.Loop() {
		if left := w.FollowDisk(); len(left) != 0 {
			b.Fatal(left)
		}
	}
}

func BenchmarkFollowDisk500x4K(b *testing.B)  { benchFollowDisk(b, 4<<10) }
func BenchmarkFollowDisk500x64K(b *testing.B) { benchFollowDisk(b, 64<<10) }
