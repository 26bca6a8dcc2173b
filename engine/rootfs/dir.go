package rootfs

// This file defines [Dir], a directory of the root held open to read
// many of its files: what a caller that reads the files a [FS.Walk]
// found uses, so each read costs an open, a stat and a read, not a
// resolution of the whole path from the root.

import (
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// Dir is a directory under the root, open for reading its files. Reads
// go through an [os.Root] on it, which the kernel keeps inside the
// directory: a file that is a symlink leaving it is refused. Close it
// when done.
type Dir struct {
	rel  string // workspace path, "" for the root
	root *os.Root
}

// OpenDir opens the directory rel ("" for the root), resolving symlinks
// that stay inside the root as [FS.Abs] does.
func (f *FS) OpenDir(rel string) (*Dir, error) {
	root, name, err := f.openDir(rel)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	sub, err := root.OpenRoot(name)
	if err != nil {
		return nil, ioError("read", rel, err)
	}
	return &Dir{rel: rel, root: sub}, nil
}

// ReadFileMax is [FS.ReadFileMax] for the file name, one path segment,
// in the directory.
func (d *Dir) ReadFileMax(name string, max int64) ([]byte, fs.FileMode, error) {
	rel, err := d.relOf(name)
	if err != nil {
		return nil, 0, err
	}
	return readIn(d.root, name, rel, max)
}

// Stat is the file name's information, one path segment in the
// directory, following a symlink that stays in it as ReadFileMax does.
func (d *Dir) Stat(name string) (fs.FileInfo, error) {
	rel, err := d.relOf(name)
	if err != nil {
		return nil, err
	}
	fi, err := d.root.Stat(name)
	if err != nil {
		return nil, ioError("stat", rel, err)
	}
	return fi, nil
}

// relOf is the workspace path of the file name of the directory; an
// error when name is not one path segment.
func (d *Dir) relOf(name string) (string, error) {
	rel := name
	if d.rel != "" {
		rel = d.rel + "/" + name
	}
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\\\x00") {
		return rel, refuse(rel, fmt.Sprintf("%q is not a file name of the directory %q", name, d.rel))
	}
	return rel, nil
}

// Close closes the directory.
func (d *Dir) Close() error { return d.root.Close() }
