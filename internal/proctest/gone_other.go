//go:build !unix

package proctest

import "testing"

// AssertGone cannot look a process up by its id here; the process group
// is killed as on Unix (procgroup), but not asserted.
func AssertGone(t testing.TB, pid string) {
	t.Helper()
	t.Logf("not checking that process %s is gone: no process ids to ask here", pid)
}
