//go:build unix

package external

import (
	"os"
	"syscall"
)

// signalOf names the signal that ended the process, or "".
func signalOf(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "signal " + ws.Signal().String()
	}
	return ""
}
