// Package stats summarizes the benchmarks' samples.
package stats

import (
	"slices"
	"time"
)

// Percentile is the nearest-rank percentile p (1 to 100) of samples, 0
// when there are none.
func Percentile(samples []time.Duration, p int) time.Duration {
	if len(samples) == 0 {
		return 0
	}
	v := slices.Clone(samples)
	slices.Sort(v)
	return v[max((p*len(v)+99)/100, 1)-1]
}
