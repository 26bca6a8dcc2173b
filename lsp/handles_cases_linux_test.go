package lsp

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestScanHandlesAsByPath: for each change below, a scan through the
// handles the last scan kept reports what a scan by path (no handles)
// reports, and that is not nothing. The changes: a symlink's target
// outside the root swapped by renames (the old target keeping a name), a
// directory swapped for another by renames, a file swapped by a rename in
// its directory (the one replaced gone, or kept by a hard link
// elsewhere), a write through a hard link under the root, a directory
// replaced by a symlink to one (outside the root and under it), a change
// of a file's or a directory's mode, a directory removed and made
// again, the root replaced, and a bind mount over a file and over the
// root's parent. "In the tick" marks a change the directories' stamps do
// not show: the last scan is made to have found them as they are now,
// settled (settle), as if it had listed them in the tick of the change.
func TestScanHandlesAsByPath(t *testing.T) {
	if newHandles() == nil {
		t.Skip("no handles: /proc/self/mountinfo cannot be read")
	}
	mtime := func(t *testing.T, p string) time.Time {
		fi, err := os.Lstat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	putBack := func(t *testing.T, p string, m time.Time) {
		if err := os.Chtimes(p, m, m); err != nil {
			t.Fatal(err)
		}
	}
	must := func(t *testing.T, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	mount := func(t *testing.T, from, onto string) {
		if err := syscall.Mount(from, onto, "", syscall.MS_BIND, ""); err != nil {
			if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) {
				t.Skipf("no mount: %v", err)
			}
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = syscall.Unmount(onto, syscall.MNT_DETACH) })
	}
	cases := []struct {
		name string
		// make builds the tree under base/root (root's parent is base).
		make func(t *testing.T, base, root string)
		// change changes it; e.settle makes the last scans have found
		// the directories as they are now.
		change func(t *testing.T, e *twoScans)
	}{
		{"a symlink's target outside the root swapped", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(base, "out/t.go"), "package t\n")
			must(t, os.MkdirAll(root, 0o755))
			must(t, os.Symlink(filepath.Join(base, "out/t.go"), filepath.Join(root, "l.go")))
		}, func(t *testing.T, e *twoScans) {
			t1 := filepath.Join(e.base, "out/t.go")
			old := mtime(t, t1)
			must(t, os.Rename(t1, t1+".bak"))
			mkfile(t, filepath.Join(e.base, "out/new.go"), "package u\n")
			putBack(t, filepath.Join(e.base, "out/new.go"), old)
			must(t, os.Rename(filepath.Join(e.base, "out/new.go"), t1))
		}},
		{"a symlink's target directory outside the root swapped", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(base, "outd/t.go"), "package t\n")
			must(t, os.MkdirAll(root, 0o755))
			must(t, os.Symlink(filepath.Join(base, "outd"), filepath.Join(root, "ld")))
		}, func(t *testing.T, e *twoScans) {
			d := filepath.Join(e.base, "outd")
			must(t, os.Rename(d, d+".bak"))
			mkfile(t, filepath.Join(e.base, "new/t.go"), "package t\n")
			must(t, os.Rename(filepath.Join(e.base, "new"), d))
		}},
		{"a directory swapped for another, in the tick", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "d/x.go"), "package d\n")
			mkfile(t, filepath.Join(root, "d/sub/y.go"), "package sub\n")
		}, func(t *testing.T, e *twoScans) {
			x, y := filepath.Join(e.root, "d/x.go"), filepath.Join(e.root, "d/sub/y.go")
			mx, my := mtime(t, x), mtime(t, y)
			mkfile(t, filepath.Join(e.base, "new/x.go"), "package e\n")
			mkfile(t, filepath.Join(e.base, "new/sub/y.go"), "package f\n")
			putBack(t, filepath.Join(e.base, "new/x.go"), mx)
			putBack(t, filepath.Join(e.base, "new/sub/y.go"), my)
			must(t, os.Rename(filepath.Join(e.root, "d"), filepath.Join(e.base, "d.old")))
			must(t, os.Rename(filepath.Join(e.base, "new"), filepath.Join(e.root, "d")))
			e.settle(t)
		}},
		{"a directory swapped for another", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "d/x.go"), "package d\n")
		}, func(t *testing.T, e *twoScans) {
			x := filepath.Join(e.root, "d/x.go")
			mx := mtime(t, x)
			mkfile(t, filepath.Join(e.base, "new/x.go"), "package e\n")
			putBack(t, filepath.Join(e.base, "new/x.go"), mx)
			must(t, os.Rename(filepath.Join(e.root, "d"), filepath.Join(e.base, "d.old")))
			must(t, os.Rename(filepath.Join(e.base, "new"), filepath.Join(e.root, "d")))
		}},
		{"a file swapped by a rename in its directory, in the tick", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "a/a.go"), "package a\n")
			mkfile(t, filepath.Join(root, "a/b.go"), "package b\n")
		}, func(t *testing.T, e *twoScans) {
			a, b := filepath.Join(e.root, "a/a.go"), filepath.Join(e.root, "a/b.go")
			putBack(t, b, mtime(t, a))
			must(t, os.Rename(b, a))
			e.settle(t)
		}},
		{"a file hard-linked elsewhere swapped by a rename, in the tick", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "a/a.go"), "package a\n")
			mkfile(t, filepath.Join(root, "a/b.go"), "package b\n")
			must(t, os.Link(filepath.Join(root, "a/a.go"), filepath.Join(base, "keep.go")))
		}, func(t *testing.T, e *twoScans) {
			a, b := filepath.Join(e.root, "a/a.go"), filepath.Join(e.root, "a/b.go")
			putBack(t, b, mtime(t, a))
			must(t, os.Rename(b, a))
			e.settle(t)
		}},
		{"a write through a hard link under the root", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "a/a.go"), "package a\n")
			must(t, os.MkdirAll(filepath.Join(root, "b"), 0o755))
			must(t, os.Link(filepath.Join(root, "a/a.go"), filepath.Join(root, "b/b.go")))
		}, func(t *testing.T, e *twoScans) {
			mkfile(t, filepath.Join(e.root, "b/b.go"), "package z\n")
		}},
		{"a directory replaced by a symlink to one outside", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "d/x.go"), "package d\n")
			mkfile(t, filepath.Join(base, "other/x.go"), "package d\n")
		}, func(t *testing.T, e *twoScans) {
			must(t, os.Rename(filepath.Join(e.root, "d"), filepath.Join(e.base, "d.old")))
			must(t, os.Symlink(filepath.Join(e.base, "other"), filepath.Join(e.root, "d")))
		}},
		{"a directory replaced by a symlink to one under the root", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "d/x.go"), "package d\n")
			mkfile(t, filepath.Join(root, "e/x.go"), "package d\n")
		}, func(t *testing.T, e *twoScans) {
			must(t, os.Rename(filepath.Join(e.root, "d"), filepath.Join(e.base, "d.old")))
			must(t, os.Symlink(filepath.Join(e.root, "e"), filepath.Join(e.root, "d")))
		}},
		{"a file's mode changed", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "a/a.go"), "package a\n")
		}, func(t *testing.T, e *twoScans) {
			must(t, os.Chmod(filepath.Join(e.root, "a/a.go"), 0o600))
		}},
		{"a directory's mode changed", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "a/a.go"), "package a\n")
		}, func(t *testing.T, e *twoScans) {
			must(t, os.Chmod(filepath.Join(e.root, "a"), 0o700))
			mkfile(t, filepath.Join(e.root, "a/b.go"), "package a\n")
		}},
		{"a directory removed and made again, in the tick", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "d/x.go"), "package d\n")
		}, func(t *testing.T, e *twoScans) {
			x := filepath.Join(e.root, "d/x.go")
			mx := mtime(t, x)
			must(t, os.RemoveAll(filepath.Join(e.root, "d")))
			mkfile(t, x, "package e\n")
			putBack(t, x, mx)
			e.settle(t)
		}},
		{"the root replaced", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "d/x.go"), "package d\n")
		}, func(t *testing.T, e *twoScans) {
			x := filepath.Join(e.root, "d/x.go")
			mx := mtime(t, x)
			must(t, os.Rename(e.root, e.root+".old"))
			mkfile(t, x, "package e\n")
			putBack(t, x, mx)
		}},
		{"a bind mount over a file", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "a/a.go"), "package a\n")
			mkfile(t, filepath.Join(base, "other.go"), "package o\n")
		}, func(t *testing.T, e *twoScans) {
			mount(t, filepath.Join(e.base, "other.go"), filepath.Join(e.root, "a/a.go"))
		}},
		{"a bind mount over the root's parent", func(t *testing.T, base, root string) {
			mkfile(t, filepath.Join(root, "a/a.go"), "package a\n")
		}, func(t *testing.T, e *twoScans) {
			other := e.base + ".other"
			mkfile(t, filepath.Join(other, "root/a/a.go"), "package o\n")
			t.Cleanup(func() { os.RemoveAll(other) })
			mount(t, other, e.base)
		}},
	}
	for _, c := range cases {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			tmp, _ := filepath.EvalSymlinks(t.TempDir())
			base := filepath.Join(tmp, "base")
			root := filepath.Join(base, "root")
			c.make(t, base, root)
			e := &twoScans{base: base, root: root, tr: newTracker(&Config{Root: root}), ref: newTracker(&Config{Root: root})}
			e.ref.handles = nil
			t.Cleanup(func() { e.tr.dropHandles(true) })
			for _, tr := range []*tracker{e.tr, e.ref} {
				tr.window = 0 // every stamp settled: every handle kept in use
				scanOnce(t, tr)
				scanOnce(t, tr)
			}
			if e.tr.handles.count() == 0 {
				t.Fatal("no handle kept")
			}
			c.change(t, e)
			got, _ := e.tr.scan()
			want, _ := e.ref.scan()
			if len(want) == 0 || !maps.Equal(got, want) {
				t.Fatalf("through handles: changes %v; by path: %v", got, want)
			}
			// And the next scans agree (nothing more).
			got, _ = e.tr.scan()
			want, _ = e.ref.scan()
			if !maps.Equal(got, want) {
				t.Fatalf("the scan after: through handles: changes %v; by path: %v", got, want)
			}
		})
	}
}

// twoScans are a tracker with handles and one without on the same root.
type twoScans struct {
	base, root string
	tr, ref    *tracker
}

func (e *twoScans) settle(t *testing.T) {
	settle(t, e.tr)
	settle(t, e.ref)
}

// TestScanHandlesOnlyUnderTheRoot: the go command's inputs outside the
// root (a replace directory, a go.mod in a parent) are stat'ed by path,
// never through a handle, and a change there is found; a file removed
// under the root has its handle closed by the next scan (it keeps its
// space until then); a mount point below the root keeps no handle on it
// or under it.
func TestScanHandlesOnlyUnderTheRoot(t *testing.T) {
	base, root, dep := replaceModule(t)
	mkfile(t, filepath.Join(root, "big.bin"), strings.Repeat("x", 1<<20))
	mkfile(t, filepath.Join(root, "sub/s.go"), "package sub\n")
	tr := newTracker(&Config{Root: root, Inputs: Inputs{Go: true}})
	if tr.handles == nil {
		t.Skip("no handles: /proc/self/mountinfo cannot be read")
	}
	defer tr.dropHandles(true)
	tr.window = 0
	scanOnce(t, tr)
	scanOnce(t, tr)
	under := func() {
		t.Helper()
		tr.handles.mu.Lock()
		defer tr.handles.mu.Unlock()
		for dir := range tr.handles.dirs {
			if dir != root && !strings.HasPrefix(dir, root+"/") {
				t.Fatalf("handles kept in %s, outside the root %s", dir, root)
			}
		}
	}
	under()
	if n := tr.handles.count(); n != 6 { // m, m/sub and their 4 files
		t.Fatalf("%d handles kept, want 6", n)
	}
	// The replace directory's file swapped by renames, the old one kept.
	mkfile(t, filepath.Join(base, "dep/new.go"), "package dep\n\nvar X = 1\n")
	if err := os.Rename(dep, dep+".bak"); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(base, "dep/new.go"), dep); err != nil {
		t.Fatal(err)
	}
	mkfile(t, filepath.Join(base, "go.mod"), "module example.com/parent\n")
	want := map[string]bool{dep: false, dep + ".bak": true, filepath.Join(base, "go.mod"): true}
	if got := scanOnce(t, tr); !maps.Equal(got, want) {
		t.Fatalf("outside the root: changes %v, want %v", got, want)
	}
	under()
	if err := os.Remove(filepath.Join(root, "big.bin")); err != nil {
		t.Fatal(err)
	}
	if held := deletedHeld(t); held == 0 {
		t.Fatal("the removed file's handle is not held before the next scan")
	}
	scanOnce(t, tr)
	if held := deletedHeld(t); held != 0 {
		t.Fatalf("%d removed files still held after the next scan", held)
	}

	other := filepath.Join(base, "other")
	mkfile(t, filepath.Join(other, "o.go"), "package o\n")
	if err := syscall.Mount(other, filepath.Join(root, "sub"), "", syscall.MS_BIND, ""); err != nil {
		t.Skipf("no mount: %v", err)
	}
	defer syscall.Unmount(filepath.Join(root, "sub"), syscall.MNT_DETACH)
	scanOnce(t, tr)
	scanOnce(t, tr)
	tr.handles.mu.Lock()
	for dir, d := range tr.handles.dirs {
		if strings.HasPrefix(dir, filepath.Join(root, "sub")) && (d.self != noHandle || len(d.files) > 0) {
			t.Errorf("handles kept in %s, on or under a mount point", dir)
		}
	}
	tr.handles.mu.Unlock()
}

// deletedHeld counts the process's descriptors on removed files.
func deletedHeld(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip(err)
	}
	n := 0
	for _, e := range ents {
		if target, err := os.Readlink("/proc/self/fd/" + e.Name()); err == nil && strings.HasSuffix(target, "big.bin (deleted)") {
			n++
		}
	}
	return n
}
