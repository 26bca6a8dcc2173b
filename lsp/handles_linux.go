package lsp

import (
	"errors"
	"os"
	"syscall"
	"unsafe"
)

// oPath is O_PATH, which package syscall does not define: its value on
// every architecture Go runs Linux on.
const oPath = 0x200000

// handle is an O_PATH file descriptor.
type handle int

const noHandle handle = -1

// maxHandles is the process's share of open files for handles: a quarter
// of its limit, at most 65,536.
var maxHandles = func() int64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return int64(min(lim.Cur/4, 1<<16))
}()

// newHandles returns the handles of a tracker, nil when the mount table
// cannot be followed.
func newHandles() *handles {
	// A descriptor of its own, not an *os.File: Go's poller would poll
	// the file too, taking the kernel's mark of a change before changed
	// sees it.
	fd, err := syscall.Open("/proc/self/mountinfo", syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	return &handles{mounts: mountWatch{fd: fd}}
}

// stat is the stamp of the file h is on, and whether it still has a
// name (a link count above 0).
func (h handle) stat() (st stamp, linked bool, err error) {
	var s syscall.Stat_t
	for {
		err := syscall.Fstat(int(h), &s)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return stamp{}, false, err
		}
		return stampOfSys(&s), s.Nlink > 0, nil
	}
}

func (h handle) close() { _ = syscall.Close(int(h)) }

// openStamp returns the stamp of the file at p (followed if a symlink
// when follow is set) and a handle on it, opened by path, or noHandle
// when none can be kept (no more handles, another device than dev when
// dev is not 0, an error): then the stamp is statStamp's.
func openStamp(p string, follow bool, dev uint64) (stamp, handle, error) {
	if !takeHandle() {
		st, err := statStamp(p, follow)
		return st, noHandle, err
	}
	flags := oPath | syscall.O_CLOEXEC
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	var fd int
	var err error
	for {
		fd, err = syscall.Open(p, flags, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		openHandles.Add(-1)
		if errors.Is(err, syscall.ENOENT) || errors.Is(err, syscall.ENOTDIR) {
			op := "lstat"
			if follow {
				op = "stat"
			}
			return stamp{}, noHandle, &os.PathError{Op: op, Path: p, Err: err}
		}
		st, err := statStamp(p, follow)
		return st, noHandle, err
	}
	h := handle(fd)
	st, _, err := h.stat()
	if err != nil || dev != 0 && st.dev != dev {
		h.close()
		openHandles.Add(-1)
		if err != nil {
			st, err = statStamp(p, follow)
		}
		return st, noHandle, err
	}
	return st, h, nil
}

// mountWatch follows the process's mount table.
type mountWatch struct {
	fd     int // of /proc/self/mountinfo; 0 once closed
	polled bool
}

// changed reports whether the mount table may have changed since the
// last call (true at the first). The kernel marks /proc/self/mountinfo
// with POLLPRI when it changed since the file was last polled.
func (m *mountWatch) changed() bool {
	if m.fd <= 0 {
		return true
	}
	first := !m.polled
	m.polled = true
	fds := []pollFd{{fd: int32(m.fd), events: pollPri}}
	for {
		n, err := poll(fds)
		if err == syscall.EINTR {
			continue
		}
		return first || err != nil || n != 0 && fds[0].revents&(pollPri|pollErr) != 0
	}
}

// pollFd is struct pollfd.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const (
	pollPri = 0x2
	pollErr = 0x8
)

// poll is ppoll(2) with a timeout of 0: it never blocks.
func poll(fds []pollFd) (int, error) {
	var ts syscall.Timespec
	n, _, errno := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)), uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}

// under returns the mount points strictly below root, from the mount
// table.
func (m *mountWatch) under(root string) (map[string]bool, error) {
	var data []byte
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Pread(m.fd, buf, int64(len(data)))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			break
		}
		data = append(data, buf[:n]...)
	}
	return mountPointsUnder(string(data), root), nil
}

func (m *mountWatch) close() {
	if m.fd > 0 {
		_ = syscall.Close(m.fd)
		m.fd = 0
	}
}
