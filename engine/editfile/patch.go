package editfile

import (
	"errors"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/unidiff"
)

// applyPatch applies a unified diff to the file: every hunk's old side must
// match exactly once, and all hunks apply or none.
func applyPatch(f *file, p *Params) (*edit, error) {
	b := lineBodyOf(f.doc)
	src, err := need(p.Patch, "patch", "patch")
	if err != nil {
		return nil, err
	}
	hunks, err := unidiff.Parse(b.in(src))
	if err != nil {
		return nil, fault.Wrap(fault.BadArgument, err, "patch")
	}
	now, ranges, err := unidiff.Apply(b.s, hunks)
	if err != nil {
		var he *unidiff.HunkError
		if errors.As(err, &he) {
			kind := fault.BadArgument
			switch he.Kind {
			case "no_match":
				kind = fault.NoMatch
			case "ambiguous":
				kind = fault.Ambiguous
			}
			return nil, fault.Wrap(kind, err, "patch %s, nothing was changed", f.abs)
		}
		return nil, fault.Wrap(fault.BadArgument, err, "patch %s, nothing was changed", f.abs)
	}
	first, last := 0, 0
	for i, r := range ranges {
		if i == 0 || r.Start < first {
			first = r.Start
		}
		if r.End > last {
			last = r.End
		}
	}
	return &edit{body: b, before: b.s, now: now, first: first, last: last}, nil
}
