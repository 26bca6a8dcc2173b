//go:build linux || darwin

package lsp

import (
	"io/fs"
	"syscall"
)

// statStamp is the stamp of the file at p (followed if a symlink when
// follow is set): stat(2) into a stack buffer, as os.Lstat would but
// without its FileInfo, which a scan of every input does not need.
func statStamp(p string, follow bool) (stamp, error) {
	var s syscall.Stat_t
	for {
		var err error
		if follow {
			err = syscall.Stat(p, &s)
		} else {
			err = syscall.Lstat(p, &s)
		}
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			op := "lstat"
			if follow {
				op = "stat"
			}
			return stamp{}, &fs.PathError{Op: op, Path: p, Err: err}
		}
		return stampOfSys(&s), nil
	}
}

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
