package lsp

import "syscall"

// stampOfSys is the stamp of what macOS's stat gave: with the change
// time, the inode and the device.
func stampOfSys(s *syscall.Stat_t) stamp {
	return stamp{
		mode:  modeOf(uint32(s.Mode)),
		size:  s.Size,
		mtime: s.Mtimespec.Sec*1e9 + s.Mtimespec.Nsec,
		ctime: s.Ctimespec.Sec*1e9 + s.Ctimespec.Nsec,
		ino:   s.Ino,
		dev:   uint64(s.Dev),
	}
}
