//go:build !unix

package external

import (
	"os"
	"time"
)

// gone waits until pid has exited: until it can no longer be found.
func gone(pid int, within time.Duration) bool {
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		p, err := os.FindProcess(pid)
		if err != nil {
			return true
		}
		p.Release()
		time.Sleep(20 * time.Millisecond)
	}
	return false
}
