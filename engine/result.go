package engine

import (
	"context"
	"errors"
	"slices"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/workspace"
)

// Result is a plan's outcome: the DevResult. It has no json
// tags: broker/wire maps it to the one encoding every surface sends.
type Result struct {
	// OK is true only when every step ran, no diagnostic is an error and
	// every driver's answer is complete (status ok).
	OK bool
	// Reads holds read_lines output by label (default: the path).
	Reads map[string]string
	// Changes lists how the workspace differs from what was acquired.
	Changes []workspace.Change
	// Written lists the paths written to disk, in order.
	Written []string
	// ChangedAfterWrite lists the written paths whose content on disk was
	// no longer what the write put there when it finished: something
	// outside the broker changed them meanwhile. The write itself
	// succeeded; read those files again before relying on them.
	ChangedAfterWrite []string
	// Merged lists the written files that had changed on disk since the
	// workspace read them, whose change there the write merged with the
	// workspace's (they touched different lines): what was written holds
	// both.
	Merged []workspace.Merged
	// Formatted says what each format step did with each file it
	// formatted or left, with the diff of what it changed.
	Formatted []Formatted
	// Diagnostics are the findings of lint and check, most severe first.
	Diagnostics []Diagnostic
	// PreExisting are the findings the baseline had already, listed apart
	// from Diagnostics because only introduced errors stop the plan for
	// their files (fail_on "introduced"); most severe first. They never
	// make the result not ok.
	PreExisting []Diagnostic
	// Baseline counts, when a lint or check answer was compared with its
	// baseline, the findings the change introduced and those the
	// baseline had; nil when no answer was.
	Baseline *BaselineCounts
	// Answers are the answers of the language and search steps, in plan
	// order.
	Answers []Answer
	// Drivers says per driver whether its part of the answer is complete.
	Drivers []DriverStatus
	// Coverage says what the answer did not cover and why (files no
	// driver looked at, diagnostics left out, configuration that does
	// not apply): notes, never findings; they do not make it not ok.
	Coverage []Note
	// Projects say, when the files belong to projects below the root,
	// which project each file belongs to and which language servers
	// answered for it (see [Project]); nil for an answer about a single
	// project at the root.
	Projects []Project
	// projectFiles collects what the steps' drivers said of their
	// projects, by driver; finish merges it into Projects.
	projectFiles map[string][]ProjectFiles
	// Error describes the step that failed, if one did.
	Error *StepError
	// Stale lists the files whose unwritten changes are based on content
	// the disk no longer holds (found by acquisition or by a refused
	// write).
	Stale []workspace.Stale
}

// StepError is the failure of one step.
type StepError struct {
	// Step is the 1-based index of the failing step; 0 for the plan
	// itself (validation or acquisition).
	Step int
	// Name is the step's name ("" for validation, "acquire").
	Name      string
	Kind      fault.Kind
	Message   string
	Retryable bool
	// Written lists what a failed write had written before it failed.
	Written []string
	// Temp names a rename swap's temporary file left on disk.
	Temp string
}

func newResult() *Result {
	return &Result{Reads: map[string]string{}, Changes: []workspace.Change{}, Written: []string{}, Diagnostics: []Diagnostic{}}
}

func (r *Result) fail(step int, name string, err error) {
	kind := fault.KindOf(err)
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		kind = fault.Timeout
	case errors.Is(err, context.Canceled) && kind == fault.Internal:
		kind = fault.IO
	}
	se := &StepError{Step: step, Name: name, Kind: kind, Message: err.Error(), Retryable: kind.Retryable()}
	var stale *workspace.StaleError
	if errors.As(err, &stale) {
		r.addStale(stale.Stale)
	}
	var we *workspace.WriteError
	if errors.As(err, &we) {
		se.Written = append([]string{}, we.Written...)
		se.Temp = we.Temp
	}
	r.Error = se
}

// addStale adds stale files, each path once.
func (r *Result) addStale(stale []workspace.Stale) {
	for _, s := range stale {
		if !slices.ContainsFunc(r.Stale, func(o workspace.Stale) bool { return o.Path == s.Path }) {
			r.Stale = append(r.Stale, s)
		}
	}
}

func (r *Result) finish() {
	SortDiagnostics(r.Diagnostics)
	SortDiagnostics(r.PreExisting)
	r.Drivers = uniqueStatuses(r.Drivers)
	r.Coverage = uniqueNotes(r.Coverage)
	r.Projects = MergeProjects(r.projectFiles)
	r.OK = r.Error == nil && complete(r.Drivers)
	for _, d := range r.Diagnostics {
		if d.Severity == SeverityError {
			r.OK = false
		}
	}
}

// uniqueStatuses keeps the first of equal driver statuses: a plan that
// asks one server several times reports it once per distinct answer.
func uniqueStatuses(ds []DriverStatus) []DriverStatus {
	out := ds[:0]
	for _, d := range ds {
		if !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// uniqueNotes keeps the first of notes that say the same: a plan that
// lints twice notes each uncovered language once.
func uniqueNotes(ns []Note) []Note {
	out := ns[:0]
	for _, n := range ns {
		if !slices.ContainsFunc(out, func(o Note) bool { return o.Kind == n.Kind && o.Message == n.Message }) {
			out = append(out, n)
		}
	}
	return out
}

// addProjects collects what a response says of its projects.
func (r *Result) addProjects(resp *Response) {
	for dn, pfs := range resp.ProjectFiles {
		if r.projectFiles == nil {
			r.projectFiles = map[string][]ProjectFiles{}
		}
		r.projectFiles[dn] = append(r.projectFiles[dn], pfs...)
	}
}
