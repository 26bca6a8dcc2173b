package lsp

import (
	"bytes"
	"errors"
	"os"
	"slices"
	"syscall"
)

// oPath is O_PATH, which package syscall does not define: its value on
// every architecture Go runs Linux on.
const oPath = 0x200000

// handle is an O_PATH file descriptor.
type handle int

const noHandle handle = -1

// maxHandles is the process's share of open files for handles: a quarter
// of its limit, at most 16,384. Every program devbroker starts copies the
// table of open files: starting /bin/true took 0.82 ms with no handles
// open, 0.99 ms with 4,000 and 2.84 ms with 16,000; past the bound a
// large tree's remaining inputs are stat'ed by path.
var maxHandles = func() int64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0
	}
	return int64(min(lim.Cur/4, 1<<14))
}()

// newHandles returns the handles of a tracker, nil when the mount table
// cannot be followed.
func newHandles() *handles {
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
// when follow is set) and a handle on it, or noHandle when none can be
// kept (no more handles, another device than dev when dev is not 0, an
// error): then the stamp is statStamp's. The handle is opened in the
// directory at (its entry name, p's last element) or, when at is
// noHandle, by path.
func openStamp(at handle, name, p string, follow bool, dev uint64) (stamp, handle, error) {
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
		if at == noHandle {
			fd, err = syscall.Open(p, flags, 0)
		} else {
			fd, err = syscall.Openat(int(at), name, flags, 0)
		}
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
	fd    int    // of /proc/self/mountinfo; 0 once closed
	table []byte // as the last call of changed read it; nil before
	buf   []byte
}

// changed reports whether the mount table changed since the last call
// (true at the first): it is read again and compared, every time. (The
// kernel marks the file with POLLPRI at a change, but not every kernel
// that serves /proc need: gVisor generates the file, and may not.)
func (m *mountWatch) changed() bool {
	if m.fd <= 0 {
		return true
	}
	if m.buf == nil {
		m.buf = make([]byte, 16<<10)
	}
	data := m.buf[:0]
	for {
		if len(data) == cap(data) {
			data = slices.Grow(data, len(data))
		}
		n, err := syscall.Pread(m.fd, data[len(data):cap(data)], int64(len(data)))
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			m.table = nil
			return true
		}
		if n == 0 {
			break
		}
		data = data[:len(data)+n]
	}
	m.buf = data
	if m.table != nil && bytes.Equal(data, m.table) {
		return false
	}
	m.table = append(m.table[:0], data...)
	return true
}

// under returns the mount points strictly below root, from the mount
// table changed last read.
func (m *mountWatch) under(root string) (map[string]bool, error) {
	if m.table == nil {
		return nil, errors.New("the mount table cannot be read")
	}
	return mountPointsUnder(string(m.table), root), nil
}

func (m *mountWatch) close() {
	if m.fd > 0 {
		_ = syscall.Close(m.fd)
		m.fd = 0
	}
}
