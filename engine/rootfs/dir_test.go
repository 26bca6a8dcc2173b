package rootfs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

func TestDirReads(t *testing.T) {
	outside := testtree.New(t, map[string]string{"secret.txt": "no"})
	root := testtree.New(t, map[string]string{"a/b/f.txt": "hello", "top.txt": "top", "a/big.txt": "0123456789"})
	if err := os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(root, "a", "out.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	fsys, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ dir, name, want string }{
		{"", "top.txt", "top"}, {"a/b", "f.txt", "hello"}, {"link/b", "f.txt", "hello"},
	} {
		d, err := fsys.OpenDir(c.dir)
		if err != nil {
			t.Fatal(err)
		}
		data, _, err := d.ReadFileMax(c.name, 0)
		if err != nil || string(data) != c.want {
			t.Errorf("%s/%s: %q, %v", c.dir, c.name, data, err)
		}
		d.Close()
	}
	d, err := fsys.OpenDir("a")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"out.txt", "../top.txt", "b/f.txt", "", "..", "b"} {
		if data, _, err := d.ReadFileMax(name, 0); err == nil {
			t.Errorf("%q was read: %q", name, data)
		}
	}
	// Stat answers as ReadFileMax does: a file of the directory (big.txt,
	// its size), nothing through a symlink that leaves it or for a name
	// that is not one segment of it.
	if fi, err := d.Stat("big.txt"); err != nil || fi.Size() != 10 || !fi.Mode().IsRegular() {
		t.Errorf("Stat(big.txt) = %v, %v", fi, err)
	}
	for _, name := range []string{"out.txt", "../top.txt", "b/f.txt", "", "..", "missing.txt"} {
		if fi, err := d.Stat(name); err == nil {
			t.Errorf("%q was stat'ed: %v", name, fi.Name())
		}
	}
	var tl *TooLargeError
	if _, _, err := d.ReadFileMax("big.txt", 4); !errors.As(err, &tl) {
		t.Errorf("a file over the limit: %v", err)
	}
	if _, err := fsys.OpenDir("../x"); err == nil {
		t.Error("a directory outside the root was opened")
	}
}
