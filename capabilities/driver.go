// Package capabilities answers the engine's format, lint and check steps
// through drivers: gofumpt and staticcheck linked in, language servers over
// LSP, and external commands, configured per language in configs/. The
// language steps (definition, references, hover, symbols, rename,
// code_actions) go to the language servers of a language's intelligence
// list (intel.go).
//
// The principal types are [Driver] (one tool, described by its [Spec]),
// [Set] (the drivers of one configuration, routed by file type, which
// implements engine.Capabilities) and [Report] (what the probe found).
// Optional abilities are optional interfaces: [Heir], [Starter].
//
// # Lifecycle
//
// A driver, and a set, lives through four steps, in this order:
//
//  1. New ([Type].New, [NewSet]) checks the configuration and builds
//     the value. It has no side effect: it starts no process, creates
//     no file, opens no cache. A driver that a re-probe builds to
//     replace another may then Inherit from it ([Heir], [NewSetAfter]).
//  2. Probe finds the tool and runs its smoke test, within the
//     context's deadline. What it starts it stops before returning.
//  3. Run answers requests, concurrently. A driver keeps what makes
//     the next request fast (a language server, a staged module, a
//     cache), owned by it or by its set, never by the package. A
//     [Starter] may start its process earlier, beside its probe, when
//     the set was told to ([Set.StartEarly]).
//  4. Close is required, idempotent and blocking: it refuses new
//     calls, waits for the running ones to end, then stops the
//     driver's processes and removes its files. A Run after Close
//     answers status crashed saying the driver was closed; a set's Run
//     after Close returns [ErrSetClosed].
//
// A set owns its drivers, its store of staged trees ([Trees]) and a hold
// on the resources its drivers share ([Shared]: the language servers). A
// re-probe builds the new set beside the old one with [NewSetAfter]: the
// new set shares the old one's resources and its heirs take over the
// running servers whose command and settings did not change; the old set
// is closed when its last request ends, and the last set holding the
// shared resources stops them. [Calls] is the bookkeeping behind Close.
//
// This file defines the driver model.
package capabilities

import (
	"context"
	"time"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// Spec describes a driver.
type Spec struct {
	// Name is the driver's name in the configuration ("gofumpt").
	Name string
	// Type is the driver's implementation ("gofumpt", "external", "lsp").
	Type string
	// Kinds are what the driver can do.
	Kinds []engine.Kind
	// Doc says what the driver does.
	Doc string
}

// Driver is one tool that formats, lints or checks files.
//
// Drivers never report a tool failure as a clean answer: a driver that
// could not run sets Result.Status (timeout, crashed, not_installed,
// indexing) and returns what it knows.
type Driver interface {
	// Spec describes the driver.
	Spec() Spec
	// Probe finds the tool, records its version and runs a tiny smoke
	// test. It must return within ctx's deadline.
	Probe(ctx context.Context) Probe
	// Run formats, lints or checks req.Files, or answers req.Query
	// (req.Kind says which).
	Run(ctx context.Context, req *Request) *Result
	// Close waits for the running calls, then releases what the driver
	// holds (processes, files). It is idempotent; see the lifecycle in
	// the package doc.
	Close() error
}

// Request is one run of one driver: the set's engine.Request, routed to
// it. The two differ only where routing does. The set is asked about
// paths of a view (engine.Request.Paths, nil for every file of its Files
// map), with what only the set acts on (Swept, Uncapped); each driver is
// given the sorted list of the files routed to it by file type (Files)
// and the view as the drivers before it in the run left it (All, and
// Changed: a lint --fix driver sees the earlier drivers' fixes as changed
// content). Every other field is the set's request's, and means what it
// means there: its one home is engine.Request.
type Request struct {
	Kind engine.Kind
	Root string
	// Files are the paths this driver is asked about (routed to it by file
	// type), sorted; for a language kind, Query.Path, or nothing for a
	// workspace symbol search.
	Files []string
	// All is every file of the workspace, current content: the truth that
	// overlays and staged trees are made from (engine.Request.Files, with
	// the fixes of the drivers before this one in the run).
	All map[string]*text.Doc
	// Changed lists the files whose content differs from disk, the fixes
	// of the drivers before this one included.
	Changed   []string
	Deleted   []string
	Affecting []string
	Fix       bool
	Ranges    map[string][]engine.LineRange
	Before    map[string]*text.Doc
	Query     *engine.Query
}

// Result is one driver's answer: what it found, and whether that is
// complete.
type Result struct {
	// Output is what the driver found; a set merges its drivers' into
	// its engine.Response.
	engine.Output
	// Status is ok only when the answer is complete and current.
	Status engine.Status
	// Message explains a status other than ok.
	Message string
	// Withheld: the driver was not asked, as the request's files would
	// have made it read files outside a root the user has not trusted
	// (see [Withholder]); the status is unchecked, Message says which and
	// how to trust the root. Nothing the caller changes fixes it but the
	// trust, so a language request reports it as unchecked, not as a
	// request the server declined.
	Withheld bool
	// Declined: the server refused the request with an error answer,
	// giving its reason (tsserver's "No Project" for a workspace symbol
	// search when it has loaded no project); the status is unchecked.
	// Another unchecked answer (a request not offered, a file withheld)
	// is not a refusal.
	Declined bool
	// Projects say which project each of the files the driver answered
	// for belongs to, and from what root its server answered (a language
	// server with project markers: configs.Driver.ProjectMarkers); nil
	// from a driver that knows no projects.
	Projects []engine.ProjectFiles
}

// RangeFormatter is a Driver that can format parts of files: Run with
// req.Ranges formats, in each file, the runs of lines it lists (and what
// the tool must take with them: the statement around), and says in
// Result.Formatted, per file, how (engine.FormatRange), or, with How "",
// why it could not (the server does not offer range formatting). A file
// it could not format so is left to [Canonical]'s rule.
type RangeFormatter interface {
	Driver
	FormatsRanges() bool
}

// Canonical is a formatter whose output depends on the code alone, not
// on its layout (gofmt, gofumpt): formatting a whole file that was
// formatted before a change rewrites only what the change needs, so a
// format of only the changed lines may format such a file whole.
type Canonical interface {
	Driver
	Canonical() bool
}

// Withholder is a driver that, in a root the user has not trusted, does
// not answer about some of its files (a C language server that would
// read files outside the root through them): Withheld says which and
// why, "" when it answers about all. The probe's report carries it.
type Withholder interface {
	Withheld(ctx context.Context) string
}

// ProbeState is what the probe found of a driver.
type ProbeState string

// Probe states.
const (
	Found   ProbeState = "found"   // present and its smoke test passed
	Missing ProbeState = "missing" // not installed
	Failed  ProbeState = "failed"  // present, but the smoke test failed
	// Untrusted is a driver that the project's configuration defines or
	// changes to run a command, in a root the user has not trusted: it
	// was not probed and does not run.
	Untrusted ProbeState = "untrusted"
)

// Probe is the probe's finding for one driver.
type Probe struct {
	State ProbeState
	// Reason explains a state other than found, with what to do.
	Reason string
	// Version is the tool's version as it reports it.
	Version string
	// Path is where the tool was found ("linked in" for in-process tools).
	Path string
	// Took is how long the probe took.
	Took time.Duration
	// Command is, for an untrusted driver, the command it would run.
	Command []string
	// Offers narrows, for a found driver, its Spec's kinds to those the
	// tool itself offers (a language server's initialize answer says
	// which requests it serves); nil means every kind of its Spec.
	Offers []engine.Kind
}

// Present lists the paths of ps that all holds: of a request's Affecting,
// those that exist in its (baseline) content.
func Present(ps []string, all map[string]*text.Doc) []string {
	var out []string
	for _, p := range ps {
		if _, ok := all[p]; ok {
			out = append(out, p)
		}
	}
	return out
}
