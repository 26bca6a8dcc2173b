package lsp

import "syscall"

// stampOfSys is the stamp of what Linux's stat gave: with the change
// time, the inode and the device. (The conversions are for 32-bit
// platforms.)
func stampOfSys(s *syscall.Stat_t) stamp {
	return stamp{
		mode:  modeOf(uint32(s.Mode)),
		size:  int64(s.Size),
		mtime: int64(s.Mtim.Sec)*1e9 + int64(s.Mtim.Nsec),
		ctime: int64(s.Ctim.Sec)*1e9 + int64(s.Ctim.Nsec),
		ino:   uint64(s.Ino),
		dev:   uint64(s.Dev),
	}
}
