//go:build unix

package privtemp

import (
	"errors"
	"syscall"
)

// running reports whether process pid may be running: only a signal
// that finds no such process says it is not.
func running(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
