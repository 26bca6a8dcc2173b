package editfile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/workspace"
)

// The benchmarks edit one Go file of about 1 MB or 10 MB whose edited
// declaration sits in the middle, through a session set up as the server
// sets up its own (a workspace that holds the file, the root's write lock,
// a per-file limit that admits it). The file is viewed once outside the
// timer; then every iteration makes one whole edit_file call that the next
// iteration reverts (A→B, B→A): load, read check, match, checks of the
// result, diff, write (atomic, fsynced), undo entry, workspace refresh.
// The DryRun variants stop before the write. The floors, measured in the
// same run: BenchmarkFloorIndexCopy, bytes.Index plus building the new
// content in memory (what a dry run must do at least), and
// BenchmarkFloorIndexCopyWrite, the same plus rootfs's durable write of
// the result (what a committed edit must do at least).

func benchSource(size int) (string, string) {
	var b strings.Builder
	b.WriteString("package p\n\n")
	i := 0
	for b.Len() < size/2 {
		fmt.Fprintf(&b, "func f%d(x int) int {\n\tif x > %d {\n\t\treturn x\n\t}\n\treturn %d\n}\n\n", i, i, i)
		i++
	}
	b.WriteString("func target() int {\n\treturn 1\n}\n\n")
	for b.Len() < size {
		fmt.Fprintf(&b, "func f%d(x int) int {\n\tif x > %d {\n\t\treturn x\n\t}\n\treturn %d\n}\n\n", i, i, i)
		i++
	}
	return b.String(), "func target() int {\n\treturn 1\n}\n"
}

func benchEnv(b *testing.B, src string) (*Session, string) {
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big.go"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	fsys, err := rootfs.New(root)
	if err != nil {
		b.Fatal(err)
	}
	ws := workspace.New(fsys, workspace.Limits{MaxFileBytes: 64 << 20, MaxTotalBytes: 256 << 20})
	if _, err := ws.Acquire([]string{"big.go"}); err != nil {
		b.Fatal(err)
	}
	s := NewSession(fsys, ws)
	s.SetWriteLock(&sync.Mutex{})
	s.SetMaxFileBytes(64 << 20)
	abs := filepath.Join(fsys.Root(), "big.go")
	if _, err := s.Do(context.Background(), &Params{Command: "view", FilePath: abs, ViewRange: []int{1, 10}}); err != nil {
		b.Fatal(err)
	}
	return s, abs
}

var benchSizes = []struct {
	name string
	size int
}{{"1MB", 1 << 20}, {"10MB", 10 << 20}}

func ptr[T any](v T) *T { return &v }

// benchToggle runs p(i) for i = 0..b.N-1; p builds the parameters of an
// edit that reverts the previous one.
func benchToggle(b *testing.B, src string, p func(abs string, i int) *Params) {
	s, abs := benchEnv(b, src)
	ctx := context.Background()
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := s.Do(ctx, p(abs, i)); err != nil {
			b.Fatal(err)
		}
	}
}

var (
	retA = "func target() int {\n\treturn 1\n}\n"
	retB = "func target() int {\n\treturn 2\n}\n"
)

func toggle(i int) (from, to string) {
	if i%2 == 0 {
		return retA, retB
	}
	return retB, retA
}

func BenchmarkStrReplace(b *testing.B) {
	for _, sz := range benchSizes {
		src, _ := benchSource(sz.size)
		b.Run(sz.name, func(b *testing.B) {
			benchToggle(b, src, func(abs string, i int) *Params {
				from, to := toggle(i)
				return &Params{Command: "str_replace", FilePath: abs, OldStr: ptr(from), NewStr: ptr(to)}
			})
		})
		b.Run(sz.name+"/DryRun", func(b *testing.B) {
			benchToggle(b, src, func(abs string, i int) *Params {
				return &Params{Command: "str_replace", FilePath: abs, OldStr: ptr(retA), NewStr: ptr(retB), DryRun: true}
			})
		})
	}
}

func BenchmarkPatch(b *testing.B) {
	patch := func(from, to string) string {
		return "@@ -1,3 +1,3 @@\n func target() int {\n-" + strings.Split(from, "\n")[1] + "\n+" + strings.Split(to, "\n")[1] + "\n }\n"
	}
	for _, sz := range benchSizes {
		src, _ := benchSource(sz.size)
		b.Run(sz.name, func(b *testing.B) {
			benchToggle(b, src, func(abs string, i int) *Params {
				return &Params{Command: "patch", FilePath: abs, Patch: ptr(patch(toggle(i)))}
			})
		})
		b.Run(sz.name+"/DryRun", func(b *testing.B) {
			benchToggle(b, src, func(abs string, i int) *Params {
				return &Params{Command: "patch", FilePath: abs, Patch: ptr(patch(retA, retB)), DryRun: true}
			})
		})
	}
}

func BenchmarkReplaceSymbol(b *testing.B) {
	for _, sz := range benchSizes {
		src, _ := benchSource(sz.size)
		b.Run(sz.name, func(b *testing.B) {
			benchToggle(b, src, func(abs string, i int) *Params {
				_, to := toggle(i)
				return &Params{Command: "replace_symbol", FilePath: abs, Symbol: ptr("target"), NewStr: ptr(to)}
			})
		})
		b.Run(sz.name+"/DryRun", func(b *testing.B) {
			benchToggle(b, src, func(abs string, i int) *Params {
				return &Params{Command: "replace_symbol", FilePath: abs, Symbol: ptr("target"), NewStr: ptr(retB), DryRun: true}
			})
		})
	}
}

// BenchmarkFloorIndexCopy is the floor: find old in the file's bytes and
// build the new content, in memory, nothing else.
func BenchmarkFloorIndexCopy(b *testing.B) {
	for _, sz := range benchSizes {
		src, _ := benchSource(sz.size)
		data := []byte(src)
		old, repl := []byte(retA), []byte(retB)
		b.Run(sz.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for i := 0; i < b.N; i++ {
				j := bytes.Index(data, old)
				out := make([]byte, 0, len(data)-len(old)+len(repl))
				out = append(append(append(out, data[:j]...), repl...), data[j+len(old):]...)
				if len(out) == 0 {
					b.Fatal("empty")
				}
			}
		})
	}
}

// BenchmarkInsert inserts one line after the middle line; the file grows
// by that line every iteration.
func BenchmarkInsert(b *testing.B) {
	for _, sz := range benchSizes {
		src, _ := benchSource(sz.size)
		mid := strings.Count(src, "\n") / 2
		b.Run(sz.name, func(b *testing.B) {
			benchToggle(b, src, func(abs string, i int) *Params {
				return &Params{Command: "insert", FilePath: abs, InsertLine: ptr(mid), NewStr: ptr("// inserted\n")}
			})
		})
	}
}

// BenchmarkView views 40 lines in the middle, and the target function by
// its symbol.
func BenchmarkView(b *testing.B) {
	for _, sz := range benchSizes {
		src, _ := benchSource(sz.size)
		mid := strings.Count(src, "\n") / 2
		b.Run(sz.name+"/Range", func(b *testing.B) {
			benchToggle(b, src, func(abs string, i int) *Params {
				return &Params{Command: "view", FilePath: abs, ViewRange: []int{mid, mid + 40}}
			})
		})
		b.Run(sz.name+"/Symbol", func(b *testing.B) {
			benchToggle(b, src, func(abs string, i int) *Params {
				return &Params{Command: "view", FilePath: abs, Symbol: ptr("target")}
			})
		})
	}
}

// BenchmarkFloorIndexCopyWrite is the floor of a committed edit:
// BenchmarkFloorIndexCopy's work, then rootfs's atomic, fsynced write of
// the result (with the read back that checks the disk before the rename),
// as every edit_file commit writes.
func BenchmarkFloorIndexCopyWrite(b *testing.B) {
	for _, sz := range benchSizes {
		src, _ := benchSource(sz.size)
		b.Run(sz.name, func(b *testing.B) {
			root := b.TempDir()
			fsys, err := rootfs.New(root)
			if err != nil {
				b.Fatal(err)
			}
			data := []byte(src)
			if err := fsys.WriteFile("big.go", data); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(data)))
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				from, to := toggle(i)
				j := bytes.Index(data, []byte(from))
				out := make([]byte, 0, len(data)-len(from)+len(to))
				out = append(append(append(out, data[:j]...), to...), data[j+len(from):]...)
				if err := fsys.WriteFileIf("big.go", out, func([]byte, bool) error { return nil }); err != nil {
					b.Fatal(err)
				}
				data = out
			}
		})
	}
}
