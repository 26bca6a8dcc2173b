package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
)

// fakeCaps answers every kind with a fixed response: fault injection for
// the verdict rules.
type fakeCaps struct {
	resp  Response
	calls []Kind
}

func (f *fakeCaps) Has(Kind) bool { return true }

func (f *fakeCaps) Run(_ context.Context, req Request) (*Response, error) {
	f.calls = append(f.calls, req.Kind)
	r := f.resp
	return &r, nil
}

func diag(sev Severity, msg string) Diagnostic {
	return Diagnostic{Path: "a.go", Line: 2, Column: 1, EndLine: 2, EndColumn: 1, Severity: sev, Source: "fake", Message: msg}
}

const editThenValidate = `{"paths": ["a.go"], "ops": [
  {"step": "edit", "args": {"path": "a.go", "edits": [{"find": "two", "replace": "TWO"}]}},
  {"step": "%s", "args": {}},
  {"step": "write", "args": {}}]}`

// A lint or check whose answer has an error diagnostic fails the step: the
// plan ends there, so the write after it never runs.
func TestErrorDiagnosticEndsThePlan(t *testing.T) {
	for _, step := range []string{"lint", "check"} {
		t.Run(step, func(t *testing.T) {
			caps := &fakeCaps{resp: Response{
				Output: Output{
					Diagnostics: []Diagnostic{diag(SeverityWarning, "unused"), diag(SeverityError, "too many arguments in call to helper"), diag(SeverityError, "undefined: x")},
				},
				Drivers: []DriverStatus{{Driver: "fake", Status: StatusOK}},
			}}
			e, root := setup(t, map[string]string{"a.go": "one\ntwo\n"}, Options{Capabilities: caps})
			r := run(t, e, strings.Replace(editThenValidate, "%s", step, 1))
			wantError(t, r, fault.Diagnostics, step+" found 2 errors", "a.go:2:1: too many arguments in call to helper")
			if r.Error.Step != 2 || r.Error.Name != step || r.Error.Retryable {
				t.Errorf("error = %+v, want step 2 %s, not retryable", r.Error, step)
			}
			if len(r.Written) != 0 || readFile(t, root, "a.go") != "one\ntwo\n" {
				t.Errorf("written = %v, disk = %q: the write after a failed %s ran", r.Written, readFile(t, root, "a.go"), step)
			}
			if len(r.Diagnostics) != 3 {
				t.Errorf("diagnostics = %v, want all three kept in the result", r.Diagnostics)
			}
			if len(r.Changes) != 1 {
				t.Errorf("changes = %v, want the edit kept (unwritten) in the workspace", r.Changes)
			}
		})
	}
}

// Warnings and infos never end a plan.
func TestWarningsDoNotEndThePlan(t *testing.T) {
	caps := &fakeCaps{resp: Response{
		Output: Output{
			Diagnostics: []Diagnostic{diag(SeverityWarning, "unused"), diag(SeverityInfo, "note")},
		},
		Drivers: []DriverStatus{{Driver: "fake", Status: StatusOK}},
	}}
	e, root := setup(t, map[string]string{"a.go": "one\ntwo\n"}, Options{Capabilities: caps})
	r := run(t, e, strings.Replace(editThenValidate, "%s", "check", 1))
	if !r.OK || r.Error != nil {
		t.Fatalf("result = %+v, want ok", r)
	}
	if readFile(t, root, "a.go") != "one\nTWO\n" {
		t.Errorf("disk = %q, want the edit written", readFile(t, root, "a.go"))
	}
}

// An incomplete answer (a driver timed out, crashed, is still indexing,
// or a language went unchecked) is never ok and ends the plan too, with
// the status as the error kind.
func TestIncompleteAnswerEndsThePlan(t *testing.T) {
	for _, tc := range []struct {
		status    Status
		kind      fault.Kind
		retryable bool
	}{
		{StatusTimeout, fault.Timeout, true},
		{StatusCrashed, fault.Crashed, true},
		{StatusIndexing, fault.Indexing, true},
		{StatusNotInstalled, fault.Unchecked, false},
		{StatusUnchecked, fault.Unchecked, false},
	} {
		for _, step := range []string{"format", "lint", "check"} {
			t.Run(string(tc.status)+"/"+step, func(t *testing.T) {
				caps := &fakeCaps{resp: Response{Drivers: []DriverStatus{
					{Driver: "good", Status: StatusOK},
					{Driver: "slow", Language: "go", Status: tc.status, Message: "it did not finish"},
				}}}
				e, root := setup(t, map[string]string{"a.go": "one\ntwo\n"}, Options{Capabilities: caps})
				r := run(t, e, strings.Replace(editThenValidate, "%s", step, 1))
				wantError(t, r, tc.kind, step+" answer is incomplete", "slow", string(tc.status), "it did not finish")
				if r.Error.Retryable != tc.retryable {
					t.Errorf("retryable = %v, want %v", r.Error.Retryable, tc.retryable)
				}
				if len(r.Written) != 0 || readFile(t, root, "a.go") != "one\ntwo\n" {
					t.Errorf("written = %v: the write after an incomplete %s ran", r.Written, step)
				}
				if len(r.Drivers) != 2 {
					t.Errorf("drivers = %v, want both statuses kept", r.Drivers)
				}
			})
		}
	}
}

// The post-write ordering still reports after the write: the files are on
// disk and the result is not ok.
func TestCheckAfterWriteReports(t *testing.T) {
	caps := &fakeCaps{resp: Response{
		Output: Output{
			Diagnostics: []Diagnostic{diag(SeverityError, "too many arguments in call to helper")},
		},
		Drivers: []DriverStatus{{Driver: "fake", Status: StatusOK}},
	}}
	e, root := setup(t, map[string]string{"a.go": "one\ntwo\n"}, Options{Capabilities: caps})
	r := run(t, e, `{"paths": ["a.go"], "ops": [
  {"step": "edit", "args": {"path": "a.go", "edits": [{"find": "two", "replace": "TWO"}]}},
  {"step": "write", "args": {}},
  {"step": "lint", "args": {}},
  {"step": "check", "args": {}}]}`)
	wantError(t, r, fault.Diagnostics, "lint found 1 error")
	if len(r.Written) != 1 || readFile(t, root, "a.go") != "one\nTWO\n" {
		t.Errorf("written = %v, disk %q: want the write kept", r.Written, readFile(t, root, "a.go"))
	}
	if r.Error.Step != 3 {
		t.Errorf("error step = %d, want 3 (lint)", r.Error.Step)
	}
}

// OK needs every driver's answer complete even when no step failed on it
// (finish's own rule).
func TestFinishCountsDriverStatuses(t *testing.T) {
	r := newResult()
	r.Drivers = []DriverStatus{{Driver: "x", Status: StatusTimeout}}
	r.finish()
	if r.OK {
		t.Error("a result with a timed-out driver is ok")
	}
}

// A lint --fix whose answer fails keeps its fixes in the workspace
// (unwritten): the diagnostics describe that content.
func TestFailedLintKeepsFixesUnwritten(t *testing.T) {
	caps := &fakeCaps{resp: Response{
		Output: Output{
			Diagnostics: []Diagnostic{diag(SeverityError, "still broken")},
			Edits:       map[string]*text.Doc{"a.go": text.FromString("fixed\n")},
		},
		Drivers: []DriverStatus{{Driver: "fake", Status: StatusOK}},
	}}
	e, root := setup(t, map[string]string{"a.go": "one\ntwo\n"}, Options{Capabilities: caps})
	r := run(t, e, `{"paths": ["a.go"], "ops": [{"step": "lint", "args": {"fix": true}}, {"step": "write", "args": {}}]}`)
	wantError(t, r, fault.Diagnostics)
	if d, _ := e.Workspace().Doc("a.go"); d.Content() != "fixed\n" {
		t.Errorf("workspace a.go = %q, want the fix kept", d.Content())
	}
	if readFile(t, root, "a.go") != "one\ntwo\n" {
		t.Error("the write ran")
	}
}
