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
	// expanded with [SelectFiles]): like the files a glob of Paths
	// matches, they are swept in, not named (see [Request.Swept]). It is
	// never read from JSON.
	Swept []string
	// Notes are what the caller's walk said about the files it passed
	// over (files out of the project's own scope: [Selection.Notes]);
	// the result's coverage carries them. They are never read from JSON.
	Notes []Note
	// Ops are the steps, run in order.
	Ops []Op
}

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

// The argument types of each step.
type (
	// ReadLinesArgs are read_lines's arguments.
	ReadLinesArgs struct {
		Path  string `json:"path"`
		Start *int   `json:"start"`
		End   *int   `json:"end,omitempty"`
	}
	// EditArgs are edit's arguments.
	EditArgs struct {
		Path  string        `json:"path"`
		Edits []FindReplace `json:"edits"`
	}
	// FindReplace is one edit: whole lines find, replaced by replace.
	FindReplace struct {
		Find    *string `json:"find"`
		Replace *string `json:"replace"`
	}
	// ApplyPatchArgs are apply_patch's arguments.
	ApplyPatchArgs struct {
		Patch string `json:"patch"`

		parsed bool // the envelope, parsed once (see envelope)
		ops    []patch.FileOp
		err    error
	}
	// WriteArgs are write's arguments.
	WriteArgs struct {
		Paths []string `json:"paths,omitempty"`
		// Force writes, deletes and moves files that have no write
		// permission for their owner.
		Force bool `json:"force,omitempty"`
	}
	// FormatArgs are format's arguments.
	FormatArgs struct {
		Paths []string `json:"paths,omitempty"`
	}
	// LintArgs are lint's arguments.
	LintArgs struct {
		Paths []string `json:"paths,omitempty"`
		Fix   bool     `json:"fix,omitempty"`
	}
	// CheckArgs are check's arguments (none).
	CheckArgs struct{}
	// SearchArgs are search's arguments: Pattern is literal text, or with
	// Regex an RE2 expression; Paths (globs or paths) narrow the files.
	SearchArgs struct {
		Pattern string   `json:"pattern"`
		Regex   bool     `json:"regex,omitempty"`
		Paths   []string `json:"paths,omitempty"`
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
	Paths []string `json:"paths"`
	Ops   []OpJSON `json:"ops"`
}

// OpJSON is one op of a [PlanJSON].
type OpJSON struct {
	Step  string          `json:"step"`
	Args  json.RawMessage `json:"args,omitempty"`
	Label string          `json:"label,omitempty"`
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
// or to a struct that embeds one, and words a failure as [ParsePlan] does.
func DecodePlanJSON(data []byte, v any) error {
	if err := planJSON.Decode(data, v); err != nil {
		return fault.Wrap(fault.BadArgument, err, "the plan is not valid JSON of the form {\"paths\": [...], \"ops\": [{\"step\": ..., \"args\": {...}}]}")
	}
	return nil
}

// Plan makes the plan, decoding each op's arguments by its step's
// [Step.Decode]. An unknown step or arguments that do not decode are kept
// in the op, for [Engine.Validate] to report.
func (w *PlanJSON) Plan() *Plan {
	p := &Plan{Paths: w.Paths}
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

// planJSON decodes a plan and its steps' arguments strictly: exactly one
// JSON value, no unknown field, no trailing data.
var planJSON = jsonarg.Decoder{Noun: "argument"}

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
			return fault.New(fault.Unavailable, "%s is unavailable: no working driver serves it: %s. Install what is missing, then probe again (`devbroker probe`); until then do not retry. Available steps: %s", step, why, strings.Join(e.AvailableSteps(), ", "))
		}
	}
	return fault.New(fault.Unavailable, "%s is unavailable: no working driver is configured for it (see `devbroker probe`); do not retry. Available steps: %s", step, strings.Join(e.AvailableSteps(), ", "))
}
