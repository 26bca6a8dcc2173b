// Package proctest is for tests only: it asserts that a process a test
// run started is gone once the run was killed. No product code imports it.
package proctest

import "time"

// Wait bounds how long AssertGone waits: the tests' 10-minute bound, which
// a loaded machine never reaches (no test is about the time).
const Wait = 10 * time.Minute
