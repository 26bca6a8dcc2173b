package stats

import (
	"testing"
	"time"
)

// TestPercentile: the nearest rank, over unsorted samples.
func TestPercentile(t *testing.T) {
	s := []time.Duration{5, 1, 4, 2, 3}
	for p, want := range map[int]time.Duration{50: 3, 95: 5, 100: 5, 1: 1, 20: 1, 21: 2} {
		if got := Percentile(s, p); got != want {
			t.Errorf("Percentile(%d) = %d, want %d", p, got, want)
		}
	}
	if got := Percentile(nil, 50); got != 0 {
		t.Errorf("Percentile of nothing = %d, want 0", got)
	}
}
