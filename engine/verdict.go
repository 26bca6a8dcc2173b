package engine

// This file holds the verdict rules of the format, lint and check steps:
// an answer that is incomplete, or a lint or check answer with an error
// diagnostic, fails its step, so a plan never goes on to write what was
// not validated.

import (
	"fmt"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
)

// maxNamed is how many errors or statuses a verdict's message names.
const maxNamed = 3

// verdict returns the failure of a format, lint or check step whose
// answer is resp, or nil when the step succeeds. The message speaks of the
// step alone: [Engine.Run] says which steps of a plan it stopped. An incomplete answer (a
// driver status other than ok) fails any of the three, with the status as
// the error kind; a lint or check answer with an error diagnostic fails
// with kind diagnostics. Incompleteness wins when both hold: the findings
// may be missing some.
func verdict(kind Kind, resp *Response) error {
	var errs []Diagnostic
	if kind != Format {
		for _, d := range resp.Diagnostics {
			if d.Severity == SeverityError {
				errs = append(errs, d)
			}
		}
	}
	var bad []DriverStatus
	for _, s := range resp.Drivers {
		if s.Status != StatusOK {
			bad = append(bad, s)
		}
	}
	if len(bad) > 0 {
		return incomplete(kind, bad, len(errs))
	}
	if len(errs) == 0 {
		return nil
	}
	// The introduced errors first: a long list of old ones must not hide
	// the one the change made.
	slices.SortStableFunc(errs, func(a, b Diagnostic) int { return introducedRank(a) - introducedRank(b) })
	what := count(len(errs), "error")
	if n := countIntroduced(errs); n >= 0 {
		what += fmt.Sprintf(" (%d introduced by the change, %d there before it)", n, len(errs)-n)
	}
	named := make([]string, 0, maxNamed)
	for _, d := range errs[:min(len(errs), maxNamed)] {
		named = append(named, fmt.Sprintf("%s:%d:%d: %s", d.Path, d.Line, d.Column, d.Message))
	}
	more := ""
	if n := len(errs) - len(named); n > 0 {
		more = fmt.Sprintf("; and %d more", n)
	}
	return fault.New(fault.Diagnostics, "%s found %s: %s%s (all are in diagnostics): fix the code, then %s again",
		kind, what, strings.Join(named, "; "), more, kind)
}

// introducedRank orders introduced findings before the others.
func introducedRank(d Diagnostic) int {
	if d.Introduced != nil && *d.Introduced {
		return 0
	}
	return 1
}

// countIntroduced counts the introduced findings of ds, or is -1 when
// they were not compared with a baseline.
func countIntroduced(ds []Diagnostic) int {
	n := 0
	for _, d := range ds {
		if d.Introduced == nil {
			return -1
		}
		if *d.Introduced {
			n++
		}
	}
	return n
}

// incomplete is the failure of a step whose answer some driver did not
// complete.
func incomplete(kind Kind, bad []DriverStatus, nerrs int) error {
	ek := statusKind(bad[0].Status)
	for _, s := range bad {
		if k := statusKind(s.Status); !k.Retryable() {
			ek = k // retrying does not help if any part cannot be retried
			break
		}
	}
	named := make([]string, 0, maxNamed)
	for _, s := range bad[:min(len(bad), maxNamed)] {
		who := s.Driver
		if s.Language != "" {
			who = s.Language + " files (" + s.Driver + ")"
		}
		part := who + ": " + string(s.Status)
		if s.Message != "" {
			part += ": " + s.Message
		}
		named = append(named, part)
	}
	if n := len(bad) - len(named); n > 0 {
		named = append(named, fmt.Sprintf("and %d more (see drivers)", n))
	}
	also := ""
	if nerrs > 0 {
		also = fmt.Sprintf("; it also found %s (see diagnostics)", count(nerrs, "error"))
	}
	advice := "install or fix the driver (see devbroker probe)"
	if ek.Retryable() {
		advice = "retry, or raise the driver's timeout"
	}
	return fault.New(ek, "%s answer is incomplete: %s%s; an incomplete answer is never ok: %s",
		kind, strings.Join(named, "; "), also, advice)
}

// statusKind is the error kind of a step failed by a driver status.
func statusKind(s Status) fault.Kind {
	switch s {
	case StatusTimeout:
		return fault.Timeout
	case StatusCrashed:
		return fault.Crashed
	case StatusIndexing:
		return fault.Indexing
	default: // not_installed, unchecked, and any status this build does not know
		return fault.Unchecked
	}
}

func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// complete reports whether every driver status is ok.
func complete(ds []DriverStatus) bool {
	for _, d := range ds {
		if d.Status != StatusOK {
			return false
		}
	}
	return true
}

// nothingLooked is the failure of a format, lint or check step that no
// driver answered: it had no file (paths empty; unnamed says the step
// looked for them over the whole root), or the languages of its files
// list no driver for kind, or no language covers them, or the driver
// their language lists is not installed or runs only in a trusted root
// (the coverage notes say which).
// An answer about no file is never ok, whatever the notes say.
func nothingLooked(kind Kind, paths []string, unnamed bool) error {
	if len(paths) == 0 {
		where := "the workspace holds no file"
		if unnamed {
			where = "the workspace holds no file, and no file under the root is one a configured language covers (the walk passes over version control, testdata and vendor directories, what .gitignore ignores and what the project leaves out of its scope)"
		}
		return fault.New(fault.Unchecked, "%s looked at no file: %s; an answer about no file is never ok: pass paths naming the files to %s", kind, where, kind)
	}
	named := slices.Clone(paths[:min(len(paths), maxNamed)])
	if n := len(paths) - len(named); n > 0 {
		named = append(named, fmt.Sprintf("%d more", n))
	}
	return fault.New(fault.Unchecked, "%s looked at no file: no configured %s serves %s (coverage says why: no language covers the file, its language lists no %s, or the %s it lists is not installed or runs only in a root you trust); an answer about no file is never ok: install the %s (or trust the root, when the coverage says it waits for that), or pass paths naming files whose language has a working %s (devbroker probe lists them)",
		kind, agent(kind), list(named), agent(kind), agent(kind), agent(kind), agent(kind))
}

// agent names what serves kind: a formatter, a linter, a checker.
func agent(kind Kind) string {
	switch kind {
	case Format:
		return "formatter"
	case Lint:
		return "linter"
	}
	return "checker"
}

// list joins items as a sentence does: "a", "a and b", "a, b and c".
func list(items []string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}
