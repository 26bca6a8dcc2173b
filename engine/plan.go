package engine

// This file defines [Plan] and its validation: a plan is checked whole,
// before anything is acquired or run, and a rejected plan changes nothing.

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/jsonarg"
	"github.com/devbroker/devbroker/engine/patch"
)

// Plan is what to acquire and the steps to run over it. [ParsePlan] makes
// one from JSON; a plan made in Go is checked the same way when it runs.
type Plan struct {
	// Paths names the files to acquire: literal paths relative to the
	// root, or globs with `*` (one segment) and `**` (any depth).
	Paths []string
	// Swept lists the paths of Paths that the caller found by a walk
	// rather than was told (the command line's directories and globs,
	// expanded with [Select]): like the files a glob of Paths
	// matches, they are swept in, not named (see [Request.Swept]). It is
	// never read from JSON.
	Swept []string
	// Notes are what the caller's walk said about the files it passed
	// over (files out of the project's own scope: [Selection.Notes]);
	// the result's coverage carries them. They are never read from JSON.
	Notes []Note
	// Ops are the steps, run in order.
	Ops []Op
	// FailOn says which error findings stop the plan at a lint or check
	// step: [FailOnAny] (or "", which leaves it to each language's
	// configuration, whose default is any) or [FailOnIntroduced], only
	// those the plan's session introduced (see baseline.go).
	FailOn string
}

// The values of [Plan.FailOn] and of a language's fail_on.
const (
	// FailOnAny: every error finding stops the plan.
	FailOnAny = "any"
	// FailOnIntroduced: only the error findings the change introduced
	// stop the plan; those its baseline had are listed apart.
	FailOnIntroduced = "introduced"
)

// Op is one step of a plan.
type Op struct {
	// Step is the step's name (see [Steps]).
	Step StepName
	// Args are the step's typed arguments; nil stands for the step's empty
	// arguments ({}).
	Args Args
	// Label keys a read_lines result in DevResult.reads (default: the
	// path). Labels must be unique in a plan.
	Label string

	err error // why ParsePlan refused the arguments; Validate reports it
}

// The argument types of each step. Their tags are the one description
// of each argument (see [Step.Spec]): the json tag its name and, with
// omitempty, that it may be left out; the jsonschema tag its one-line
// description, which the MCP tools' input schemas and the command line's
// flags give.
type (
	// ReadLinesArgs are read_lines's arguments.
	ReadLinesArgs struct {
		Path  string `json:"path" jsonschema:"the file, relative to the root (e.g. src/main.go). Read from the workspace with its unwritten changes; a file not yet in it is read from disk first, and one with no unwritten change is read again if the disk changed."`
		Start *int   `json:"start" jsonschema:"the first line to read, 1-based"`
		End   *int   `json:"end,omitempty" jsonschema:"the last line to read, inclusive; past the end of the file clamps to it; omit to read to the end"`
	}
	// EditArgs are edit's arguments.
	EditArgs struct {
		Path  string        `json:"path" jsonschema:"the file to edit, relative to the root (e.g. src/main.go)"`
		Edits []FindReplace `json:"edits" jsonschema:"the replacements, applied in order with one forward cursor: each find must lie after the previous one. At least one."`
	}
	// FindReplace is one edit: whole lines find, replaced by replace.
	FindReplace struct {
		Find    *string `json:"find" jsonschema:"one or more WHOLE lines copied exactly from the file (read them first), newline-separated; must match exactly once after the previous edit. A fragment of a line never matches. Not empty."`
		Replace *string `json:"replace" jsonschema:"the lines that replace them; an empty string deletes the matched lines"`
	}
	// ApplyPatchArgs are apply_patch's arguments.
	ApplyPatchArgs struct {
		Patch string `json:"patch" jsonschema:"a '*** Begin Patch' envelope: '*** Add File: path' (then '+' lines), '*** Delete File: path', '*** Update File: path' with optional '*** Move to: path' and hunks opened by '@@' (optionally followed by a line of the file as a hint) whose lines start with ' ' (context), '-' (remove) or '+' (add), optional '*** End of File', then '*** End Patch'. Paths are relative to the root. A unified diff is refused."`

		parsed bool // the envelope, parsed once (see envelope)
		ops    []patch.FileOp
		err    error
	}
	// WriteArgs are write's arguments.
	WriteArgs struct {
		Paths []string `json:"paths,omitempty" jsonschema:"write only these paths (relative to the root) or globs; omit to write every unwritten change. A path or glob that matches no unwritten change is an error."`
		// Force writes, deletes and moves files that have no write
		// permission for their owner.
		Force bool `json:"force,omitempty" jsonschema:"also overwrite, delete or move files whose owner has no write permission (mode such as 0444); a written file keeps its mode. Without it the write is refused before anything is written, naming each such file and its mode."`
		// Merge, when false, refuses a file changed on disk since it
		// was read instead of merging the two changes when they touch
		// different lines; default true.
		Merge *bool `json:"merge,omitempty" jsonschema:"false: refuse a file changed on disk since it was read instead of merging the change there with yours (default true: merged when the two touch different lines)"`
	}
	// FormatArgs are format's arguments.
	FormatArgs struct {
		Paths []string `json:"paths,omitempty" jsonschema:"files or globs (relative to the root) to format, read from disk first if needed; omit to format the whole root: every file a configured language covers (testdata, vendor and version control passed over), with every file the workspace holds"`
		// Only "changed" formats just the lines this session changed
		// (against the disk, or edit_file's undo base), leaving files it
		// cannot format so and saying why.
		Only string `json:"only,omitempty" jsonschema:"changed: format only the lines this session changed (unwritten, or written by edit_file), by range where the formatter can; a file that cannot be is left, saying why"`
	}
	// LintArgs are lint's arguments.
	LintArgs struct {
		Paths []string `json:"paths,omitempty" jsonschema:"files or globs (relative to the root) to lint, read from disk first if needed; omit to lint the whole root: every file a configured language covers (testdata, vendor and version control passed over), with every file the workspace holds"`
		Fix   bool     `json:"fix,omitempty" jsonschema:"apply the fixes the linters offer"`
	}
	// CheckArgs are check's arguments (none).
	CheckArgs struct{}
	// checkCall is check called on its own (see [Step.CallSpec]): its
	// arguments, and the files to read into the workspace first.
	checkCall struct {
		CheckArgs
		Paths []string `json:"paths,omitempty" jsonschema:"files or globs (relative to the root) to read into the workspace before checking, e.g. the files you changed or **/*.go; omit to check the whole root with what the workspace holds"`
	}
	// SearchArgs are search's arguments: Pattern is literal text, or with
	// Regex an RE2 expression; Paths (globs or paths) narrow the files.
	SearchArgs struct {
		Pattern string   `json:"pattern" jsonschema:"the text to find, exactly as written (case matters); with regex, an RE2 regular expression"`
		Regex   bool     `json:"regex,omitempty" jsonschema:"pattern is an RE2 regular expression (no lookaround or backreferences; (?i) ignores case)"`
		Paths   []string `json:"paths,omitempty" jsonschema:"only files at or under these paths, or matching these globs (* within a path segment, ** any depth), relative to the root; omit for the whole root"`
	}
)

// Step is read_lines.
func (*ReadLinesArgs) Step() StepName { return StepReadLines }

// Step is edit.
func (*EditArgs) Step() StepName { return StepEdit }

// Step is apply_patch.
func (*ApplyPatchArgs) Step() StepName { return StepApplyPatch }

// Step is write.
func (*WriteArgs) Step() StepName { return StepWrite }

// Step is format.
func (*FormatArgs) Step() StepName { return StepFormat }

// Step is lint.
func (*LintArgs) Step() StepName { return StepLint }

// Step is check.
func (*CheckArgs) Step() StepName { return StepCheck }

// Step is search.
func (*SearchArgs) Step() StepName { return StepSearch }

// PlanJSON is a plan as JSON: the one form in which every surface
// receives a plan. Its ops' arguments stay raw until [PlanJSON.Plan]
// decodes each by its step. A surface whose request holds a plan beside
// fields of its own embeds PlanJSON in its request's struct and decodes
// the request once, with [DecodePlanJSON].
type PlanJSON struct {
	Paths  []string `json:"paths,omitempty" jsonschema:"files to read into the workspace before the steps run: paths relative to the root, or globs (* within one path segment, ** any depth; a directory is dir/**). A path must exist and a glob must match. A file the workspace holds with no unwritten change is read again if the disk changed; one with unwritten changes keeps them, listed in stale if the disk changed under them. At most 500 files: unchanged ones leave to make room. May be empty: then format, lint and check work on the whole root."`
	Ops    []OpJSON `json:"ops" jsonschema:"the steps, run in order"`
	FailOn string   `json:"fail_on,omitempty" enum:"any,introduced" jsonschema:"introduced: only errors the session introduced stop it (older: pre_existing)"`
}

// OpJSON is one op of a [PlanJSON].
type OpJSON struct {
	Step  string          `json:"step" jsonschema:"the step to run"`
	Args  json.RawMessage `json:"args,omitempty" jsonschema:"the step's arguments, as the tool's description lists them"`
	Label string          `json:"label,omitempty" jsonschema:"read_lines only: the key of its text in reads (default: the path), unique in a plan"`
}

// ParsePlan decodes a plan from JSON, each step's arguments by its step's
// [Step.Decode]: this is the one place a plan's JSON becomes typed. Unknown
// fields are errors. Problems with the steps (an unknown step, bad
// arguments) do not fail ParsePlan: [Engine.Validate] reports them, with
// every other problem of the plan.
func ParsePlan(data []byte) (*Plan, error) {
	var w PlanJSON
	if err := DecodePlanJSON(data, &w); err != nil {
		return nil, err
	}
	return w.Plan(), nil
}

// DecodePlanJSON decodes data strictly into v, a pointer to a [PlanJSON]
// or to a struct that embeds one, through the front end of v's
// [jsonarg.Spec] (the one every step's arguments go through), and words a
// failure as [ParsePlan] does.
func DecodePlanJSON(data []byte, v any) error {
	if err := jsonarg.SpecOf(v).Decode(data, v); err != nil {
		return fault.Wrap(fault.BadArgument, err, "the plan is not valid JSON of the form {\"paths\": [...], \"ops\": [{\"step\": ..., \"args\": {...}}]}")
	}
	return nil
}

// Plan makes the plan, decoding each op's arguments by its step's
// [Step.Decode]. An unknown step or arguments that do not decode are kept
// in the op, for [Engine.Validate] to report.
func (w *PlanJSON) Plan() *Plan {
	p := &Plan{Paths: w.Paths, FailOn: w.FailOn}
	if w.Ops != nil {
		p.Ops = make([]Op, len(w.Ops))
	}
	for i, o := range w.Ops {
		op := Op{Step: StepName(o.Step), Label: o.Label}
		if s, ok := LookupStep(op.Step); ok {
			op.Args, op.err = s.Decode(o.Args)
		}
		p.Ops[i] = op
	}
	return p
}

// Validate checks the whole plan before anything runs: step names,
// arguments and their types, empty edits and finds, bounds, duplicate read
// labels, and that format, lint and check have a capability. Every problem
// is listed in the error. It sets each nil Args to its step's empty
// arguments.
func (e *Engine) Validate(p *Plan) error {
	var problems []string
	kind := fault.Unavailable // until a problem of another kind shows
	labels := map[string]int{}
	for i := range p.Ops {
		op := &p.Ops[i]
		where := fmt.Sprintf("step %d (%s)", i+1, op.Step)
		if err := e.validateOp(op); err != nil {
			problems = append(problems, where+": "+err.Error())
			if fault.KindOf(err) != fault.Unavailable {
				kind = fault.BadArgument
			}
			continue
		}
		if a, ok := op.Args.(*ReadLinesArgs); ok {
			key := op.Label
			if key == "" {
				key = a.Path
			}
			if j, dup := labels[key]; dup {
				problems = append(problems, fmt.Sprintf("%s: read label %q is already used by step %d; give each read_lines a distinct label", where, key, j))
				kind = fault.BadArgument
			}
			labels[key] = i + 1
		}
	}
	switch p.FailOn {
	case "", FailOnAny, FailOnIntroduced:
	default:
		problems = append(problems, fmt.Sprintf("fail_on: %q is not a choice: give \"any\" (every error finding stops the plan, the default) or \"introduced\" (only errors the change introduced do)", p.FailOn))
		kind = fault.BadArgument
	}
	for _, pat := range p.Paths {
		if pat == "" {
			problems = append(problems, "paths: an empty path; give paths relative to the root, or globs")
			kind = fault.BadArgument
		}
	}
	if len(problems) > 0 {
		return fault.New(kind, "the plan was rejected and nothing was run:\n- %s", strings.Join(problems, "\n- "))
	}
	return nil
}

func (e *Engine) validateOp(op *Op) error {
	if op.Label != "" && op.Step != StepReadLines {
		return fault.New(fault.BadArgument, "label is only for read_lines")
	}
	s, ok := LookupStep(op.Step)
	switch {
	case !ok && op.Step == "":
		return fault.New(fault.BadArgument, "step is required; the steps are: %s", strings.Join(e.AvailableSteps(), ", "))
	case !ok:
		return fault.New(fault.BadArgument, "unknown step %q; the steps are: %s", op.Step, strings.Join(e.AvailableSteps(), ", "))
	case op.err != nil:
		return op.err
	}
	a, err := s.Check(op.Args)
	if err != nil {
		return err
	}
	op.Args = a
	if s.Kind != "" && (e.caps == nil || !e.caps.Has(s.Kind)) {
		return e.unavailable(string(op.Step))
	}
	return nil
}

// AvailableSteps lists the steps this engine can run: the workspace steps
// and the capability steps that have a working driver.
func (e *Engine) AvailableSteps() []string { return AvailableSteps(e.caps) }

// unavailable is the error for a capability step with no working driver:
// why, when the capabilities can say (see [Explainer]).
func (e *Engine) unavailable(step string) error {
	if x, ok := e.caps.(Explainer); ok {
		st, _ := LookupStep(StepName(step))
		if why := x.Unavailable(st.Kind); why != "" {
			return fault.New(fault.Unavailable, "%s is unavailable: no working driver serves it: %s. Do what that says (install what is missing, or trust the root), then probe again (`devbroker probe`); until then do not retry. Available steps: %s", step, why, strings.Join(e.AvailableSteps(), ", "))
		}
	}
	return fault.New(fault.Unavailable, "%s is unavailable: no working driver is configured for it (see `devbroker probe`); do not retry. Available steps: %s", step, strings.Join(e.AvailableSteps(), ", "))
}
