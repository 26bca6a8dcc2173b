//go:build linux || darwin

package lsp

import (
	"io/fs"
	"syscall"
)

// sysStamp adds what stat gives beyond fs.FileInfo: the change time, the
// inode and the device.
func sysStamp(st *stamp, fi fs.FileInfo) {
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		sys := stampOfSys(s)
		st.ctime, st.ino, st.dev = sys.ctime, sys.ino, sys.dev
	}
}

// modeOf is the fs.FileMode of a stat mode, as os.Lstat gives it.
func modeOf(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & syscall.S_IFMT {
	case syscall.S_IFBLK:
		mode |= fs.ModeDevice
	case syscall.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case syscall.S_IFDIR:
		mode |= fs.ModeDir
	case syscall.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case syscall.S_IFLNK:
		mode |= fs.ModeSymlink
	case syscall.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&syscall.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&syscall.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&syscall.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// statError is the error of a stat(2) of p that failed with err, as os
// gives it.
func statError(p string, follow bool, err error) error {
	op := "lstat"
	if follow {
		op = "stat"
	}
	return &fs.PathError{Op: op, Path: p, Err: err}
}
