package engine

// This file defines [Note]: what an answer says about itself that is not
// a finding (docs/verdicts.md, "Coverage").

import "fmt"

// NoteKind says what a [Note] is about.
type NoteKind string

// The kinds of notes.
const (
	// NoteMissing: files a walk swept in (nobody named or changed them)
	// went without a driver of their language's default list that was
	// never found (not installed). Named or changed files would have
	// made the answer unchecked instead.
	NoteMissing NoteKind = "missing"
	// NoteUntrusted: files a walk swept in went without a driver of
	// their language's default list that runs only in a root the user
	// has trusted (it would run the project's code: tsserver loads the
	// project's TypeScript, rust-analyzer its build scripts). Named or
	// changed files would have made the answer unchecked instead.
	NoteUntrusted NoteKind = "untrusted"
	// NoteNotConfigured: the files' language lists no driver for the
	// step (shell's check = []).
	NoteNotConfigured NoteKind = "not_configured"
	// NoteNoLanguage: no configured language covers the files.
	NoteNoLanguage NoteKind = "no_language"
	// NoteNotLooked: a driver did not look at files it was given (go vet
	// at a file in no package that ./... lists).
	NoteNotLooked NoteKind = "not_looked"
	// NoteDependents: the files that import a changed file may not all
	// have been checked (a TypeScript project without tsconfig.json).
	NoteDependents NoteKind = "dependents"
	// NoteOmitted: diagnostics over the limit were left out of the
	// answer.
	NoteOmitted NoteKind = "omitted"
	// NoteLeftDisk: a file the workspace held left the disk, so it left
	// the workspace.
	NoteLeftDisk NoteKind = "left_disk"
	// NoteConfig: configuration that does not apply (a project file
	// ignored until the root is trusted, a project file that could not
	// be read), and why.
	NoteConfig NoteKind = "config"
	// NoteRan: what a test run ran: the packages or files, and how
	// many tests passed, failed and were skipped.
	NoteRan NoteKind = "ran"
	// NoteOutOfScope: files a walk of the whole root met that the
	// project's own configuration leaves out of what the kind's driver
	// looks at (pyright's include, tsconfig.json's files), so they were
	// passed over. Named, they are looked at.
	NoteOutOfScope NoteKind = "out_of_scope"
	// NoteSkipped: files a walk swept in that the workspace could not
	// hold by themselves (over limits.max_file_bytes, not text,
	// unreadable), so they were passed over.
	NoteSkipped NoteKind = "skipped"
)

// Note is what an answer says about itself that is not a finding: which
// files went without a driver, and why, with what to install or how to
// stop asking; diagnostics left out; configuration that does not apply.
// A note never makes an answer incomplete or not ok (a driver status
// does), and it is never a diagnostic: findings are about the code, notes
// about the answer.
type Note struct {
	Kind NoteKind
	// Language is the language whose files the note is about; "" when
	// it is about no language's files.
	Language string
	// Driver is the entry of the language's list that no driver served,
	// as configured ("yamllint"); "" when there is none.
	Driver string
	// Files counts the files the note is about; Paths names the first
	// few of them (at most [NotePaths]), sorted.
	Files int
	Paths []string
	// Message is the whole note, for a person or a model: what went
	// without what, why, and what to do.
	Message string
}

// NotePaths is how many of its files a [Note] names.
const NotePaths = 3

// String is the note as one line: "coverage: MESSAGE".
func (n Note) String() string {
	switch n.Kind {
	case NoteMissing, NoteUntrusted, NoteNotConfigured, NoteNoLanguage, NoteNotLooked, NoteDependents, NoteOutOfScope, NoteSkipped:
		return "coverage: " + n.Message
	}
	return fmt.Sprintf("note: %s", n.Message)
}

// FewPaths is the first [NotePaths] of paths, for a Note's Paths.
func FewPaths(paths []string) []string {
	return append([]string(nil), paths[:min(len(paths), NotePaths)]...)
}
