//go:build unix

package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"syscall"
)

// openNonblock keeps an open of a FIFO or device from blocking.
const openNonblock = syscall.O_NONBLOCK

// keepOwner gives the replacement file the owner and group of the file it
// replaces. Best effort: only a privileged process can give a file away, and
// a failure leaves the writer's ownership, as any editor would.
func keepOwner(f *os.File, old fs.FileInfo) {
	st, ok := old.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	fi, err := f.Stat()
	if err != nil {
		return
	}
	if cur, ok := fi.Sys().(*syscall.Stat_t); ok && cur.Uid == st.Uid && cur.Gid == st.Gid {
		return
	}
	_ = f.Chown(int(st.Uid), int(st.Gid))
}

// running reports whether a process with this pid exists (a process of
// another user counts: the kill is refused, not absent).
func running(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
