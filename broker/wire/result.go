// Package wire holds the results devbroker sends on every surface — the
// command line (cmd/devbroker), the MCP server (broker/mcp) and the editor
// endpoint (broker/editor) — and the one mapping of engine and capability
// values to them.
//
// [DevResult], the answer to a plan or step, is made by
// [NewDevResult]; [FileResult], the answer of edit_file and its siblings,
// by [NewFileResult]; [ProbeResult] by [NewProbeResult]; [Error] (inside a
// [Failure]) is the failure of a call that is not a plan step. The types
// carry json tags, which are the field names every surface sends, and
// jsonschema tags, from which the MCP server generates its tools' output
// schemas.
//
// Invariant: one encoding per result, on every surface. Engine and
// capability result types carry no json tags, so they never reach a wire
// themselves (notags_test.go); the CLI's run, edit --json and probe
// --json, the MCP tools and the editor endpoint answer the same plan, the
// same edit_file calls and the same probe with the same JSON
// (cmd/devbroker/golden_test.go). A change here shows up on every
// surface, so the field names are frozen.
//
// What only one surface adds (the editor's apply, edit and reverted around
// a DevResult, its LSP WorkspaceEdit; MCP's text for a model) stays in that
// surface's package.
package wire

import (
	"fmt"
	"strings"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/merge"
)

// DevResult is a plan's or step's outcome (docs/verdicts.md).
type DevResult struct {
	OK      bool              `json:"ok" jsonschema:"true only when every step ran, no diagnostic is an error and every driver's answer is complete (status ok)"`
	Reads   map[string]string `json:"reads" jsonschema:"read_lines output by label (default: the path), lines joined with newlines"`
	Changes []Change          `json:"changes" jsonschema:"how the session's workspace differs from what was acquired"`
	Written []string          `json:"written" jsonschema:"paths written to disk by this call, in order"`
	// ChangedAfterWrite lists written paths that something outside the
	// broker changed on disk while the write went on.
	ChangedAfterWrite []string `json:"changed_after_write,omitempty" jsonschema:"written paths whose content on disk was no longer what this call wrote when it finished: something outside the broker changed them meanwhile. The write succeeded; read them again before relying on them"`
	// Merged lists the written files whose change on disk since they
	// were read the write merged with the session's change.
	Merged []Merged `json:"merged,omitempty" jsonschema:"written files that had changed on disk since they were read, where the write merged that change with yours because the two touch different lines: what was written holds both. Read the lines of the change on disk before editing near them"`
	// Formatted says what the format steps did with each file.
	Formatted   []Formatted  `json:"formatted,omitempty" jsonschema:"what format did with each file it formatted or left: how (whole, range: only the lines you changed; left: not formatted, reason says why) and the unified diff of what it changed, so you know the text you will edit next"`
	Diagnostics []Diagnostic `json:"diagnostics" jsonschema:"findings of lint and check, most severe first; they describe the workspace, including unwritten changes"`
	// PreExisting lists apart the findings the baseline had, where only
	// introduced errors stop the plan (fail_on introduced).
	PreExisting []Diagnostic `json:"pre_existing,omitempty" jsonschema:"with fail_on introduced: the findings the content before the change had already, listed apart; they do not stop the plan or make ok false"`
	// Baseline counts the findings compared with their baseline.
	Baseline *Baseline      `json:"baseline,omitempty" jsonschema:"when lint or check compared its findings with the content before the change: how many the change introduced and how many were there before"`
	Drivers  []DriverStatus `json:"drivers,omitempty" jsonschema:"per driver, whether its part of the answer is complete"`
	// Coverage says what the answer did not cover and why: notes, not
	// findings.
	Coverage []Note `json:"coverage,omitempty" jsonschema:"what the answer did not cover and why (files no driver looked at: their language lists none, no language covers them, or a default tool is not installed, with how to install it or go without it), files a walk passed over (out of the project's own scope, too large), diagnostics left out, configuration that does not apply until the root is trusted. Notes, never findings: they do not make the answer not ok"`
	// Projects say, in a repository of several projects, which project
	// each file belongs to and which servers answered for it.
	Projects []ProjectAnswer `json:"projects,omitempty" jsonschema:"when the files belong to projects below the root (a monorepo): each project (the directory of the nearest go.mod, go.work, package.json, tsconfig.json, pyproject.toml, pyrightconfig.json, Cargo.toml or compile_commands.json above them), how many of the files belong to it, and the language servers that answered for them with the directory each runs in (and the commands run per project, such as go build and go vet in each Go module, with the directory each ran in). A file belongs to the nearest listed project above it. Absent when everything is one project at the root"`
	// Answers are the language and search steps' answers.
	Answers []Answer `json:"answers,omitempty" jsonschema:"the answers of definition, references, hover, symbols, rename, code_actions and search steps, in plan order"`
	// Unwritten lists the paths whose workspace changes are not on disk
	// after the call (on the editor endpoint, unsaved buffers among them).
	Unwritten []string   `json:"unwritten" jsonschema:"paths whose workspace changes are not on disk yet after this call"`
	Error     *StepError `json:"error,omitempty" jsonschema:"the failing step, if one failed"`
	// Stale lists files whose unwritten changes are based on content the
	// disk no longer holds.
	Stale []Stale `json:"stale,omitempty" jsonschema:"files with unwritten changes that someone else changed on disk since they were read: write refuses them until they are discarded"`
}

// Stale is a file whose unwritten change is based on content the disk no
// longer holds.
type Stale struct {
	Path         string `json:"path" jsonschema:"the path on disk"`
	Disk         string `json:"disk" jsonschema:"what happened on disk: changed, deleted, or created (where the workspace adds the file)"`
	BaseRevision string `json:"base_revision,omitempty" jsonschema:"the revision the workspace read, which its change is based on; empty when the workspace created the file"`
	DiskRevision string `json:"disk_revision,omitempty" jsonschema:"the revision on disk now; empty when the file is gone"`
	NotMerged    string `json:"not_merged,omitempty" jsonschema:"why the write did not merge the change on disk with yours: the lines both changes touch (of the content you read), adjacent lines counting as touching"`
}

// Formatted is what a format step did with one file.
type Formatted struct {
	Path   string `json:"path"`
	How    string `json:"how" jsonschema:"whole (the whole file formatted), range (only the lines you changed, and what the formatter takes with them), or left (not formatted)"`
	Driver string `json:"driver,omitempty" jsonschema:"the formatter"`
	Reason string `json:"reason,omitempty" jsonschema:"why the file was left, or its diff left out"`
	Diff   string `json:"diff,omitempty" jsonschema:"the unified diff of what formatting changed (a/PATH before, b/PATH after); empty when it changed nothing"`
}

// Line is the entry's first line of text: "formatted a.go (range,
// prettier)" or "left a.go (gofumpt): why".
func (f Formatted) Line() string {
	who := f.Driver
	if who != "" {
		who = ", " + who
	}
	if f.How == "left" {
		return fmt.Sprintf("format left %s as it was (%s): %s", f.Path, strings.TrimPrefix(who, ", "), f.Reason)
	}
	line := fmt.Sprintf("formatted %s (%s%s)", f.Path, f.How, who)
	if f.Diff == "" && f.Reason == "" {
		line += ": no change"
	}
	if f.Reason != "" {
		line += ": " + f.Reason
	}
	return line
}

// Merged is a written file whose change on disk since it was read the
// write merged with the session's change.
type Merged struct {
	Path         string      `json:"path"`
	BaseRevision string      `json:"base_revision" jsonschema:"the revision the session read, which both changes start from"`
	DiskRevision string      `json:"disk_revision" jsonschema:"the revision the write found on disk"`
	Revision     string      `json:"revision" jsonschema:"the revision written, holding both changes"`
	Ours         []MergePart `json:"ours" jsonschema:"your changes"`
	Theirs       []MergePart `json:"theirs" jsonschema:"the changes made on disk"`
}

// MergePart is one change of a merge: lines base_start..base_end of the
// content read became lines start..end of the written file (1-based,
// inclusive; an end one less than its start is no line: an insertion,
// or a deletion, before that line).
type MergePart struct {
	BaseStart int `json:"base_start" jsonschema:"first line of the content read that the change replaced (1-based)"`
	BaseEnd   int `json:"base_end" jsonschema:"last line it replaced; base_start-1 when it only inserted"`
	Start     int `json:"start" jsonschema:"first line of the written file the change put there"`
	End       int `json:"end" jsonschema:"last line it put there; start-1 when it only deleted"`
}

// String is the part as text: "lines 12-14 (were 12-13)", "deleted
// lines 40-41 (now before line 42)".
func (p MergePart) String() string {
	base := merge.Range{Start: p.BaseStart, End: p.BaseEnd}
	now := merge.Range{Start: p.Start, End: p.End}
	switch {
	case now.Empty():
		return fmt.Sprintf("deleted lines %s (now %s)", base, now)
	case base.Empty():
		return fmt.Sprintf("lines %s (inserted)", now)
	}
	return fmt.Sprintf("lines %s (were %s)", now, base)
}

// Line is the merge as one line of text, as every text surface prints
// it.
func (m Merged) Line() string {
	return fmt.Sprintf("merged: %s had changed on disk (%s, read as %s); your change and that one touch different lines, so both were written (%s): yours at %s; on disk at %s", m.Path, m.DiskRevision, m.BaseRevision, m.Revision, parts(m.Ours), parts(m.Theirs))
}

func parts(ps []MergePart) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
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
// Unicode characters (on every wire, whatever its own position encoding).
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
	// AlsoFrom names the other drivers that reported the same finding.
	AlsoFrom []string `json:"also_from,omitempty" jsonschema:"the other drivers that reported the same finding on the same line"`
	// Related are the other places the finding involves.
	Related []Related `json:"related,omitempty" jsonschema:"the other places the finding involves, e.g. the other declaration of a name declared twice"`
	// Introduced says whether the change introduced the finding.
	Introduced *bool `json:"introduced,omitempty" jsonschema:"over changed content: true when the change introduced the finding, false when the content before the change had it already"`
}

// Baseline counts the findings of lint and check answers that were
// compared with the content before the change.
type Baseline struct {
	Introduced  int    `json:"introduced" jsonschema:"findings the change introduced"`
	PreExisting int    `json:"pre_existing" jsonschema:"findings the content before the change had already"`
	Since       string `json:"since,omitempty" jsonschema:"the revision compared with, when it is not the content before the session's changes"`
}

// Related is another place a diagnostic involves. A place under the root
// is its workspace path, 1-based line and character column; a place in a
// file outside the root is its absolute path, with the column as the tool
// counts it.
type Related struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message" jsonschema:"what is at that place, e.g. other declaration of F"`
}

// Fix is a change a driver offers for a diagnostic.
type Fix struct {
	Title string    `json:"title"`
	Edits []FixEdit `json:"edits,omitempty"`
}

// FixEdit replaces a range of a file; positions as in [Diagnostic].
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
	Driver   string `json:"driver" jsonschema:"the driver; for an unchecked status, the entry of the language's list for the step that no working driver served, as configured (for format, the whole list)"`
	Language string `json:"language,omitempty" jsonschema:"for an unchecked status, the language whose files went without that entry"`
	Status   string `json:"status" jsonschema:"ok, timeout, crashed, not_installed, indexing or unchecked; only ok is complete and current, and any other makes the answer not ok"`
	Message  string `json:"message,omitempty" jsonschema:"why a status is not ok (with the install hint for unchecked), or which driver a fallback served in place of"`
}

// Note is what an answer says about itself that is not a finding.
type Note struct {
	Kind     string   `json:"kind" jsonschema:"missing (files a walk swept in went without a default tool that is not installed), untrusted (files a walk swept in went without a default tool that runs only in a trusted root), not_configured (their language lists no tool for the step), no_language (no configured language covers them), not_looked (a tool did not look at files it was given), dependents (the files that import a changed file may not all have been checked), omitted (diagnostics over the limit left out), left_disk (a file left the disk and the workspace), config (configuration that does not apply), out_of_scope (a walk of the whole root passed over files the project's own configuration leaves out: pyright's include, tsconfig.json's files), skipped (a walk passed over files over limits.max_file_bytes or not text)"`
	Language string   `json:"language,omitempty" jsonschema:"the language whose files the note is about"`
	Driver   string   `json:"driver,omitempty" jsonschema:"the entry of the language's list that no tool served, as configured; for out_of_scope and a project file's warning, the driver whose project configuration it is"`
	Files    int      `json:"files,omitempty" jsonschema:"how many files the note is about"`
	Paths    []string `json:"paths,omitempty" jsonschema:"the first few of those files"`
	Message  string   `json:"message" jsonschema:"the whole note: what went without what, why, and what to do"`
}

// ProjectAnswer is one project of the files an answer covers.
type ProjectAnswer struct {
	Root    string          `json:"root" jsonschema:"the project's directory, relative to the root (. for the root itself)"`
	Files   int             `json:"files" jsonschema:"how many of the answer's files belong to it"`
	Paths   []string        `json:"paths,omitempty" jsonschema:"the first few of those files"`
	Servers []ProjectServer `json:"servers" jsonschema:"the language servers (and commands run per project) that answered for its files"`
}

// ProjectServer is a language server that answered for a project.
type ProjectServer struct {
	Driver string `json:"driver" jsonschema:"the server's driver, as configured"`
	Root   string `json:"root" jsonschema:"the directory the server runs in and was told is its workspace, relative to the root: the project's own, or . for one server of the whole root (gopls, which handles several modules; or a project past the driver's max_project_servers). For a command, the directory it ran in"`
	// Command says the driver is a command run in Root, not a server.
	Command bool `json:"command,omitempty" jsonschema:"true when the driver is a command run in root for the project's files (go build, go vet in each Go module), not a language server"`
}

// Line is the project as one line of text, as the text surfaces print
// it (engine.Project.String).
func (p ProjectAnswer) Line() string {
	ep := engine.Project{Root: p.Root, Files: p.Files, Paths: p.Paths}
	for _, s := range p.Servers {
		ep.Servers = append(ep.Servers, engine.ProjectServer{Driver: s.Driver, Root: s.Root, Command: s.Command})
	}
	return ep.String()
}

// Line is the note as one line of text, as every text surface prints it:
// "coverage: MESSAGE" for files that went without a driver, "note:
// MESSAGE" for the rest.
func (n Note) Line() string {
	return engine.Note{Kind: engine.NoteKind(n.Kind), Message: n.Message}.String()
}

// StepError is the failure of a step or of the call.
type StepError struct {
	Step      int      `json:"step" jsonschema:"1-based index of the failing step; 0 for the plan itself"`
	Name      string   `json:"name" jsonschema:"the step's name; empty for validation, acquire for acquisition"`
	Kind      string   `json:"kind" jsonschema:"bad_argument, not_found, ambiguous, no_match, conflict, bounds, unavailable, io, timeout, internal; or, for a format, lint or check step that failed on its answer: diagnostics (an error diagnostic), timeout, crashed, indexing or unchecked (an incomplete answer)"`
	Message   string   `json:"message"`
	Retryable bool     `json:"retryable" jsonschema:"whether the identical call may succeed later; false means change the call"`
	Written   []string `json:"written,omitempty" jsonschema:"what a failed write had written before it failed"`
	Temp      string   `json:"temp,omitempty" jsonschema:"a rename swap's temporary file left on disk"`
}

// Options select what [NewDevResult] puts on a wire. The zero value maps
// everything.
type Options struct {
	// OmitFixes leaves out the diagnostics' fixes. The editor endpoint sets
	// it: its protocol (docs/editor-protocol.md) has no fixes.
	OmitFixes bool
}

// NewDevResult maps an engine Result. unwritten lists the paths whose
// workspace changes are not on disk after the call. Lists and maps are
// never nil, so they encode as [] and {}; drivers and error are left out
// when there are none.
func NewDevResult(r *engine.Result, unwritten []string, opts Options) *DevResult {
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
	out.ChangedAfterWrite = append(out.ChangedAfterWrite, r.ChangedAfterWrite...)
	for _, f := range r.Formatted {
		out.Formatted = append(out.Formatted, Formatted{Path: f.Path, How: string(f.How), Driver: f.Driver, Reason: f.Reason, Diff: f.Diff})
	}
	for _, m := range r.Merged {
		out.Merged = append(out.Merged, Merged{
			Path: m.Path, BaseRevision: m.BaseRevision, DiskRevision: m.DiskRevision, Revision: m.Revision,
			Ours: mergeParts(m.Ours), Theirs: mergeParts(m.Theirs),
		})
	}
	for _, d := range r.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, diagnostic(d, opts))
	}
	for _, d := range r.PreExisting {
		out.PreExisting = append(out.PreExisting, diagnostic(d, opts))
	}
	if b := r.Baseline; b != nil {
		out.Baseline = &Baseline{Introduced: b.Introduced, PreExisting: b.PreExisting, Since: b.Since}
	}
	for _, d := range r.Drivers {
		out.Drivers = append(out.Drivers, DriverStatus{Driver: d.Driver, Language: d.Language, Status: string(d.Status), Message: d.Message})
	}
	for _, n := range r.Coverage {
		out.Coverage = append(out.Coverage, Note{Kind: string(n.Kind), Language: n.Language, Driver: n.Driver, Files: n.Files, Paths: n.Paths, Message: n.Message})
	}
	for _, p := range r.Projects {
		wp := ProjectAnswer{Root: p.Root, Files: p.Files, Paths: p.Paths}
		for _, sv := range p.Servers {
			wp.Servers = append(wp.Servers, ProjectServer{Driver: sv.Driver, Root: sv.Root, Command: sv.Command})
		}
		out.Projects = append(out.Projects, wp)
	}
	for _, a := range r.Answers {
		out.Answers = append(out.Answers, answer(a))
	}
	out.Unwritten = append(out.Unwritten, unwritten...)
	for _, st := range r.Stale {
		out.Stale = append(out.Stale, Stale{Path: st.Path, Disk: st.Disk, BaseRevision: st.BaseRevision, DiskRevision: st.DiskRevision, NotMerged: st.NotMerged})
	}
	if e := r.Error; e != nil {
		out.Error = &StepError{
			Step: e.Step, Name: e.Name, Kind: string(e.Kind), Message: e.Message,
			Retryable: e.Retryable, Written: e.Written, Temp: e.Temp,
		}
	}
	return out
}

// String is the diagnostic as every text surface prints it: the one form,
// [engine.Diagnostic.String].
func (d Diagnostic) String() string {
	ed := engine.Diagnostic{Path: d.Path, Line: d.Line, Column: d.Column, Severity: engine.Severity(d.Severity), Source: d.Source, Code: d.Code, Message: d.Message, AlsoFrom: d.AlsoFrom}
	for _, r := range d.Related {
		ed.Related = append(ed.Related, engine.Related{Path: r.Path, Line: r.Line, Column: r.Column, Message: r.Message})
	}
	return ed.String()
}

func mergeParts(ps []merge.Part) []MergePart {
	out := make([]MergePart, len(ps))
	for i, p := range ps {
		out[i] = MergePart{BaseStart: p.Base.Start, BaseEnd: p.Base.End, Start: p.Lines.Start, End: p.Lines.End}
	}
	return out
}

func diagnostic(d engine.Diagnostic, opts Options) Diagnostic {
	out := Diagnostic{
		Path: d.Path, Line: d.Line, Column: d.Column, EndLine: d.EndLine, EndColumn: d.EndColumn,
		Severity: string(d.Severity), Source: d.Source, Code: d.Code, Message: d.Message, AlsoFrom: d.AlsoFrom,
	}
	if d.Introduced != nil {
		out.Introduced = new(*d.Introduced)
	}
	for _, r := range d.Related {
		out.Related = append(out.Related, Related{Path: r.Path, Line: r.Line, Column: r.Column, Message: r.Message})
	}
	if opts.OmitFixes {
		return out
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
