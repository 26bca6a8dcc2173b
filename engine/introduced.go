package engine

// This file marks a lint or check answer's findings introduced or
// pre-existing against its baseline (baseline.go), lists apart those
// that do not stop the plan (fail_on "introduced"), and caps the answer.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/devbroker/devbroker/engine/text"
)

// FailPolicy is Capabilities that say, per file, which error findings
// stop a plan: a language's fail_on.
type FailPolicy interface {
	// FailOn is [FailOnIntroduced] or [FailOnAny] (or "", any) for the
	// file at the workspace path p.
	FailOn(p string) string
}

// DiagnosticLimiter is Capabilities that cap an answer's diagnostics
// (limits.max_diagnostics), which the engine does itself for a request
// it asks [Request.Uncapped].
type DiagnosticLimiter interface {
	MaxDiagnostics() int
}

// OmittedNote is the note of an answer whose diagnostics past limit were
// left out, n of them.
func OmittedNote(n, limit int) Note {
	return Note{
		Kind:    NoteOmitted,
		Message: fmt.Sprintf("%d more diagnostics were left out of this answer (the limit is %d; raise limits.max_diagnostics or narrow paths)", n, limit),
	}
}

// NoteBaseline: the findings could not be compared with their baseline,
// so every one counts as introduced.
const NoteBaseline NoteKind = "baseline"

// failOn is the fail_on that applies to the file at p.
func (e *Engine) failOn(sc scope, p string) string {
	if sc.failOn != "" {
		return sc.failOn
	}
	if fp, ok := e.caps.(FailPolicy); ok {
		if f := fp.FailOn(p); f != "" {
			return f
		}
	}
	return FailOnAny
}

// settle marks resp's findings against c (nil: the answer is not over
// changed content, and they are marked, all pre-existing, only where
// fail_on "introduced" applies), counts them in r, moves to r's
// PreExisting those that do not stop the plan, and, for an uncapped
// request, caps the answer, keeping introduced findings before
// pre-existing ones.
func (e *Engine) settle(resp *Response, req Request, c *comparison, sc scope, r *Result) {
	ds := resp.Diagnostics
	switch {
	case c != nil:
		live := e.liveDocs(req, resp)
		c.mark(ds, live)
		if c.failed != "" {
			resp.Coverage = append(resp.Coverage, Note{Kind: NoteBaseline, Message: fmt.Sprintf("the findings could not be compared with the content before the change (%s): every finding counts as introduced", c.failed)})
		}
	case slices.ContainsFunc(ds, func(d Diagnostic) bool { return e.failOn(sc, d.Path) == FailOnIntroduced }):
		for i := range ds {
			ds[i].Introduced = boolp(false)
		}
	default:
		return
	}
	if r.Baseline == nil {
		r.Baseline = &BaselineCounts{}
		if e.since != nil {
			r.Baseline.Since = e.since.Name()
		}
	}
	// Over the limit, the introduced findings are kept first, then the
	// pre-existing ones, each in the answer's order.
	take := func(int) bool { return true }
	if lim, ok := e.caps.(DiagnosticLimiter); ok && req.Uncapped {
		if n, limit := len(ds), lim.MaxDiagnostics(); limit > 0 && n > limit {
			kept := make([]bool, n)
			left := limit
			for _, introduced := range []bool{true, false} {
				for i := 0; i < n && left > 0; i++ {
					if *ds[i].Introduced == introduced {
						kept[i] = true
						left--
					}
				}
			}
			take = func(i int) bool { return kept[i] }
			resp.Coverage = append(resp.Coverage, OmittedNote(n-limit, limit))
		}
	}
	keep := make([]Diagnostic, 0, len(ds))
	var apart []Diagnostic
	for i := range ds {
		d := &ds[i]
		if *d.Introduced {
			r.Baseline.Introduced++
		} else {
			r.Baseline.PreExisting++
		}
		switch {
		case !take(i):
		case !*d.Introduced && e.failOn(sc, d.Path) == FailOnIntroduced:
			apart = append(apart, *d)
		default:
			keep = append(keep, *d)
		}
	}
	resp.Diagnostics = keep
	r.PreExisting = append(r.PreExisting, apart...)
}

func boolp(b bool) *bool { return &b }

// liveDocs returns the current content of a file, as the answer describes
// it: a step's own edits (lint's fixes), the request's files, else the
// disk; nil for no such file.
func (e *Engine) liveDocs(req Request, resp *Response) func(string) *text.Doc {
	read := map[string]*text.Doc{}
	return func(p string) *text.Doc {
		if d := resp.Edits[p]; d != nil {
			return d
		}
		if d := req.Files[p]; d != nil {
			return d
		}
		if d, ok := read[p]; ok {
			return d
		}
		d, _ := e.diskDoc(p)
		read[p] = d
		return d
	}
}

// findingKey is what a finding and its baseline's must share: the path
// (at the baseline), the code and the message.
type findingKey struct{ path, code, message string }

// keyOf is d's key, its path being p: for a failed test of a test answer
// (code [CodeTestFailed]), the test's name stands for the message.
func (c *comparison) keyOf(p string, d Diagnostic) findingKey {
	m := d.Message
	if c.tests && d.Code == CodeTestFailed {
		m = testName(m)
	}
	return findingKey{p, d.Code, m}
}

// testName is the name of the test a failed test's message names: the
// message up to its first ": ".
func testName(msg string) string {
	if i := strings.Index(msg, ": "); i >= 0 {
		return msg[:i]
	}
	return msg
}

// mark sets Introduced on each of ds: false when the baseline has the
// same finding (same path, a driver in common, same code and message) on
// the line the finding's line maps to through the change, or, failing
// that, on a line with the same text (a moved line); true otherwise.
// Each baseline finding matches one finding at most, the mapped
// positions first. In a test answer, a failed test is pre-existing when
// the same test (path, driver and name) failed at the baseline, wherever
// and however it fails now.
func (c *comparison) mark(ds []Diagnostic, live func(string) *text.Doc) {
	if c.failed != "" {
		for i := range ds {
			ds[i].Introduced = boolp(true)
		}
		return
	}
	if c.base.same {
		for i := range ds {
			ds[i].Introduced = boolp(false)
		}
		return
	}
	groups := map[findingKey][]int{}
	for j, b := range c.found {
		k := c.keyOf(b.Path, b.Diagnostic)
		groups[k] = append(groups[k], j)
	}
	used := make([]bool, len(c.found))
	matched := make([]bool, len(ds))
	maps := map[string]*lineMap{}
	mapOf := func(p string) *lineMap {
		m, ok := maps[p]
		if !ok {
			m = c.lineMap(p, live)
			maps[p] = m
		}
		return m
	}
	candidates := func(d Diagnostic) []int {
		return groups[c.keyOf(c.base.at(d.Path), d)]
	}
	if c.tests {
		for i, d := range ds {
			if d.Code != CodeTestFailed {
				continue
			}
			for _, j := range candidates(d) {
				if !used[j] && shareDriver(d, c.found[j].Diagnostic) {
					used[j], matched[i] = true, true
					break
				}
			}
		}
	}
	// Mapped positions first, so that a finding that only moved never
	// takes the baseline finding another one sits on.
	for i, d := range ds {
		if matched[i] {
			continue
		}
		at, ok := mapOf(d.Path).toBase(d.Line)
		if !ok {
			continue
		}
		for _, j := range candidates(d) {
			if !used[j] && c.found[j].Line == at && shareDriver(d, c.found[j].Diagnostic) {
				used[j], matched[i] = true, true
				break
			}
		}
	}
	for i, d := range ds {
		if matched[i] {
			continue
		}
		cands := candidates(d)
		if !slices.ContainsFunc(cands, func(j int) bool { return !used[j] }) {
			continue // the common case of an introduced finding: nothing to read
		}
		near, ok := mapOf(d.Path).toBase(d.Line)
		if !ok {
			near = d.Line
		}
		txt := lineText(live(d.Path), d.Line)
		best := -1
		for _, j := range cands {
			b := c.found[j]
			if used[j] || b.text != txt || !shareDriver(d, b.Diagnostic) {
				continue
			}
			if best < 0 || abs(b.Line-near) < abs(c.found[best].Line-near) {
				best = j
			}
		}
		if best >= 0 {
			used[best], matched[i] = true, true
		}
	}
	for i := range ds {
		ds[i].Introduced = boolp(!matched[i])
	}
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// shareDriver reports whether a and b have a driver in common (the one
// that reported each, or one that also did).
func shareDriver(a, b Diagnostic) bool {
	for _, s := range append([]string{a.Source}, a.AlsoFrom...) {
		if s == b.Source || slices.Contains(b.AlsoFrom, s) {
			return true
		}
	}
	return false
}

// at is the path the file at p had at the baseline.
func (b *baseline) at(p string) string {
	if o := b.origin[p]; o != "" {
		return o
	}
	return p
}

// lineMap maps the lines of a file's current content to its baseline's.
// A nil map is the identity.
type lineMap struct {
	diffs []lcs.Diff
}

// lineMap is the map of the file at p: the identity when its content did
// not change.
func (c *comparison) lineMap(p string, live func(string) *text.Doc) *lineMap {
	o := c.base.at(p)
	base, differs := c.base.content[o]
	if !differs && o == p {
		return nil
	}
	if !differs {
		base = c.base.req.Files[o]
	}
	return &lineMap{diffs: lcs.DiffLines(texts(base), texts(live(p)))}
}

// texts are d's lines without terminators (CRLF and LF alike); none for
// nil.
func texts(d *text.Doc) []string {
	if d == nil {
		return nil
	}
	return d.Texts()
}

// toBase maps the 1-based current line n to the baseline's, when the
// line is one the change left as it was; 0 maps to 0 (the whole file).
func (m *lineMap) toBase(n int) (int, bool) {
	if m == nil || n < 1 {
		return n, true
	}
	j, delta := n-1, 0
	for _, d := range m.diffs {
		if j < d.ReplStart {
			break
		}
		if j < d.ReplEnd {
			return 0, false
		}
		delta = d.End - d.ReplEnd
	}
	return j + delta + 1, true
}
