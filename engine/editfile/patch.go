package editfile

import (
	"errors"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/unidiff"
)

// applyPatch applies a unified diff to the file: every hunk's old side must
// match exactly once, and all hunks apply or none.
//
// A file with CRLF endings is matched in LF form (see lineBodyOf), which
// would hide a change of terminators. So a diff that carries "\r\n" is
// first applied to the file's real bytes, terminators included: a diff
// made from them (one that converts lines to CRLF or back) is applied as
// written. A diff that does not match them is applied in LF form as usual.
func applyPatch(f *file, p *Params) (*edit, error) {
	b := lineBodyOf(f.doc)
	src, err := need(p.Patch, "patch", "patch")
	if err != nil {
		return nil, err
	}
	if (b.crlf || b.restore != nil) && strings.Contains(src, "\r\n") {
		raw := body{s: f.doc.Content(), bom: f.doc.BOM()}
		if hunks, err := unidiff.Parse(src); err == nil {
			if now, ranges, err := unidiff.Apply(raw.s, hunks); err == nil {
				return patchEdit(raw, now, ranges), nil
			}
		}
	}
	hunks, err := unidiff.Parse(b.in(src))
	if err != nil {
		return nil, fault.Wrap(fault.BadArgument, err, "patch")
	}
	now, ranges, err := unidiff.Apply(b.s, hunks)
	if err != nil {
		var he *unidiff.HunkError
		if errors.As(err, &he) {
			return nil, fault.Wrap(he.Kind, err, "patch %s, nothing was changed", f.abs)
		}
		return nil, fault.Wrap(fault.BadArgument, err, "patch %s, nothing was changed", f.abs)
	}
	return patchEdit(b, now, ranges), nil
}

// patchEdit is the edit that turns b into now, the hunks having landed at
// ranges.
func patchEdit(b body, now string, ranges []unidiff.Range) *edit {
	first, last := 0, 0
	for i, r := range ranges {
		if i == 0 || r.Start < first {
			first = r.Start
		}
		if r.End > last {
			last = r.End
		}
	}
	return &edit{body: b, before: b.s, now: now, first: first, last: last}
}
