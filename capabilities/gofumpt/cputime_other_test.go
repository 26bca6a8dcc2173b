//go:build !unix

package gofumpt

import "time"

// cpuTime is 0 where getrusage is missing: the benchmarks then report the
// children's CPU time alone.
func cpuTime() time.Duration { return 0 }
