//go:build linux && (amd64 || arm64)

package lsp

import (
	"syscall"
	"unsafe"
)

// The fstatat(2) arguments of Linux's ABI.
const (
	atFDCWD           = -100
	atSymlinkNoFollow = 0x100
)

// statStampZ is the stamp of the file at pz, a path and a NUL byte
// (followed if a symlink when follow is set): fstatat(2) into a stack
// buffer, with the path as it is (syscall.Lstat would copy it to add the
// NUL byte; a scan stats every input).
func statStampZ(pz string, follow bool) (stamp, error) {
	var s syscall.Stat_t
	flags := uintptr(atSymlinkNoFollow)
	if follow {
		flags = 0
	}
	fd := atFDCWD
	for {
		_, _, errno := syscall.Syscall6(sysFstatat, uintptr(fd), uintptr(unsafe.Pointer(unsafe.StringData(pz))), uintptr(unsafe.Pointer(&s)), flags, 0, 0)
		switch errno {
		case 0:
			return stampOfSys(&s), nil
		case syscall.EINTR:
			continue
		}
		return stamp{}, statError(pz[:len(pz)-1], follow, errno)
	}
}
