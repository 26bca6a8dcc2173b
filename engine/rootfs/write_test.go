package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// listAll returns every entry under dir, relative, for spotting leftovers.
func listAll(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != dir {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func modeOf(t *testing.T, p string) fs.FileMode {
	t.Helper()
	fi, err := os.Lstat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode()
}

// withUmask runs the test under umask 077 (process-wide: not parallel).
func withUmask(t *testing.T) {
	old := umask(0o077)
	t.Cleanup(func() { umask(old) })
}

func TestWriteFileKeepsMode(t *testing.T) {
	withUmask(t)
	f, _ := newTree(t)
	root := f.Root()
	for _, m := range []fs.FileMode{0o755, 0o600, 0o640, 0o777, 0o400} {
		p := filepath.Join(root, "script.sh")
		mustWrite(t, p, "old\n")
		if err := os.Chmod(p, m); err != nil {
			t.Fatal(err)
		}
		if err := f.WriteFile("script.sh", []byte("#!/bin/sh\necho new\n")); err != nil {
			t.Fatal(err)
		}
		if got := modeOf(t, p).Perm(); got != m {
			t.Errorf("mode after write = %v, want %v", got, m)
		}
		if got := readString(t, p); got != "#!/bin/sh\necho new\n" {
			t.Errorf("content = %q", got)
		}
	}
	// Setgid survives too.
	p := filepath.Join(root, "sg")
	mustWrite(t, p, "x")
	if err := os.Chmod(p, 0o755|fs.ModeSetgid); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile("sg", []byte("y")); err != nil {
		t.Fatal(err)
	}
	if got := modeOf(t, p); got != 0o755|fs.ModeSetgid {
		t.Errorf("setgid mode after write = %v", got)
	}
}

func TestWriteFileNew(t *testing.T) {
	withUmask(t)
	f, _ := newTree(t)
	root := f.Root()
	data := []byte("line 1\r\nline 2\x00 no newline \xff")
	if err := f.WriteFile("a/b/c/new.txt", data); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(root, "a/b/c/new.txt")); got != string(data) {
		t.Errorf("content = %q", got)
	}
	if got := modeOf(t, filepath.Join(root, "a/b/c/new.txt")); got != 0o644 {
		t.Errorf("new file mode = %v, want 0644 despite umask 077", got)
	}
	for _, d := range []string{"a", "a/b", "a/b/c"} {
		if got := modeOf(t, filepath.Join(root, d)); got != fs.ModeDir|0o755 {
			t.Errorf("dir %s mode = %v, want drwxr-xr-x", d, got)
		}
	}
	// Empty content is a real empty file.
	if err := f.WriteFile("empty", nil); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(root, "empty")); got != "" {
		t.Errorf("empty = %q", got)
	}
	// No temporary files left behind.
	want := "a a/b a/b/c a/b/c/new.txt empty sub sub/in.txt"
	if got := strings.Join(listAll(t, root), " "); got != want {
		t.Errorf("tree = %s\nwant   %s", got, want)
	}
	// ReadFile returns what was written and the mode.
	b, mode, err := f.ReadFile("a/b/c/new.txt")
	if err != nil || string(b) != string(data) || mode != 0o644 {
		t.Errorf("ReadFile = %q, %v, %v", b, mode, err)
	}
}

func TestWriteFileRefusals(t *testing.T) {
	f, _ := newTree(t)
	root := f.Root()
	if err := f.WriteFile("sub", []byte("x")); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("WriteFile(dir) = %v", err)
	}
	if err := f.WriteFile("sub/in.txt/x", []byte("x")); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("WriteFile(file/x) = %v", err)
	}
	if err := mkfifo(filepath.Join(root, "fifo")); errors.Is(err, errors.ErrUnsupported) {
		t.Skip("no named pipes on this platform")
	} else if err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile("fifo", []byte("x")); err == nil || !strings.Contains(err.Error(), "regular") {
		t.Errorf("WriteFile(fifo) = %v", err)
	}
	if _, _, err := f.ReadFile("fifo"); err == nil || !strings.Contains(err.Error(), "regular") {
		t.Errorf("ReadFile(fifo) = %v", err)
	}
	if got := strings.Join(listAll(t, root), " "); got != "fifo sub sub/in.txt" {
		t.Errorf("tree after refusals = %s", got)
	}
}

func TestRenameAndRemove(t *testing.T) {
	withUmask(t)
	f, _ := newTree(t)
	root := f.Root()
	if err := f.Rename("sub/in.txt", "x/y/moved.txt"); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(root, "x/y/moved.txt")); got != "inside\n" {
		t.Errorf("moved content = %q", got)
	}
	if _, err := f.Stat("sub/in.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("source still there: %v", err)
	}
	if got := modeOf(t, filepath.Join(root, "x/y")); got != fs.ModeDir|0o755 {
		t.Errorf("created dir mode = %v", got)
	}
	// A symlink is moved and removed as a link.
	mustSymlink(t, "x/y/moved.txt", filepath.Join(root, "ln"))
	if err := f.Rename("ln", "ln2"); err != nil {
		t.Fatal(err)
	}
	if target, err := os.Readlink(filepath.Join(root, "ln2")); err != nil || target != "x/y/moved.txt" {
		t.Errorf("renamed link = %q, %v", target, err)
	}
	if err := f.Remove("ln2"); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(root, "x/y/moved.txt")); got != "inside\n" {
		t.Errorf("link target touched: %q", got)
	}
	if err := f.Remove("x/y/moved.txt"); err != nil {
		t.Fatal(err)
	}
	if err := f.Remove("x/y/moved.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("second Remove = %v", err)
	}
	if err := f.Remove("x"); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("Remove(dir) = %v", err)
	}
	if err := f.Rename("x", "z"); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("Rename(dir) = %v", err)
	}
	if err := f.Rename("nope", "z"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Rename(missing) = %v", err)
	}
	if got := strings.Join(listAll(t, root), " "); got != "sub x x/y" {
		t.Errorf("tree = %s", got)
	}
}

func TestHooks(t *testing.T) {
	f, _ := newTree(t)
	root := f.Root()
	boom := errors.New("injected")
	var calls []string
	h := f.WithHooks(Hooks{BeforeOp: func(op, path, to string) error {
		calls = append(calls, op+" "+path+" "+to)
		if strings.HasPrefix(path, "fail") || strings.HasPrefix(to, "fail") {
			return boom
		}
		return nil
	}})
	if err := h.WriteFile("fail.txt", []byte("x")); !errors.Is(err, boom) || !strings.Contains(err.Error(), `"fail.txt"`) {
		t.Errorf("WriteFile = %v", err)
	}
	if err := h.Rename("sub/in.txt", "fail/x"); !errors.Is(err, boom) {
		t.Errorf("Rename = %v", err)
	}
	if err := h.Remove("sub/in.txt"); err != nil {
		t.Errorf("Remove = %v", err)
	}
	want := "write fail.txt |rename sub/in.txt fail/x|remove sub/in.txt "
	if got := strings.Join(calls, "|"); got != want {
		t.Errorf("calls = %q, want %q", got, want)
	}
	if got := strings.Join(listAll(t, root), " "); got != "sub" {
		t.Errorf("tree = %s", got)
	}
	// The original FS has no hooks.
	if err := f.WriteFile("fail.txt", []byte("x")); err != nil {
		t.Errorf("unhooked WriteFile = %v", err)
	}
}
