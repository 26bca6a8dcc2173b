package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// Kind is a capability kind: what a format, lint or check step asks for.
type Kind string

// The capability kinds.
const (
	Format Kind = "format"
	Lint   Kind = "lint"
	Check  Kind = "check"
	// Test runs the tests the change affects.
	Test Kind = "test"
)

// CapabilityKinds lists the capability kinds that drivers serve over
// files, in their order: format, lint, check, test. The language kinds
// are [LanguageKinds].
func CapabilityKinds() []Kind { return []Kind{Format, Lint, Check, Test} }

// CodeTestFailed is the code of a test driver's finding for a failed
// test, whose message begins with the test's name and ": ".
const CodeTestFailed = "test"

// Capabilities answers the format, lint and check steps. The engine defines
// this interface and never learns how it is served (language servers,
// linked-in tools, commands): see capabilities/ for the implementations.
type Capabilities interface {
	// Has reports whether at least one working driver serves kind.
	Has(kind Kind) bool
	// Run runs kind over the request's files. An error means the
	// capability machinery itself failed; a driver that timed out or
	// crashed is reported in the response's statuses, not as an error.
	Run(ctx context.Context, req Request) (*Response, error)
}

// Explainer is Capabilities that can say why no working driver serves a
// kind, with what to install ("" when they cannot say): a step refused as
// unavailable says it.
type Explainer interface {
	Unavailable(kind Kind) string
}

// Request is one format, lint or check over a view of the workspace.
// It is the one home of its fields' meaning: a capabilities set routes it
// to each of its drivers as a capabilities.Request, which has the same
// fields but those only the set acts on (Paths, Swept, Uncapped), and
// names the driver's own files (TestDriverRequestMirrorsEngine).
type Request struct {
	Kind Kind
	// Root is the workspace root directory on disk.
	Root string
	// Files is every file of the workspace, current content.
	Files map[string]*text.Doc
	// Changed lists the files whose content differs from disk (changed,
	// added or moved), sorted.
	Changed []string
	// Deleted lists the files deleted in the workspace but still on disk.
	Deleted []string
	// Affecting, for a test request over a baseline, lists the files
	// whose change the baseline is compared with (changed, added, moved
	// or deleted there), sorted: the test drivers run the tests their
	// change affects, as they would for Changed, though the request
	// shows them with their baseline content. nil otherwise.
	Affecting []string
	// Paths narrows the request to these workspace paths; nil means all
	// files of the workspace.
	Paths []string
	// Swept lists, sorted, the files of the request that a walk or a
	// glob swept in and that nobody named or changed: a step without
	// paths over the whole root, the command line's directories and
	// globs, a glob among a plan's paths, a file the workspace held
	// that this request did not name. Every other file was asked for.
	// A language's default driver that was never found leaves a swept
	// file uncovered ([Note]), an asked-for one unchecked.
	Swept []string
	// Fix asks lint to apply the fixes it can.
	Fix bool
	// Uncapped asks for every diagnostic, past the configured limit:
	// the engine caps the answer itself once it has told the findings
	// the change introduced from those it found already there, so that
	// the cap never drops an introduced one for a pre-existing one, nor
	// a baseline's finding that a later answer must be matched with.
	Uncapped bool
	// Ranges, for a format of only the changed lines, holds for each
	// file to format the runs of its lines (in Files' content) that the
	// session changed; nil for a format of whole files. Before holds each
	// such file's content before the change (nil: the session created
	// it, so every line is changed).
	Ranges map[string][]LineRange
	Before map[string]*text.Doc
	// Query is what a language request (definition, references, hover,
	// symbols, rename, code_actions) asks; nil for format, lint and
	// check. Paths then holds Query.Path alone, or nothing for a
	// workspace symbol search.
	Query *Query
}

// Response is a capability's answer: what its drivers found, and how
// complete that is.
type Response struct {
	// Output merges the answers of the drivers that took part.
	Output
	// Drivers says, per driver that took part, whether its answer is
	// complete.
	Drivers []DriverStatus
	// ProjectFiles says, by driver, which project each file it answered
	// for belongs to and the root of the server that answered (see
	// [Project]); nil from a capability that knows no projects.
	ProjectFiles map[string][]ProjectFiles
}

// Output is what a capability found: one driver's answer
// (capabilities.Result embeds it beside the driver's status) and the
// answer a set merges from theirs ([Response]). Each field is declared
// here once, for both.
type Output struct {
	Diagnostics []Diagnostic
	// Edits holds the new content of files that format or lint --fix
	// changed, by path; for rename and an applied code action, every file
	// the change edits, by its path before any Renames.
	Edits map[string]*text.Doc
	// Bases holds, for each path in Edits that the request's Files did
	// not hold, the revision (text.Revision) of the content the edit was
	// made from: the engine refuses the change when the file it then
	// reads is another.
	Bases map[string]string
	// Renames are the files a rename or an applied code action moves, in
	// order.
	Renames []FileRename
	// Locations answer definition and references.
	Locations []Location
	// Omitted counts the further locations the capability found but left
	// out of Locations, all of them after the listed ones in the order
	// the engine lists locations (by path, line, column). A capability
	// that leaves some out lists at least the first MaxLocations distinct
	// ones, so that the engine lists what it would have listed from all
	// of them, and counts the rest as Omitted plus its own cut.
	Omitted int
	// Symbols answer symbols.
	Symbols []Symbol
	// ServerLimit is, when a language server's list reached the most it
	// lists for the request (gopls stops a workspace symbol search at
	// 100), that limit: the server may have found more, which nobody
	// counted, so Omitted cannot say how many. 0 otherwise.
	ServerLimit int
	// Hover answers hover.
	Hover string
	// Actions answer a code_actions listing.
	Actions []Action
	// Formatted says what a format did with each file: how it formatted
	// it, or why it left it. A driver says so for a format of only the
	// changed lines (a capabilities.RangeFormatter's entries with How ""
	// are files it could not format by range); a set's answer has an
	// entry for each file a format of whole files changed, too.
	Formatted []Formatted
	// Coverage says what the answer did not cover and why (files it was
	// given and did not look at), and what else it says about itself:
	// notes, never findings, and never a reason for the answer to be
	// incomplete.
	Coverage []Note
}

// Status is the state of one driver's answer.
type Status string

// Driver statuses: only ok means the answer is complete and current.
const (
	StatusOK           Status = "ok"
	StatusTimeout      Status = "timeout"
	StatusCrashed      Status = "crashed"
	StatusNotInstalled Status = "not_installed"
	StatusIndexing     Status = "indexing"
	// StatusUnchecked is an entry of a language's list for the kind that
	// no working driver served (for format, a list none of whose entries
	// was served), so the language's files went without it.
	StatusUnchecked Status = "unchecked"
)

// DriverStatus is one driver's status in an answer.
type DriverStatus struct {
	Driver string
	// Language names the language an unchecked status is about.
	Language string
	Status   Status
	Message  string
}

// Severity of a diagnostic.
type Severity string

// Severities, most severe first.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Rank orders severities: 0 for an error, 1 a warning, 2 the rest.
func (s Severity) Rank() int {
	switch s {
	case SeverityError:
		return 0
	case SeverityWarning:
		return 1
	default:
		return 2
	}
}

// Diagnostic is one finding about the workspace content. Lines and
// columns are 1-based; columns count Unicode characters.
type Diagnostic struct {
	Path      string
	Line      int
	Column    int
	EndLine   int
	EndColumn int
	Severity  Severity
	Source    string
	Code      string
	Message   string
	Fixes     []Fix
	// AlsoFrom names the other drivers that reported the same finding
	// (same path, line and message), in the order they answered.
	AlsoFrom []string
	// Related are the other places the finding involves (the other
	// declaration of a name declared twice), in the driver's order.
	Related []Related
	// Introduced says, in an answer over changed content, whether the
	// change introduced the finding (true) or its baseline, the content
	// before the change, had it already (false); nil when the answer
	// was not compared with a baseline (see baseline.go).
	Introduced *bool
}

// Related is another place a diagnostic involves, and what it is there.
// Path, Line and Column are as a location's (docs/semantics.md): a
// workspace path with a 1-based line and character column, or, for a
// file outside the root, its absolute path with the column as the tool
// counts it.
type Related struct {
	Path         string
	Line, Column int
	Message      string
}

// String is the related place as the go compiler prints one under its
// error: path:line:column: message (path:line:column alone when the tool
// gave no message: gopls points a repeated error at its first place so).
func (r Related) String() string {
	if r.Message == "" {
		return fmt.Sprintf("%s:%d:%d", r.Path, r.Line, r.Column)
	}
	return fmt.Sprintf("%s:%d:%d: %s", r.Path, r.Line, r.Column, r.Message)
}

// String is the diagnostic as text, the form every text surface prints:
// one line, path:line:column: severity: message (driver code; also other
// drivers), then each related place on a line of its own, indented by a
// tab (as the go compiler prints "other declaration of" under an error).
func (d Diagnostic) String() string {
	src := d.Source
	if d.Code != "" {
		src += " " + d.Code
	}
	if len(d.AlsoFrom) > 0 {
		src += "; also " + strings.Join(d.AlsoFrom, ", ")
	}
	s := fmt.Sprintf("%s:%d:%d: %s: %s (%s)", d.Path, d.Line, d.Column, d.Severity, d.Message, src)
	for _, r := range d.Related {
		s += "\n\t" + r.String()
	}
	return s
}

// Fix is a change a driver offers for a diagnostic.
type Fix struct {
	Title string
	Edits []FixEdit
}

// FixEdit replaces a range of a file (1-based, columns in characters).
type FixEdit struct {
	Path      string
	Line      int
	Column    int
	EndLine   int
	EndColumn int
	New       string
}

// SortDiagnostics sorts by severity, then path, line and column.
func SortDiagnostics(ds []Diagnostic) {
	slices.SortStableFunc(ds, compareDiagnostics)
}

// compareDiagnostics orders by severity, then path, line and column.
func compareDiagnostics(a, b Diagnostic) int {
	if a.Severity.Rank() != b.Severity.Rank() {
		return cmp.Compare(a.Severity.Rank(), b.Severity.Rank())
	}
	if a.Path != b.Path {
		return strings.Compare(a.Path, b.Path)
	}
	if a.Line != b.Line {
		return cmp.Compare(a.Line, b.Line)
	}
	return cmp.Compare(a.Column, b.Column)
}
