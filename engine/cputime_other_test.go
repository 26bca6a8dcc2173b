//go:build !unix

package engine

import "time"

// cpuTime is not measured here: benchmarks report no cpu-ns/op.
func cpuTime() time.Duration { return 0 }
