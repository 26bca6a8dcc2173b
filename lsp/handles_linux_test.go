package lsp

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestScanThroughHandles: with every stamp settled, a scan takes the
// stamps through the handles the last kept, and still finds what a stat
// by path finds: a write, a write through a hard link elsewhere, a file
// replaced by one of the same size and mtime, a file removed, both with
// the directory's change in the tick of its listing, a directory
// replaced by another holding the same file, and a directory mounted
// over (which changes no directory's stamp).
func TestScanThroughHandles(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	a, b, x := filepath.Join(root, "a/a.go"), filepath.Join(root, "a/b.go"), filepath.Join(root, "d/x.go")
	mkfile(t, a, "package a\n")
	mkfile(t, b, "package a\n")
	mkfile(t, x, "package d\n")
	elsewhere := filepath.Join(base, "elsewhere.go")
	if err := os.Link(b, elsewhere); err != nil {
		t.Fatal(err)
	}
	tr := newTracker(&Config{Root: root})
	if tr.handles == nil {
		t.Skip("no handles: /proc/self/mountinfo cannot be read")
	}
	tr.window = 0 // every stamp settled: every handle kept in use
	scanOnce(t, tr)
	scanOnce(t, tr)
	if n := tr.handles.count(); n != 6 { // root, a, d and their three files
		t.Fatalf("%d handles kept, want 6", n)
	}
	// putBack gives the file at p the modification time it had.
	putBack := func(p string, mtime time.Time) {
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	mtime := func(p string) time.Time {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.ModTime()
	}
	steps := []struct {
		name string
		do   func()
		want map[string]bool
	}{
		{"nothing", func() {}, map[string]bool{}},
		{"the same size", func() { mkfile(t, a, "package b\n") }, map[string]bool{a: false}},
		{"through a hard link", func() { mkfile(t, elsewhere, "package n\n") }, map[string]bool{b: false}},
		{"replaced, the same size and mtime", func() {
			old := mtime(a)
			mkfile(t, filepath.Join(base, "new.go"), "package c\n")
			putBack(filepath.Join(base, "new.go"), old)
			if err := os.Rename(filepath.Join(base, "new.go"), a); err != nil {
				t.Fatal(err)
			}
		}, map[string]bool{a: false}},
		{"replaced in the tick of the listing", func() {
			old := mtime(a)
			mkfile(t, filepath.Join(base, "new.go"), "package e\n")
			putBack(filepath.Join(base, "new.go"), old)
			if err := os.Rename(filepath.Join(base, "new.go"), a); err != nil {
				t.Fatal(err)
			}
			settle(t, tr)
		}, map[string]bool{a: false}},
		{"removed in the tick of the listing", func() {
			if err := os.Remove(b); err != nil {
				t.Fatal(err)
			}
			settle(t, tr)
		}, map[string]bool{b: false}},
		{"a directory replaced", func() {
			old := mtime(x)
			if err := os.Rename(filepath.Join(root, "d"), filepath.Join(base, "d.old")); err != nil {
				t.Fatal(err)
			}
			mkfile(t, x, "package d\n")
			putBack(x, old)
		}, map[string]bool{x: false}},
	}
	for _, st := range steps {
		st.do()
		if got := scanOnce(t, tr); !maps.Equal(got, st.want) {
			t.Fatalf("%s: changes %v, want %v", st.name, got, st.want)
		}
	}

	// A mount over d: no directory's stamp changes.
	other := filepath.Join(base, "other")
	mkfile(t, filepath.Join(other, "x.go"), "package other\n")
	mkfile(t, filepath.Join(other, "y.go"), "package other\n")
	if err := syscall.Mount(other, filepath.Join(root, "d"), "", syscall.MS_BIND, ""); err != nil {
		if errors.Is(err, syscall.EPERM) || errors.Is(err, syscall.EACCES) {
			t.Skipf("no mount: %v", err)
		}
		t.Fatal(err)
	}
	mounted := true
	unmount := func() {
		if mounted {
			mounted = false
			if err := syscall.Unmount(filepath.Join(root, "d"), 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	defer unmount()
	y := filepath.Join(root, "d/y.go")
	if got, want := scanOnce(t, tr), map[string]bool{x: false, y: true}; !maps.Equal(got, want) {
		t.Fatalf("mounted over: changes %v, want %v", got, want)
	}
	unmount()
	if got, want := scanOnce(t, tr), map[string]bool{x: false, y: false}; !maps.Equal(got, want) {
		t.Fatalf("unmounted: changes %v, want %v", got, want)
	}
}

// TestScanHandlesBounded: past the process's share of handles, inputs are
// stat'ed by path, and changes are found the same; the handles of what a
// scan no longer finds are closed; a server's stop closes them all, and
// after its Close none is kept again.
func TestScanHandlesBounded(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	var files []string
	for _, p := range []string{"a.go", "b.go", "c/c.go", "c/d.go"} {
		files = append(files, filepath.Join(root, p))
		mkfile(t, files[len(files)-1], "package x\n")
	}
	tr := newTracker(&Config{Root: root})
	if tr.handles == nil {
		t.Skip("no handles: /proc/self/mountinfo cannot be read")
	}
	tr.window = 0
	scanOnce(t, tr)
	if n := tr.handles.count(); n != 6 {
		t.Fatalf("%d handles kept, want 6", n)
	}
	if err := os.RemoveAll(filepath.Join(root, "c")); err != nil {
		t.Fatal(err)
	}
	if got, want := scanOnce(t, tr), map[string]bool{files[2]: false, files[3]: false}; !maps.Equal(got, want) {
		t.Fatalf("removed: changes %v, want %v", got, want)
	}
	if n := tr.handles.count(); n != 3 {
		t.Fatalf("%d handles kept after c was removed, want 3", n)
	}
	tr.dropHandles(false)
	if n := tr.handles.count(); n != 0 {
		t.Fatalf("%d handles kept after the stop, want 0", n)
	}

	saved := maxHandles
	t.Cleanup(func() { maxHandles = saved })
	maxHandles = openHandles.Load() + 2
	scanOnce(t, tr)
	for _, p := range files[:2] {
		mkfile(t, p, "package changed\n")
	}
	if got, want := scanOnce(t, tr), map[string]bool{files[0]: false, files[1]: false}; !maps.Equal(got, want) {
		t.Fatalf("with two handles: changes %v, want %v", got, want)
	}
	if n := tr.handles.count(); n > 2 {
		t.Fatalf("%d handles kept, want at most 2", n)
	}
	maxHandles = saved

	tr.dropHandles(true)
	scanOnce(t, tr)
	mkfile(t, files[0], "package again\n")
	if got, want := scanOnce(t, tr), map[string]bool{files[0]: false}; !maps.Equal(got, want) {
		t.Fatalf("after Close: changes %v, want %v", got, want)
	}
	if n := tr.handles.count(); n != 0 {
		t.Fatalf("%d handles kept after Close, want 0", n)
	}
}

// TestMountPointsUnder: the mount points below the root, read from a
// mount table as the kernel writes it (a space escaped in octal).
func TestMountPointsUnder(t *testing.T) {
	table := `22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw
40 22 254:0 /tmp/b /root/x/sub rw - ext4 /dev/vda rw
41 22 0:5 / /root/x/with\040space rw - tmpfs tmpfs rw
42 22 0:6 / /root/xy rw - tmpfs tmpfs rw
43 22 0:7 / /root/x rw - tmpfs tmpfs rw
`
	got := mountPointsUnder(table, "/root/x")
	want := map[string]bool{"/root/x/sub": true, "/root/x/with space": true}
	if !maps.Equal(got, want) {
		t.Fatalf("mount points %v, want %v", got, want)
	}
}

// count is the number of handles kept (for tests).
func (h *handles) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for _, d := range h.dirs {
		if d.self != noHandle {
			n++
		}
		for _, f := range d.files {
			if f != noHandle {
				n++
			}
		}
	}
	return n
}
