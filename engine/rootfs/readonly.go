package rootfs

// This file defines the read-only rule: a file without write permission for
// its owner is not overwritten, deleted or moved unless the caller forces it.

import (
	"errors"
	"fmt"
	"io/fs"
)

// ErrReadOnly is wrapped by a [*ReadOnlyError]. Test with errors.Is.
var ErrReadOnly = errors.New("read-only file")

// ReadOnlyError refuses to change a file whose owner has no write
// permission.
type ReadOnlyError struct {
	Path string      // the workspace path
	Mode fs.FileMode // its permission bits
}

func (e *ReadOnlyError) Error() string {
	return fmt.Sprintf("%s is read-only (mode %04o: its owner has no write permission); make it writable (chmod u+w %s), or pass force: true to change it anyway (a written file keeps its mode)",
		e.Path, uint32(e.Mode.Perm()), e.Path)
}

// Unwrap returns [ErrReadOnly].
func (e *ReadOnlyError) Unwrap() error { return ErrReadOnly }

// ReadOnly reports whether a file with this info has no write permission
// for its owner. Only regular files are read-only in this sense.
func ReadOnly(fi fs.FileInfo) bool {
	return fi.Mode().IsRegular() && fi.Mode().Perm()&0o200 == 0
}

// CheckWritable returns a [*ReadOnlyError] when rel is a regular file
// without write permission for its owner (following symlinks that stay
// inside the root). A missing file, or one that cannot be examined, is no
// refusal here: the operation itself reports it.
func (f *FS) CheckWritable(rel string) error {
	fi, err := f.Stat(rel)
	if err != nil || !ReadOnly(fi) {
		return nil
	}
	return &ReadOnlyError{Path: rel, Mode: fi.Mode().Perm()}
}
