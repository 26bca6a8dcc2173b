package lspdriver

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// TestFileCacheKeepsByStamp: a file of the disk an answer maps is kept
// for the next answer while its stamp is the same (the same mapper, not
// read again), read again once the file changed, and never kept from the
// workspace's own documents; the columns are those of the content the
// stamp stands for.
func TestFileCacheKeepsByStamp(t *testing.T) {
	v, req, _ := changeRoot(t)
	c := &fileCache{settled: func(lsp.FileStamp) bool { return true }}
	abs := filepath.Join(v.root, "d", "x.go")
	if err := os.WriteFile(abs, []byte("package d // é𝄞 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// "x" after é (1 UTF-16 unit) and 𝄞 (2): UTF-16 column 16, character 15.
	col := func() (*text.Mapper, int) {
		ms := &mappers{v: v, req: req, m: map[string]*text.Mapper{}, files: c}
		defer ms.batch()()
		m := ms.get("d/x.go")
		_, ch := point(m, lsp.Position{Line: 0, Character: 16})
		return m, ch
	}
	m1, c1 := col()
	m2, c2 := col()
	if c1 != 16 || c2 != 16 {
		t.Fatalf("columns %d, %d; want 16 (1-based, after é𝄞)", c1, c2)
	}
	if m1 != m2 {
		t.Fatalf("the second answer read the file again: not kept")
	}
	// Changed (one more character, so the size differs whatever the
	// clock's tick): read again, the new content's column.
	if err := os.WriteFile(abs, []byte("package d // éé𝄞 x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m3, c3 := col()
	if m3 == m1 {
		t.Fatalf("a changed file's kept mapper was used")
	}
	if _, ch := point(m3, lsp.Position{Line: 0, Character: 17}); ch != 17 || c3 != 16 {
		t.Fatalf("after the change: column %d at UTF-16 17 (want 17), %d at 16 (want 16)", ch, c3)
	}
	// The workspace's documents (a.go is open with other content) and
	// the request's are not the disk's: never kept.
	ms := &mappers{v: v, req: req, m: map[string]*text.Mapper{}, files: c}
	done := ms.batch()
	ms.get("a.go")
	ms.get("w.go")
	done()
	for _, p := range []string{"a.go", "w.go"} {
		if _, ok := c.files[filepath.Join(v.root, p)]; ok {
			t.Errorf("%s kept: its answer maps the workspace's content, not the disk's", p)
		}
	}
	if got := ms.line("a.go", 1); got != "package a // changed" {
		t.Errorf("a.go line 1 = %q, want the workspace's", got)
	}
}

// TestFileCacheKeepsOnlySettled: without the test's override, a file
// written just now is not kept (a write in the same timestamp tick could
// leave its stamp equal).
func TestFileCacheKeepsOnlySettled(t *testing.T) {
	v, req, _ := changeRoot(t)
	c := &fileCache{}
	ms := &mappers{v: v, req: req, m: map[string]*text.Mapper{}, files: c}
	done := ms.batch()
	ms.get("d/x.go")
	done()
	if len(c.files) != 0 {
		t.Fatalf("a file written just now was kept: %v", c.files)
	}
}

// TestFileCacheBound: what the cache keeps, the files' text and their
// mappers' line starts, stays within maxKeptBytes: a file of short lines
// (its line starts outweigh its text) or one larger than the bound is
// not kept, and the others start over past it.
func TestFileCacheBound(t *testing.T) {
	c := &fileCache{settled: func(lsp.FileStamp) bool { return true }}
	held := func() int {
		n := 0
		for _, f := range c.files {
			n += len(f.content) + f.m.Lines()*strconv.IntSize/8
		}
		return n
	}
	put := func(name, content string) {
		c.put(name, keptFile{content: content, m: text.NewMapper(content)})
		if n := held(); n > maxKeptBytes {
			t.Fatalf("after %s: %d bytes kept, more than %d", name, n, maxKeptBytes)
		}
	}
	put("/lines", strings.Repeat("\n", maxKeptBytes/8))
	put("/large", strings.Repeat("x", maxKeptBytes+1))
	for i := range 40 {
		put(fmt.Sprintf("/f%d", i), strings.Repeat("x", 1<<20))
	}
	if _, ok := c.files["/f39"]; !ok {
		t.Fatal("the last file put was not kept")
	}
}
