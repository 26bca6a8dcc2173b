//go:build unix

package staticcheck

import (
	"os"
	"syscall"
)

// maxRSS is a finished process's peak resident memory in KiB (on Linux;
// bytes on macOS), or 0 when the platform does not say.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss
	}
	return 0
}
