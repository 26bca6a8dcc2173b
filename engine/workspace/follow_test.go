package workspace

import (
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// The first step after an acquisition does not read again the files that
// acquisition named (it read them moments before); it reads the other held
// files, and any later call reads them all.
func TestFollowDiskAfterAcquire(t *testing.T) {
	root := testtree.New(t, map[string]string{"a": "a\n", "b": "b\n", "c": "c\n"})
	w := open(t, root, nil, "a", "b", "c")
	acquire(t, w, "a", "b") // the plan names a and b; c is held from before
	for _, p := range []string{"a", "b", "c"} {
		testtree.Put(t, root, p, p+", changed elsewhere\n")
	}
	w.FollowDiskAfterAcquire()
	for p, want := range map[string]string{"a": "a\n", "b": "b\n", "c": "c, changed elsewhere\n"} {
		if got := content(w, p); got != want {
			t.Errorf("after the first step, %s = %q, want %q", p, got, want)
		}
	}
	w.FollowDiskAfterAcquire() // a later step of the same plan
	for _, p := range []string{"a", "b"} {
		if got, want := content(w, p), p+", changed elsewhere\n"; got != want {
			t.Errorf("after the second step, %s = %q, want %q", p, got, want)
		}
	}
	// FollowDisk in between reads them all, and so does the next call.
	acquire(t, w, "a")
	testtree.Put(t, root, "a", "a again\n")
	w.FollowDisk()
	w.FollowDiskAfterAcquire()
	if got := content(w, "a"); got != "a again\n" {
		t.Errorf("after FollowDisk, a = %q", got)
	}
}
