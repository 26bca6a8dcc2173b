package rootfs

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
)

// TempRenamePrefix starts the name of the temporary file through which a
// genuine rename swap goes (see [FS.TempRenameName]).
const TempRenamePrefix = ".dev-tools-rename-"

// tempRenameTries is how many random names TempRenameName tries.
const tempRenameTries = 8

// TempRenameName returns a workspace path "<dir>/.dev-tools-rename-<hex>"
// (just ".dev-tools-rename-<hex>" when dir is "", the root) that does not
// exist on disk, for parking a file during a rename swap. Each candidate is
// checked with a no-follow stat; a taken name is regenerated, up to 8 tries,
// then it is an error. The name is not reserved: the caller renames onto it
// right away.
func (f *FS) TempRenameName(dir string) (string, error) {
	dirAbs := f.root
	if dir != "" {
		var err error
		if dirAbs, err = f.Abs(dir); err != nil {
			return "", withOp(err, "temp name")
		}
	}
	src := f.hooks.Rand
	if src == nil {
		src = rand.Reader
	}
	var last string
	for range tempRenameTries {
		var b [8]byte
		if _, err := io.ReadFull(src, b[:]); err != nil {
			return "", &PathError{Op: "temp name", Path: dir, Err: err, Reason: "no randomness: " + err.Error()}
		}
		base := TempRenamePrefix + hex.EncodeToString(b[:])
		name := path.Join(dir, base)
		_, err := os.Lstat(filepath.Join(dirAbs, base))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return name, nil
		case err != nil:
			return "", ioError("temp name", name, err)
		}
		last = name
	}
	return "", &PathError{Op: "temp name", Path: dir, Err: fs.ErrExist,
		Reason: fmt.Sprintf("%d random temporary names were all taken (last %q); remove stale %s* files", tempRenameTries, last, TempRenamePrefix)}
}
