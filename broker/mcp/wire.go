package mcp

// This file defines the wire types of the tools' results and maps engine
// and capability values to them. Engine and capability types never reach
// the wire themselves: a change to them shows up here, not in a client.

import (
	"fmt"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/editfile"
	"github.com/devbroker/devbroker/engine/fault"
)

// DevResult is a plan's or step's outcome: seed 000's DevResult.
type DevResult struct {
	OK          bool              `json:"ok" jsonschema:"false when a step failed or any diagnostic is an error"`
	Reads       map[string]string `json:"reads" jsonschema:"read_lines output by label (default: the path), lines joined with newlines"`
	Changes     []Change          `json:"changes" jsonschema:"how the session's workspace differs from what was acquired"`
	Written     []string          `json:"written" jsonschema:"paths written to disk by this call, in order"`
	Diagnostics []Diagnostic      `json:"diagnostics" jsonschema:"findings of lint and check, most severe first; they describe the workspace, including unwritten changes"`
	Drivers     []DriverStatus    `json:"drivers,omitempty" jsonschema:"per driver, whether its part of the answer is complete"`
	Unwritten   []string          `json:"unwritten" jsonschema:"paths whose workspace changes are not on disk yet after this call"`
	Error       *StepError        `json:"error,omitempty" jsonschema:"the failing step, if one failed"`
}

// Change is one file's difference from what was acquired.
type Change struct {
	Path    string `json:"path"`
	Kind    string `json:"kind" jsonschema:"modified, added, deleted or renamed"`
	From    string `json:"from,omitempty" jsonschema:"the old path of a renamed file"`
	Added   int    `json:"added" jsonschema:"lines added"`
	Removed int    `json:"removed" jsonschema:"lines removed"`
}

// Diagnostic is one finding. Lines and columns are 1-based; columns count
// Unicode characters.
type Diagnostic struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	Severity  string `json:"severity" jsonschema:"error, warning or info"`
	Source    string `json:"source" jsonschema:"the driver that reported it, e.g. gopls or staticcheck"`
	Code      string `json:"code,omitempty"`
	Message   string `json:"message"`
	Fixes     []Fix  `json:"fixes,omitempty" jsonschema:"changes the driver offers"`
}

// Fix is a change a driver offers for a diagnostic.
type Fix struct {
	Title string    `json:"title"`
	Edits []FixEdit `json:"edits,omitempty"`
}

// FixEdit replaces a range of a file.
type FixEdit struct {
	Path      string `json:"path"`
	Line      int    `json:"line"`
	Column    int    `json:"column"`
	EndLine   int    `json:"end_line"`
	EndColumn int    `json:"end_column"`
	New       string `json:"new"`
}

// DriverStatus is one driver's status in an answer.
type DriverStatus struct {
	Driver  string `json:"driver"`
	Status  string `json:"status" jsonschema:"ok, timeout, crashed, not_installed or indexing; only ok is complete and current"`
	Message string `json:"message,omitempty"`
}

// StepError is the failure of a step or of the call.
type StepError struct {
	Step      int      `json:"step" jsonschema:"1-based index of the failing step; 0 for the plan itself"`
	Name      string   `json:"name" jsonschema:"the step's name; empty for validation, acquire for acquisition"`
	Kind      string   `json:"kind" jsonschema:"bad_argument, not_found, ambiguous, no_match, conflict, bounds, unavailable, io, timeout or internal"`
	Message   string   `json:"message"`
	Retryable bool     `json:"retryable" jsonschema:"whether the identical call may succeed later; false means change the call"`
	Written   []string `json:"written,omitempty" jsonschema:"what a failed write had written before it failed"`
	Temp      string   `json:"temp,omitempty" jsonschema:"a rename swap's temporary file left on disk"`
}

// devResult maps an engine Result.
func devResult(r *engine.Result, unwritten []string) *DevResult {
	out := &DevResult{
		OK: r.OK, Reads: map[string]string{}, Changes: []Change{}, Written: []string{},
		Diagnostics: []Diagnostic{}, Unwritten: []string{},
	}
	for k, v := range r.Reads {
		out.Reads[k] = v
	}
	for _, c := range r.Changes {
		out.Changes = append(out.Changes, Change{Path: c.Path, Kind: string(c.Kind), From: c.From, Added: c.Added, Removed: c.Removed})
	}
	out.Written = append(out.Written, r.Written...)
	for _, d := range r.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, diagnostic(d))
	}
	for _, d := range r.Drivers {
		out.Drivers = append(out.Drivers, DriverStatus{Driver: d.Driver, Status: string(d.Status), Message: d.Message})
	}
	out.Unwritten = append(out.Unwritten, unwritten...)
	if e := r.Error; e != nil {
		out.Error = &StepError{
			Step: e.Step, Name: e.Name, Kind: string(e.Kind), Message: e.Message,
			Retryable: e.Retryable, Written: e.Written, Temp: e.Temp,
		}
	}
	return out
}

func diagnostic(d engine.Diagnostic) Diagnostic {
	out := Diagnostic{
		Path: d.Path, Line: d.Line, Column: d.Column, EndLine: d.EndLine, EndColumn: d.EndColumn,
		Severity: string(d.Severity), Source: d.Source, Code: d.Code, Message: d.Message,
	}
	for _, f := range d.Fixes {
		wf := Fix{Title: f.Title}
		for _, e := range f.Edits {
			wf.Edits = append(wf.Edits, FixEdit{Path: e.Path, Line: e.Line, Column: e.Column, EndLine: e.EndLine, EndColumn: e.EndColumn, New: e.New})
		}
		out.Fixes = append(out.Fixes, wf)
	}
	return out
}

// Text renders the result for a model to read.
func (r *DevResult) Text() string {
	var b strings.Builder
	if r.Error != nil {
		e := r.Error
		where := "the plan"
		if e.Step > 0 {
			where = fmt.Sprintf("step %d (%s)", e.Step, e.Name)
		} else if e.Name != "" {
			where = e.Name
		}
		retry := "do not retry it unchanged"
		if e.Retryable {
			retry = "it may succeed if retried"
		}
		fmt.Fprintf(&b, "FAILED at %s [%s; %s]: %s\n", where, e.Kind, retry, e.Message)
		if len(e.Written) > 0 {
			fmt.Fprintf(&b, "written before the failure: %s\n", strings.Join(e.Written, ", "))
		}
		if e.Temp != "" {
			fmt.Fprintf(&b, "temporary file left on disk: %s\n", e.Temp)
		}
	} else {
		fmt.Fprintf(&b, "ok: %t\n", r.OK)
	}
	labels := make([]string, 0, len(r.Reads))
	for k := range r.Reads {
		labels = append(labels, k)
	}
	sort.Strings(labels)
	for _, k := range labels {
		fmt.Fprintf(&b, "--- read %s ---\n%s\n--- end %s ---\n", k, r.Reads[k], k)
	}
	for _, c := range r.Changes {
		from := ""
		if c.From != "" {
			from = " from " + c.From
		}
		fmt.Fprintf(&b, "change: %s %s%s (+%d -%d)\n", c.Kind, c.Path, from, c.Added, c.Removed)
	}
	if len(r.Written) > 0 {
		fmt.Fprintf(&b, "written: %s\n", strings.Join(r.Written, ", "))
	}
	for _, d := range r.Drivers {
		if d.Status != string(engine.StatusOK) {
			fmt.Fprintf(&b, "driver %s: %s %s\n", d.Driver, d.Status, d.Message)
		}
	}
	for _, d := range r.Diagnostics {
		code := ""
		if d.Code != "" {
			code = " " + d.Code
		}
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s (%s%s)\n", d.Path, d.Line, d.Column, d.Severity, d.Message, d.Source, code)
	}
	if len(r.Unwritten) > 0 {
		fmt.Fprintf(&b, "unwritten (in the workspace, not on disk): %s\n", strings.Join(r.Unwritten, ", "))
	}
	return strings.TrimRight(b.String(), "\n")
}

// EditFileResult is the outcome of edit_file, read_file or write_file.
type EditFileResult struct {
	Path     string     `json:"path" jsonschema:"the file's absolute path"`
	Revision string     `json:"revision" jsonschema:"the file's revision after the call (the would-be revision of a dry run); pass it as revision to your next edit"`
	Diff     string     `json:"diff,omitempty" jsonschema:"the unified diff of an edit or a dry run"`
	Changed  bool       `json:"changed" jsonschema:"whether the call wrote the file"`
	Error    *StepError `json:"error,omitempty" jsonschema:"why the call failed, if it did"`
}

func editFileResult(r *editfile.Result) *EditFileResult {
	return &EditFileResult{Path: r.Path, Revision: r.Revision, Diff: r.Diff, Changed: r.Changed}
}

// callError maps an error from the engine or the broker.
func callError(err error) *StepError {
	k := fault.KindOf(err)
	return &StepError{Kind: string(k), Message: err.Error(), Retryable: k.Retryable()}
}

// ProbeResult is what the probe found.
type ProbeResult struct {
	Drivers   []DriverReport      `json:"drivers" jsonschema:"every configured driver and what the probe found"`
	Available map[string][]string `json:"available" jsonschema:"format, lint and check, each with the languages that have a working driver"`
	Tools     []string            `json:"tools" jsonschema:"the tools this server advertises now"`
}

// DriverReport is one driver's line of the probe report.
type DriverReport struct {
	Name    string   `json:"name"`
	Type    string   `json:"type" jsonschema:"gofumpt, staticcheck, lsp or external"`
	Kinds   []string `json:"kinds" jsonschema:"what the driver does: format, lint, check"`
	State   string   `json:"state" jsonschema:"found, missing or failed"`
	Reason  string   `json:"reason,omitempty" jsonschema:"why a driver is not found, and what to do"`
	Version string   `json:"version,omitempty"`
	Path    string   `json:"path,omitempty"`
}

func probeResult(r *capabilities.Report, tools []string) *ProbeResult {
	out := &ProbeResult{Drivers: []DriverReport{}, Available: map[string][]string{}, Tools: tools}
	for _, d := range r.Drivers {
		kinds := make([]string, len(d.Kinds))
		for i, k := range d.Kinds {
			kinds[i] = string(k)
		}
		out.Drivers = append(out.Drivers, DriverReport{
			Name: d.Name, Type: d.Type, Kinds: kinds, State: string(d.State),
			Reason: d.Reason, Version: d.Version, Path: d.Path,
		})
	}
	for _, k := range []engine.Kind{engine.Format, engine.Lint, engine.Check} {
		out.Available[string(k)] = append([]string{}, r.Available[k]...)
	}
	return out
}

// Text renders the probe result for a model.
func (r *ProbeResult) Text() string {
	var b strings.Builder
	for _, d := range r.Drivers {
		fmt.Fprintf(&b, "driver %s (%s; %s): %s", d.Name, d.Type, strings.Join(d.Kinds, ","), d.State)
		if d.Version != "" {
			fmt.Fprintf(&b, " %s", firstLine(d.Version))
		}
		if d.Reason != "" {
			fmt.Fprintf(&b, " — %s", d.Reason)
		}
		b.WriteByte('\n')
	}
	for _, k := range []string{"format", "lint", "check"} {
		langs := r.Available[k]
		if len(langs) == 0 {
			fmt.Fprintf(&b, "%s: unavailable\n", k)
		} else {
			fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(langs, ", "))
		}
	}
	fmt.Fprintf(&b, "tools: %s", strings.Join(r.Tools, ", "))
	return b.String()
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
