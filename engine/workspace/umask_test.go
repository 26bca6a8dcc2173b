//go:build unix

package workspace

import "syscall"

func syscallUmask(m int) int { return syscall.Umask(m) }
