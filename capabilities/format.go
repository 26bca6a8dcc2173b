package capabilities

// This file defines the format of only the changed lines (format's only:
// "changed") with one driver: by range where the driver formats ranges,
// whole where its output is canonical and the file was formatted before
// the change (or the session created it), and otherwise not at all, with
// why.

import (
	"context"
	"fmt"
	"maps"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// formatChanged formats the changed lines of req.Files (req.Ranges) with
// d, named dn, and says in the result's Formatted what it did with each
// file. A file the session created is formatted whole: every line of it
// is the session's.
func formatChanged(ctx context.Context, d Driver, dn string, req *Request) *Result {
	out := &Result{Status: engine.StatusOK, Output: engine.Output{Edits: map[string]*text.Doc{}}}
	var fresh, rest []string
	for _, p := range req.Files {
		if b, ok := req.Before[p]; ok && b == nil {
			fresh = append(fresh, p)
		} else {
			rest = append(rest, p)
		}
	}
	why := map[string]string{}
	if rf, ok := d.(RangeFormatter); ok && rf.FormatsRanges() && len(rest) > 0 {
		r := safeRun(ctx, d, withFiles(req, rest, req.All, true))
		if !out.take(r) {
			return out
		}
		done := map[string]bool{}
		for _, f := range r.Formatted {
			if f.How == engine.FormatRange {
				done[f.Path] = true
				out.Formatted = append(out.Formatted, f)
			} else {
				why[f.Path] = f.Reason
			}
		}
		rest = filter(rest, func(p string) bool { return !done[p] })
	}
	whole := fresh
	if c, ok := d.(Canonical); ok && c.Canonical() && len(rest) > 0 {
		// Formatted before the change: the formatter changes nothing in
		// the content before it. Its findings there are not this
		// answer's.
		before := maps.Clone(req.All)
		for _, p := range rest {
			before[p] = req.Before[p]
		}
		r := safeRun(ctx, d, withFiles(req, rest, before, false))
		if r.Status != engine.StatusOK && r.Status != "" {
			out.Status, out.Message = r.Status, fmt.Sprintf("formatting the content before your change, to tell whether it was formatted: %s", r.Message)
			return out
		}
		for _, p := range rest {
			if _, changed := r.Edits[p]; changed || hasError(r.Diagnostics, p) {
				out.left(p, dn, prefix(why[p])+fmt.Sprintf("the file was not formatted as %s formats it before your change, so formatting it whole would rewrite lines you did not change; to format the whole file, format it without only changed", dn))
				continue
			}
			whole = append(whole, p)
		}
	} else {
		for _, p := range rest {
			out.left(p, dn, prefix(why[p])+fmt.Sprintf("%s formats whole files only, and its output is not canonical (it keeps some of the layout it is given), so formatting would rewrite lines you did not change; to format the whole file, format it without only changed", dn))
		}
	}
	if len(whole) > 0 {
		r := safeRun(ctx, d, withFiles(req, whole, req.All, false))
		if !out.take(r) {
			return out
		}
		for _, p := range whole {
			out.Formatted = append(out.Formatted, engine.Formatted{Path: p, How: engine.FormatWhole, Driver: dn})
		}
	}
	return out
}

// withFiles is req about files, with all as the workspace's content:
// a format of their changed lines (ranges), or of whole files.
func withFiles(req *Request, files []string, all map[string]*text.Doc, ranges bool) *Request {
	r := *req
	r.Files, r.All = files, all
	if !ranges {
		r.Ranges, r.Before = nil, nil
	}
	return &r
}

// take adds r's findings and edits to res, and reports whether r is
// complete; an incomplete r's status becomes res's.
func (res *Result) take(r *Result) bool {
	res.Diagnostics = append(res.Diagnostics, r.Diagnostics...)
	res.Coverage = append(res.Coverage, r.Coverage...)
	for p, d := range r.Edits {
		res.Edits[p] = d
	}
	if r.Status != engine.StatusOK && r.Status != "" {
		res.Status, res.Message = r.Status, r.Message
		return false
	}
	return true
}

// left records that p was left as it was, and why.
func (res *Result) left(p, dn, why string) {
	res.Formatted = append(res.Formatted, engine.Formatted{Path: p, How: engine.FormatLeft, Driver: dn, Reason: why})
}

func prefix(why string) string {
	if why == "" {
		return ""
	}
	return why + "; "
}

func hasError(ds []engine.Diagnostic, p string) bool {
	for _, d := range ds {
		if d.Path == p && d.Severity == engine.SeverityError {
			return true
		}
	}
	return false
}

func filter(ps []string, keep func(string) bool) []string {
	var out []string
	for _, p := range ps {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}
