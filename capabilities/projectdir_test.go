package capabilities_test

import (
	"testing"

	"github.com/devbroker/devbroker/capabilities"
)

// The nearest marked directory at or above a directory is its project,
// the root when none is; each directory is asked about once.
func TestProjectFinder(t *testing.T) {
	marked := map[string]bool{"svc": true, "svc/api/v2": true}
	asked := map[string]int{}
	find := capabilities.ProjectFinder(map[string]string{}, func(dir string) bool {
		asked[dir]++
		return marked[dir]
	})
	for dir, want := range map[string]string{
		"svc/api/v2/handlers": "svc/api/v2",
		"svc/api/v2":          "svc/api/v2",
		"svc/api":             "svc",
		"svc":                 "svc",
		"web/src":             ".",
		".":                   ".",
	} {
		if got := find(dir); got != want {
			t.Errorf("project of %s = %q, want %q", dir, got, want)
		}
	}
	find("svc/api/v2/handlers")
	for dir, n := range asked {
		if n != 1 {
			t.Errorf("%s asked about %d times, want once", dir, n)
		}
	}
}
