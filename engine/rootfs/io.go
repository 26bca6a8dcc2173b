package rootfs

// This file defines the disk operations of [FS]: reading, stat, atomic
// writes, renames and removals. Each resolves its path with [FS.Abs] and then
// acts through an [os.Root] on the resolved, symlink-free path.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// Mode bits of new files and directories, applied exactly, whatever the umask.
const (
	NewFileMode fs.FileMode = 0o644
	NewDirMode  fs.FileMode = 0o755
)

// keptBits are the mode bits an overwritten file keeps.
const keptBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// open resolves rel for op and opens the root. It returns the root (to be
// closed by the caller) and rel's resolved path relative to it.
func (f *FS) open(op, rel string) (*os.Root, string, error) {
	abs, err := f.Abs(rel)
	if err != nil {
		return nil, "", withOp(err, op)
	}
	root, err := os.OpenRoot(f.root)
	if err != nil {
		return nil, "", ioError(op, rel, err)
	}
	return root, f.rootRel(abs), nil
}

// openDir is [FS.open] for reading the directory rel, where "" names the
// root itself (".").
func (f *FS) openDir(rel string) (*os.Root, string, error) {
	if rel != "" {
		return f.open("read", rel)
	}
	root, err := os.OpenRoot(f.root)
	if err != nil {
		return nil, "", ioError("read", rel, err)
	}
	return root, ".", nil
}

// ReadFile returns the content and mode of the regular file rel, following
// symlinks that stay inside the root. A directory is refused with a hint to
// use a glob.
func (f *FS) ReadFile(rel string) ([]byte, fs.FileMode, error) {
	return f.ReadFileMax(rel, 0)
}

// ReadFileMax is [FS.ReadFile] for a file of at most max bytes (max <= 0:
// no limit). A larger file is refused with a *[TooLargeError] from its
// size, before any of it is read; one that grows past max while being
// read is refused after max+1 bytes.
func (f *FS) ReadFileMax(rel string, max int64) ([]byte, fs.FileMode, error) {
	root, name, err := f.open("read", rel)
	if err != nil {
		return nil, 0, err
	}
	defer root.Close()
	return readIn(root, name, rel, max)
}

// readIn reads the regular file name of root, whose workspace path is
// rel, as [FS.ReadFileMax] says.
func readIn(root *os.Root, name, rel string, max int64) ([]byte, fs.FileMode, error) {
	if fi, err := root.Stat(name); err != nil {
		return nil, 0, ioError("read", rel, err)
	} else if err := regular("read", rel, fi); err != nil {
		return nil, 0, err
	} else if max > 0 && fi.Size() > max {
		return nil, 0, &TooLargeError{Path: rel, Size: fi.Size(), Limit: max}
	}
	// Non-blocking, so that a FIFO swapped in after the check below cannot
	// hang the open; the fstat after it refuses it.
	file, err := root.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, 0, ioError("read", rel, err)
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, 0, ioError("read", rel, err)
	}
	if err := regular("read", rel, fi); err != nil {
		return nil, 0, err
	}
	if max > 0 && fi.Size() > max {
		return nil, 0, &TooLargeError{Path: rel, Size: fi.Size(), Limit: max}
	}
	data, err := readAtMost(file, rel, fi.Size(), max)
	if err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) {
			return nil, 0, err
		}
		return nil, 0, ioError("read", rel, err)
	}
	return data, fi.Mode(), nil
}

// readAtMost reads r to its end into a buffer sized for size bytes, the
// size fstat gave, and one more to meet the end without growing it; with
// limit > 0, it refuses the file at rel once more than limit bytes came (it
// grew after its size was checked).
func readAtMost(r io.Reader, rel string, size, limit int64) ([]byte, error) {
	if limit > 0 {
		r = io.LimitReader(r, limit+1)
		size = min(size, limit)
	}
	data := make([]byte, 0, max(size+1, 512))
	for {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // it grew: let append pick the new size
		}
		n, err := r.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
	}
	if limit > 0 && int64(len(data)) > limit {
		return nil, &TooLargeError{Path: rel, Size: int64(len(data)), Limit: limit, AtLeast: true}
	}
	return data, nil
}

// regular refuses anything but a regular file.
func regular(op, rel string, fi fs.FileInfo) error {
	switch {
	case fi.IsDir():
		return &PathError{Op: op, Path: rel, Err: fs.ErrInvalid,
			Reason: fmt.Sprintf("is a directory; a directory needs a glob, such as %q", rel+"/**")}
	case !fi.Mode().IsRegular():
		return &PathError{Op: op, Path: rel, Err: fs.ErrInvalid,
			Reason: fmt.Sprintf("is not a regular file (%v); only regular files can be used", fi.Mode().Type())}
	}
	return nil
}

// Stat returns the file info of rel, following symlinks that stay inside the
// root. A missing file gives an error for which errors.Is(err,
// fs.ErrNotExist) holds.
func (f *FS) Stat(rel string) (fs.FileInfo, error) {
	root, name, err := f.open("stat", rel)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	fi, err := root.Stat(name)
	if err != nil {
		return nil, ioError("stat", rel, err)
	}
	return fi, nil
}

// WriteFile replaces the content of rel atomically: it writes a temporary
// file in the same directory, fsyncs it, renames it over rel and fsyncs the
// directory (best effort), so a crash leaves the old or the new content,
// never a mix. An existing file keeps its mode bits exactly (and, where the
// platform allows, its owner); a new file gets [NewFileMode], and missing
// parent directories are created with [NewDirMode], whatever the umask.
// Writing through a symlink that stays inside the root writes its target and
// keeps the link. Directories and other non-regular files are refused.
func (f *FS) WriteFile(rel string, data []byte) error {
	return f.WriteFileIf(rel, data, nil)
}

// WriteFileIf is [FS.WriteFile] with a last check: after the new content is
// written to its temporary file and synced, and immediately before the
// rename that replaces the file, check is called with the file's current
// content (nil and exists false when there is none). An error from check
// aborts the write, leaving the file as it is, and is returned as is. This
// narrows the window in which an outside change could be overwritten to
// the rename itself. It is [FS.WriteFiles] of one file.
func (f *FS) WriteFileIf(rel string, data []byte, check func(current []byte, exists bool) error) error {
	_, _, err := f.WriteFiles(context.Background(), []FileWrite{{Path: rel, Content: string(data), Check: check}})
	return err
}

// Rename moves the file from to the path to, replacing a file there, and
// creates to's missing parent directories. Both paths are confined as by
// [FS.Abs]; a symlink is moved as a link (its target is not touched).
// Directories are refused.
func (f *FS) Rename(from, to string) error { return f.RenameIf(from, to, nil) }

// RenameIf is [FS.Rename] with a last check: check, when not nil, is called
// immediately before the rename itself, after the [Hooks.BeforeOp] hook and
// the checks of both paths. An error from check aborts the rename, leaving
// both paths as they are, and is returned as is.
func (f *FS) RenameIf(from, to string, check func() error) error {
	if err := f.before(OpRename, from, to); err != nil {
		return err
	}
	src, err := f.entry(OpRename, from)
	if err != nil {
		return err
	}
	dst, err := f.entry(OpRename, to)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(f.root)
	if err != nil {
		return ioError(OpRename, from, err)
	}
	defer root.Close()
	fi, err := root.Lstat(src)
	if err != nil {
		return ioError(OpRename, from, err)
	}
	if fi.IsDir() {
		return &PathError{Op: OpRename, Path: from, Err: fs.ErrInvalid, Reason: "is a directory; only files are renamed"}
	}
	if fi, err := root.Lstat(dst); err == nil && fi.IsDir() {
		return &PathError{Op: OpRename, Path: to, Err: fs.ErrInvalid, Reason: "the destination is a directory; give a file path"}
	}
	if src == dst {
		return nil
	}
	dir, _ := filepath.Split(dst)
	if err := mkdirs(root, OpRename, dir, to, nil); err != nil {
		return err
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	if err := root.Rename(src, dst); err != nil {
		return &PathError{Op: OpRename, Path: from, Err: err,
			Reason: fmt.Sprintf("cannot move to %q: %s", to, causeText(err))}
	}
	f.changed(src, dst)
	return nil
}

// Remove deletes the file rel (a symlink is removed as a link). Directories
// are refused.
func (f *FS) Remove(rel string) error { return f.RemoveIf(rel, nil) }

// RemoveIf is [FS.Remove] with a last check: check, when not nil, is called
// immediately before the removal itself, after the [Hooks.BeforeOp] hook.
// An error from check aborts the removal, leaving the file as it is, and is
// returned as is.
func (f *FS) RemoveIf(rel string, check func() error) error {
	if err := f.before(OpRemove, rel, ""); err != nil {
		return err
	}
	name, err := f.entry(OpRemove, rel)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(f.root)
	if err != nil {
		return ioError(OpRemove, rel, err)
	}
	defer root.Close()
	fi, err := root.Lstat(name)
	if err != nil {
		return ioError(OpRemove, rel, err)
	}
	if fi.IsDir() {
		return &PathError{Op: OpRemove, Path: rel, Err: fs.ErrInvalid, Reason: "is a directory; only files are removed"}
	}
	if check != nil {
		if err := check(); err != nil {
			return err
		}
	}
	if err := root.Remove(name); err != nil {
		return ioError(OpRemove, rel, err)
	}
	f.changed(name)
	return nil
}

// before runs the BeforeOp hook.
func (f *FS) before(op, path, to string) error {
	if f.hooks.BeforeOp == nil {
		return nil
	}
	if err := f.hooks.BeforeOp(op, path, to); err != nil {
		return &PathError{Op: op, Path: path, Err: err, Reason: "aborted by hook: " + err.Error()}
	}
	return nil
}

// entry confines rel as [FS.Abs] does and returns, relative to the root, the
// directory entry rel names itself: its parent resolved, its last component
// literal, so that a symlink is renamed or removed as a link.
func (f *FS) entry(op, rel string) (string, error) {
	if _, err := f.Abs(rel); err != nil {
		return "", withOp(err, op)
	}
	parent, base := filepath.Split(filepath.FromSlash(rel))
	dir := f.root
	if parent != "" {
		var err error
		if dir, err = f.resolve(filepath.Clean(parent)); err != nil {
			return "", withOp(err, op)
		}
	}
	return f.rootRel(filepath.Join(dir, base)), nil
}

// mkdirs creates the missing directories of dir (relative to root) with
// exactly [NewDirMode], and appends those it created to made (when not
// nil), parents first. op and rel are for errors.
func mkdirs(root *os.Root, op, dir, rel string, made *[]string) error {
	dir = filepath.Clean(dirOrDot(dir))
	if dir == "." {
		return nil
	}
	if err := mkdirs(root, op, filepath.Dir(dir), rel, made); err != nil {
		return err
	}
	fi, err := root.Stat(dir)
	switch {
	case err == nil && fi.IsDir():
		return nil
	case err == nil:
		return &PathError{Op: op, Path: rel, Err: fs.ErrInvalid,
			Reason: fmt.Sprintf("%q is a file, not a directory", filepath.ToSlash(dir))}
	case !errors.Is(err, fs.ErrNotExist):
		return ioError(op, rel, err)
	}
	switch err := root.Mkdir(dir, NewDirMode); {
	case err == nil && made != nil:
		*made = append(*made, dir)
	case err != nil && !errors.Is(err, fs.ErrExist):
		return ioError(op, rel, err)
	}
	if err := root.Chmod(dir, NewDirMode); err != nil { // undo the umask
		return ioError(op, rel, err)
	}
	return nil
}

func dirOrDot(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}

// syncDir fsyncs a directory so a rename in it is durable. Best effort: the
// new content is already in place, and not every platform can sync a
// directory.
func syncDir(dir *os.Root) {
	d, err := dir.Open(".")
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
