//go:build unix

package gotest

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// assertGone fails unless the process pid no longer runs: it does not
// exist, or it is a zombie (killed, and not yet reaped by init).
func assertGone(t *testing.T, pid string) {
	t.Helper()
	n, err := strconv.Atoi(pid)
	if err != nil {
		t.Fatalf("pid %q: %v", pid, err)
	}
	if stat, err := os.ReadFile("/proc/" + pid + "/stat"); err == nil {
		// pid (comm) STATE ...: the state follows the last ')'.
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			return
		}
	}
	if err := syscall.Kill(n, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the test's child %d still runs after the run was killed (kill 0: %v)", n, err)
	}
}
