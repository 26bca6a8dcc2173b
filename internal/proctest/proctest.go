// Package proctest is for tests only: it waits for the process id a
// test's child writes, and asserts that a process a test run started is
// gone once the run was killed. No product code imports it.
package proctest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// Wait bounds how long AssertGone and ReadPid wait: the tests' 10-minute
// bound, which a loaded machine never reaches (no test is about the time).
const Wait = 10 * time.Minute

// ReadPid waits until file holds a whole process id, which a process the
// test started writes there (it may create the file before it writes the
// number), and returns it. Another process's write gives no event to wait
// for, so it looks every 10 ms, within [Wait]; it fails only past Wait.
func ReadPid(file string) (string, error) {
	deadline := time.Now().Add(Wait)
	for {
		b, err := os.ReadFile(file)
		pid := strings.TrimSpace(string(b))
		if _, perr := strconv.Atoi(pid); err == nil && perr == nil {
			return pid, nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("%s holds no process id after %s (%v)", file, Wait, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
