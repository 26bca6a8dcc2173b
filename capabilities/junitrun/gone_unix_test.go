//go:build unix

package junitrun

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// assertGone fails unless the process pid stops running (it no longer
// exists, or it is a zombie: killed, and not yet reaped by init) within a
// minute: SIGKILL takes effect asynchronously, so the check waits for
// it, looking every 50 ms.
func assertGone(t *testing.T, pid string) {
	t.Helper()
	n, err := strconv.Atoi(pid)
	if err != nil {
		t.Fatalf("pid %q: %v", pid, err)
	}
	deadline := time.Now().Add(time.Minute)
	for {
		if stat, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil {
			// pid (comm) STATE ...: the state follows the last ')'.
			if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
				return
			}
		}
		err := syscall.Kill(n, 0)
		if errors.Is(err, syscall.ESRCH) {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("the test's child %d still runs a minute after the run was killed (kill 0: %v)", n, err)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
