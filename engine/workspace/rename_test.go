package workspace

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrderRenamesRandom checks orderRenames on random permutations of
// random subsets of paths by playing the steps on a simulated disk: no
// step overwrites a file still to be moved, every file ends where it
// belongs, and each cycle costs exactly one extra step.
func TestOrderRenamesRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 500 {
		n := 1 + rng.IntN(12)
		paths := make([]string, n+rng.IntN(4)) // some destinations are free paths
		for i := range paths {
			paths[i] = fmt.Sprintf("p%02d", i)
		}
		perm := rng.Perm(len(paths))
		var renames []rename
		disk := map[string]string{} // path → the content (its original name)
		for i := range n {
			disk[paths[i]] = paths[i]
			if to := paths[perm[i]]; to != paths[i] {
				renames = append(renames, rename{paths[i], to})
			}
		}
		// A destination must be free or moving away: drop renames into a
		// path that stays, until none is left.
		for changed := true; changed; {
			changed = false
			moving := map[string]bool{}
			for _, r := range renames {
				moving[r.from] = true
			}
			kept := renames[:0]
			for _, r := range renames {
				if _, occupied := disk[r.to]; !occupied || moving[r.to] {
					kept = append(kept, r)
				} else {
					changed = true
				}
			}
			renames = kept
		}
		// Count cycles.
		next := map[string]string{}
		for _, r := range renames {
			next[r.from] = r.to
		}
		cycles, seen := 0, map[string]bool{}
		for _, r := range renames {
			if seen[r.from] {
				continue
			}
			p := r.from
			for !seen[p] {
				seen[p] = true
				q, ok := next[p]
				if !ok {
					break
				}
				p = q
			}
			if p == r.from {
				cycles++
			}
		}
		steps := orderRenames(renames)
		if len(steps) != len(renames)+cycles {
			t.Fatalf("iter %d: %d steps for %d renames with %d cycles: %v", iter, len(steps), len(renames), cycles, renames)
		}
		temp := ""
		for _, s := range steps {
			from, to := s.from, s.to
			switch {
			case s.park:
				if temp != "" {
					t.Fatalf("iter %d: two temporaries at once", iter)
				}
				to, temp = "TMP", "TMP"
			case s.unpark:
				from, temp = "TMP", ""
			}
			if _, busy := disk[to]; busy {
				t.Fatalf("iter %d: %s -> %s overwrites %s (renames %v, steps %v)", iter, from, to, disk[to], renames, steps)
			}
			disk[to] = disk[from]
			delete(disk, from)
		}
		want := map[string]string{}
		for i := range n {
			want[paths[i]] = paths[i]
		}
		for _, r := range renames {
			delete(want, r.from)
		}
		for _, r := range renames {
			want[r.to] = r.from
		}
		wantMap(t, fmt.Sprintf("iter %d disk", iter), disk, want)
	}
}

// TestOrderRenamesExported: the order other surfaces take is the write's,
// and a swap is reported rather than ordered.
func TestOrderRenamesExported(t *testing.T) {
	rs := []Rename{{From: "b", To: "c"}, {From: "a", To: "b"}, {From: "x", To: "y"}, {From: "c", To: "d"}}
	order, ok := OrderRenames(rs)
	if !ok || !slices.Equal(order, []int{3, 0, 1, 2}) {
		t.Errorf("chain: order %v, ok %v; want [3 0 1 2] (c→d, b→c, a→b, then x→y)", order, ok)
	}
	if order, ok := OrderRenames([]Rename{{From: "a", To: "b"}, {From: "b", To: "a"}}); ok || order != nil {
		t.Errorf("swap: order %v, ok %v; want none", order, ok)
	}
}
