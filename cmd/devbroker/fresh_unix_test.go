//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A write through mmap: no inotify event, the size unchanged.
func TestFreshMmapWrite(t *testing.T) {
	runFresh(t, freshCase{
		files: depModule,
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			mmapReplace(t, filepath.Join(base, "root/dep/dep.go"), "func F()", "func G()")
		},
	})
}

// mmapReplace replaces old by new, of the same length, in the file at p
// through a shared mapping.
func mmapReplace(t *testing.T, p, old, new string) {
	t.Helper()
	if len(old) != len(new) {
		t.Fatalf("mmapReplace: %q and %q differ in length", old, new)
	}
	f, err := os.OpenFile(p, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	m, err := syscall.Mmap(int(f.Fd()), 0, int(st.Size()), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	i := strings.Index(string(m), old)
	if i < 0 {
		syscall.Munmap(m)
		t.Fatalf("%s does not hold %q", p, old)
	}
	copy(m[i:], new)
	if err := syscall.Munmap(m); err != nil {
		t.Fatal(err)
	}
}
