//go:build !linux && !darwin

package lsp

import (
	"io/fs"
	"os"
)

// statStamp is the stamp of the file at p (followed if a symlink when
// follow is set). Elsewhere than Linux and macOS (Windows gives no change
// time through fs.FileInfo, and its file index costs a handle per file):
// size, modification time in nanoseconds and mode are compared, and a
// racy file's content.
func statStamp(p string, follow bool) (stamp, error) {
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = os.Stat(p)
	} else {
		fi, err = os.Lstat(p)
	}
	if err != nil {
		return stamp{}, err
	}
	return stampOf(fi), nil
}

// sysStamp adds nothing elsewhere (see statStamp).
func sysStamp(*stamp, fs.FileInfo) {}
