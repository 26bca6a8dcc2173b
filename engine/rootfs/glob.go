package rootfs

// This file defines [FS.Glob] and the confined fs.FS it walks.

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/bmatcuk/doublestar/v4"
)

// Glob returns the regular files matching pattern as workspace paths, sorted.
// The syntax is doublestar's: `*` and `?` match within one segment, `**`
// matches any number of segments, plus `[...]` classes, `{a,b}` alternatives
// and `\` escapes. Wildcards match dot-files too.
//
// A symlink to a file inside the root matches under its own (link) path; a
// symlink that leads out of the root never matches, and `**` does not descend
// into symlinked directories (so link loops cannot hang it). No match is an
// empty slice and no error: the caller decides whether that is a failure. An
// invalid pattern is an error naming it.
func (f *FS) Glob(pattern string) ([]string, error) {
	if err := check(pattern, true); err != nil {
		return nil, withOp(err, "glob")
	}
	if !doublestar.ValidatePattern(pattern) {
		return nil, &PathError{Op: "glob", Path: pattern, Err: doublestar.ErrBadPattern,
			Reason: `invalid glob pattern (unbalanced "[" or "{", or a trailing "\"); use "*" for one segment and "**" for any depth`}
	}
	matches, err := doublestar.Glob(globFS{f}, pattern, doublestar.WithFilesOnly(), doublestar.WithNoFollow())
	if err != nil {
		return nil, &PathError{Op: "glob", Path: pattern, Err: err}
	}
	files := matches[:0]
	for _, m := range matches {
		if fi, err := f.Stat(m); err == nil && fi.Mode().IsRegular() {
			files = append(files, m)
		}
	}
	slices.Sort(files)
	return slices.Compact(files), nil
}

// globFS is the tree seen by doublestar: every name is resolved by
// [FS.Abs], so nothing outside the root is listed or opened. Names that
// escape read as missing, which doublestar skips.
type globFS struct{ f *FS }

func (g globFS) abs(op, name string) (string, error) {
	if name == "." {
		return g.f.root, nil
	}
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	abs, err := g.f.Abs(name)
	if err != nil {
		if errors.Is(err, ErrOutsideRoot) {
			err = fmt.Errorf("%w: %w", fs.ErrNotExist, err)
		}
		return "", &fs.PathError{Op: op, Path: name, Err: err}
	}
	return abs, nil
}

func (g globFS) Open(name string) (fs.File, error) {
	abs, err := g.abs("open", name)
	if err != nil {
		return nil, err
	}
	return os.Open(abs)
}

func (g globFS) Stat(name string) (fs.FileInfo, error) {
	abs, err := g.abs("stat", name)
	if err != nil {
		return nil, err
	}
	return os.Stat(abs)
}

func (g globFS) ReadDir(name string) ([]fs.DirEntry, error) {
	abs, err := g.abs("readdir", name)
	if err != nil {
		return nil, err
	}
	return os.ReadDir(abs)
}

var (
	_ fs.StatFS    = globFS{}
	_ fs.ReadDirFS = globFS{}
)
