package capabilities

// This file defines [Set.Run]: a format, lint or check request routed to
// the working drivers of each file's language, and the answer assembled
// from theirs.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// Run routes a request to the working drivers of each file's language
// (a language kind to one server: see intel.go)
// (each slot served by its first working alternative). Each slot of a
// language's lint or check list that nothing served (for format, a list
// none of whose slots was served) gets an unchecked status for the
// language, which makes the answer incomplete — except that a default
// slot whose drivers were never found leaves the files the request swept
// in (engine.Request.Swept) uncovered: a coverage note, not a status. A
// file whose language lists no driver for the kind, or that no language
// covers, gets a coverage note too. Notes are never diagnostics.
func (s *Set) Run(ctx context.Context, req engine.Request) (*engine.Response, error) {
	if !s.calls.Begin() {
		return nil, ErrSetClosed
	}
	defer s.calls.End()
	ctx = Begin(ctx) // a call that did not mark its start begins now
	if isLanguageKind(req.Kind) {
		resp, err := s.runLanguage(ctx, req)
		s.confine(resp)
		return resp, err
	}
	targets := req.Paths
	if targets == nil {
		for p := range req.Files {
			targets = append(targets, p)
		}
	}
	sort.Strings(targets)
	// Each driver's probe is waited for until the driver's timeout runs
	// out (ready.go); one still running then answers timeout.
	names := s.driversFor(req.Kind, targets)
	began := begins(ctx, names)
	if err := s.waitProbes(ctx, names, began); err != nil {
		return nil, err
	}
	rf := s.routeFiles(req.Kind, targets, req.Swept)
	resp := &engine.Response{Output: engine.Output{Edits: map[string]*text.Doc{}, Coverage: append(s.configNotes(), rf.coverage...)}}
	all, changed := req.Files, req.Changed
	runOne := func(i int) *Result {
		dn := rf.order[i]
		end := phase(ctx, req.Kind, dn, i, len(rf.order), len(rf.files[dn]))
		at, ok := began[dn]
		if !ok {
			at = time.Now()
		}
		var r *Result
		if s.probing(dn) {
			r = s.stillProbing(dn, at)
		} else {
			dr := &Request{
				Kind: req.Kind, Root: req.Root, Files: rf.files[dn], All: all,
				Changed: changed, Deleted: req.Deleted, Affecting: req.Affecting, Fix: req.Fix,
				Ranges: req.Ranges, Before: req.Before,
			}
			if req.Kind == engine.Format && req.Ranges != nil {
				r = formatChanged(forDriver(ctx, at), s.drivers[dn], dn, dr)
			} else {
				r = safeRun(forDriver(ctx, at), s.drivers[dn], dr)
			}
		}
		if r.Status == "" {
			r.Status = engine.StatusOK
		}
		end(r.Status)
		return r
	}
	// Without fixes, no driver's answer reaches another's request: they
	// run at once, and the answer waits for the slowest, not for the sum.
	// Formatting and fixing drivers run in order, each on what the ones
	// before left.
	done := make([]*Result, len(rf.order))
	if req.Kind == engine.Check || req.Kind == engine.Test || (req.Kind == engine.Lint && !req.Fix) {
		var wg sync.WaitGroup
		for i := range rf.order {
			wg.Go(func() { done[i] = runOne(i) })
		}
		wg.Wait()
	}
	for i, dn := range rf.order {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r := done[i]
		if r == nil {
			r = runOne(i)
		}
		status := r.Status
		msg := r.Message
		if n := strings.Join(rf.notes[dn], "; "); n != "" {
			msg = strings.TrimPrefix(msg+"; "+n, "; ")
		}
		resp.Drivers = append(resp.Drivers, engine.DriverStatus{Driver: dn, Status: status, Message: msg})
		for _, dg := range r.Diagnostics {
			if dg.Source == "" {
				dg.Source = dn
			}
			resp.Diagnostics = append(resp.Diagnostics, dg)
		}
		resp.Coverage = append(resp.Coverage, r.Coverage...)
		addProjects(resp, dn, r)
		for _, f := range r.Formatted {
			if f.Driver == "" {
				f.Driver = dn
			}
			resp.Formatted = append(resp.Formatted, f)
		}
		if req.Kind == engine.Format && req.Ranges == nil {
			for _, p := range slices.Sorted(maps.Keys(r.Edits)) {
				resp.Formatted = append(resp.Formatted, engine.Formatted{Path: p, How: engine.FormatWhole, Driver: dn})
			}
		}
		if len(r.Edits) > 0 && req.Kind != engine.Check && req.Kind != engine.Test {
			// Later drivers (lint --fix) see earlier drivers' edits, as
			// changed content: drivers that overlay only the changed
			// files would otherwise read the stale disk file.
			next := make(map[string]*text.Doc, len(all))
			for p, d := range all {
				next[p] = d
			}
			changed = slices.Clone(changed)
			for p, d := range r.Edits {
				next[p] = d
				resp.Edits[p] = d
				if !slices.Contains(changed, p) {
					changed = append(changed, p)
				}
			}
			slices.Sort(changed)
			all = next
		}
	}
	resp.Drivers = append(resp.Drivers, rf.unchecked...)
	s.confine(resp)
	resp.Diagnostics = dropRepeated(resp.Diagnostics)
	engine.SortDiagnostics(resp.Diagnostics)
	if n := len(resp.Diagnostics); n > s.maxDiag && !req.Uncapped {
		resp.Diagnostics = resp.Diagnostics[:s.maxDiag:s.maxDiag]
		resp.Coverage = append(resp.Coverage, engine.OmittedNote(n-s.maxDiag, s.maxDiag))
	}
	return resp, nil
}

// dropRepeated makes one diagnostic of the findings that say the same
// thing on the same line: tools built on the same type checker (go vet,
// staticcheck, gopls) repeat the compiler's errors, each at its own column
// and severity, and a model should read each once. The one kept is the
// most severe (the first among equals, where it stood), and it names the
// other drivers in AlsoFrom, and the related places of the first report
// that has any. The order of the rest is kept.
func dropRepeated(ds []engine.Diagnostic) []engine.Diagnostic {
	type key struct {
		path string
		line int
		msg  string
	}
	at := make(map[key]int, len(ds))
	out := ds[:0]
	for _, d := range ds {
		k := key{d.Path, d.Line, d.Message}
		i, seen := at[k]
		if !seen {
			at[k] = len(out)
			out = append(out, d)
			continue
		}
		kept := &out[i]
		if d.Severity.Rank() < kept.Severity.Rank() {
			d.AlsoFrom = kept.AlsoFrom
			d.AlsoFrom = addSource(d.AlsoFrom, d.Source, kept.Source)
			if len(d.Related) == 0 {
				d.Related = kept.Related
			}
			*kept = d
			continue
		}
		if len(kept.Related) == 0 {
			kept.Related = d.Related
		}
		kept.AlsoFrom = addSource(kept.AlsoFrom, kept.Source, d.Source)
		kept.AlsoFrom = addSource(kept.AlsoFrom, kept.Source, d.AlsoFrom...)
	}
	return out
}

// addSource adds the drivers srcs to also, leaving out primary and those
// already named.
func addSource(also []string, primary string, srcs ...string) []string {
	for _, s := range srcs {
		if s != "" && s != primary && !slices.Contains(also, s) {
			also = append(also, s)
		}
	}
	return also
}

// addProjects adds what driver dn's answer says of its projects.
func addProjects(resp *engine.Response, dn string, r *Result) {
	if len(r.Projects) == 0 {
		return
	}
	if resp.ProjectFiles == nil {
		resp.ProjectFiles = map[string][]engine.ProjectFiles{}
	}
	resp.ProjectFiles[dn] = append(resp.ProjectFiles[dn], r.Projects...)
}

// safeRun runs a driver, turning a panic into a crashed status.
func safeRun(ctx context.Context, d Driver, req *Request) (r *Result) {
	defer func() {
		if p := recover(); p != nil {
			r = &Result{Status: engine.StatusCrashed, Message: fmt.Sprintf("the driver panicked: %v", p)}
		}
	}()
	r = d.Run(ctx, req)
	if r == nil {
		r = &Result{Status: engine.StatusCrashed, Message: "the driver returned no result"}
	}
	return r
}

func info(p, msg string) engine.Diagnostic {
	return engine.Diagnostic{Path: p, Line: 1, Column: 1, EndLine: 1, EndColumn: 1, Severity: engine.SeverityInfo, Source: "devbroker", Message: msg}
}
