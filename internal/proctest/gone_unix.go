//go:build unix

package proctest

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// AssertGone fails t unless the process pid stops running (it no longer
// exists, or it is a zombie: killed, and not yet reaped by init) within
// [Wait]. SIGKILL takes effect asynchronously, and a process that is not
// the test's child gives no event to wait for, so it looks every 50 ms.
func AssertGone(t testing.TB, pid string) {
	t.Helper()
	n, err := strconv.Atoi(strings.TrimSpace(pid))
	if err != nil {
		t.Fatalf("pid %q: %v", pid, err)
	}
	deadline := time.Now().Add(Wait)
	for {
		if stat, err := os.ReadFile("/proc/" + strconv.Itoa(n) + "/stat"); err == nil {
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
			t.Errorf("process %d still runs %s after the run that started it was killed (kill 0: %v)", n, Wait, err)
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
}
