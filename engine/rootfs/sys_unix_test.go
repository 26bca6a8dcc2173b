//go:build unix

package rootfs

import "syscall"

// umask sets the process's umask, returning the old one.
func umask(m int) int { return syscall.Umask(m) }

// mkfifo makes a named pipe at p.
func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
