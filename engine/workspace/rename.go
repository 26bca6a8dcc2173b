package workspace

// This file defines the order of a write's renames: dependency first,
// lexical for ties, with rename cycles (genuine swaps) broken through a
// temporary file.

import (
	"container/heap"
	"slices"
	"strings"
)

// rename moves the persisted file at from to the workspace path to.
type rename struct{ from, to string }

// renameStep is one rename issued to disk. The file ends at the workspace
// path to. A park step moves from to a fresh temporary name instead of to;
// the matching unpark step later moves that temporary to to.
type renameStep struct {
	rename
	park, unpark bool
}

// orderRenames orders renames so that none overwrites a file that another
// has yet to move: dependency first, lexical (by destination, then source)
// for ties.
//
// Sources are distinct and so are destinations, so the renames form simple
// chains and simple cycles. A chain is done from its free end. A cycle (a
// genuine swap) is broken by parking its lexically first source in a
// temporary file, after which it is a chain ending in the unpark step: n+1
// steps for an n-cycle. Cycles are only broken when no rename is ready, so
// at most one temporary exists at a time. The cost is O(n log n).
func orderRenames(renames []rename) []renameStep {
	byTo := make(map[string]rename, len(renames))  // the rename into a path
	pending := make(map[string]bool, len(renames)) // by source
	for _, r := range renames {
		byTo[r.to] = r
		pending[r.from] = true
	}
	var ready stepHeap
	for _, r := range renames {
		if !pending[r.to] {
			ready = append(ready, renameStep{rename: r})
		}
	}
	heap.Init(&ready)
	bySource := slices.Clone(renames)
	slices.SortFunc(bySource, func(a, b rename) int { return strings.Compare(a.from, b.from) })
	next := 0 // into bySource: candidates to break a cycle at

	out := make([]renameStep, 0, len(renames)+1)
	for {
		if ready.Len() == 0 {
			// Only cycles are left, if anything: park the lexically
			// first source still pending.
			for next < len(bySource) && !pending[bySource[next].from] {
				next++
			}
			if next == len(bySource) {
				return out
			}
			first := bySource[next]
			delete(pending, first.from)
			out = append(out, renameStep{rename: first, park: true})
			// The unpark waits for first.to to be vacated, as first did.
			byTo[first.to] = rename{to: first.to}
			heap.Push(&ready, renameStep{rename: byTo[first.from]})
			continue
		}
		s := heap.Pop(&ready).(renameStep)
		out = append(out, s)
		if s.unpark {
			continue
		}
		delete(pending, s.from)
		// The rename into the path just vacated can go now.
		if r, ok := byTo[s.from]; ok {
			heap.Push(&ready, renameStep{rename: r, unpark: r.from == ""})
		}
	}
}

// stepHeap is a min-heap of rename steps by destination, then source.
type stepHeap []renameStep

func (h stepHeap) Len() int { return len(h) }
func (h stepHeap) Less(i, j int) bool {
	if h[i].to != h[j].to {
		return h[i].to < h[j].to
	}
	return h[i].from < h[j].from
}
func (h stepHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *stepHeap) Push(x any)   { *h = append(*h, x.(renameStep)) }
func (h *stepHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// Rename moves the file at From to To (workspace paths, or any names that
// identify files one to one, such as URIs).
type Rename struct{ From, To string }

// OrderRenames is the order in which a write issues renames: dependency
// first (a rename that vacates another's destination goes before it),
// lexical by destination, then source, for ties. It returns indexes into
// rs. ok is false when rs holds a cycle (a swap), which [Workspace.Write]
// breaks through a temporary file and a caller without one cannot do.
// Other surfaces that move files (the editor endpoint's WorkspaceEdit)
// use this order, so every surface renames in the same order.
func OrderRenames(rs []Rename) (order []int, ok bool) {
	in := make([]rename, len(rs))
	index := make(map[string]int, len(rs)) // by destination
	for i, r := range rs {
		in[i] = rename{from: r.From, to: r.To}
		index[r.To] = i
	}
	for _, s := range orderRenames(in) {
		if s.park || s.unpark {
			return nil, false
		}
		order = append(order, index[s.to])
	}
	return order, true
}
