package lsp

import (
	"io/fs"
	"syscall"
)

// sysStamp adds what macOS's stat gives beyond fs.FileInfo: the change
// time, the inode and the device.
func sysStamp(st *stamp, fi fs.FileInfo) {
	if s, ok := fi.Sys().(*syscall.Stat_t); ok {
		st.ctime = int64(s.Ctimespec.Sec)*1e9 + int64(s.Ctimespec.Nsec)
		st.ino, st.dev = uint64(s.Ino), uint64(s.Dev)
	}
}
