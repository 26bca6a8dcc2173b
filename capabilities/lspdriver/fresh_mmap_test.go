//go:build linux || darwin

package lspdriver_test

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// platformScenarios: a write through mmap, which no watcher reports.
var platformScenarios = []freshScenario{{
	name: "a write through mmap",
	files: map[string]string{
		"m/go.mod":  goMod,
		"m/a/a.go":  "package a\n\nfunc F() int { return 1 }\n",
		"m/main.go": "package main\n\nimport \"example.com/m/a\"\n\nfunc main() { println(a.F()) }\n",
	},
	change: func(t *testing.T, base string) []string {
		f, err := os.OpenFile(filepath.Join(base, "m/a/a.go"), os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		fi, err := f.Stat()
		if err != nil {
			t.Fatal(err)
		}
		mem, err := syscall.Mmap(int(f.Fd()), 0, int(fi.Size()), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_SHARED)
		if err != nil {
			t.Skipf("no mmap: %v", err)
		}
		i := bytes.Index(mem, []byte("func F("))
		if i < 0 {
			t.Fatal("no func F in a.go")
		}
		mem[i+5] = 'G'
		if err := syscall.Munmap(mem); err != nil {
			t.Fatal(err)
		}
		return nil
	},
}}
