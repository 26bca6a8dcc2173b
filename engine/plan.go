package engine

// This file defines [Plan] and its validation: a plan is checked whole,
// before anything is acquired or run, and a rejected plan changes nothing.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/jsonarg"
	"github.com/devbroker/devbroker/engine/text"
)

// Plan is what to acquire and the steps to run over it.
type Plan struct {
	// Paths names the files to acquire: literal paths relative to the
	// root, or globs with `*` (one segment) and `**` (any depth).
	Paths []string `json:"paths"`
	// Ops are the steps, run in order.
	Ops []Op `json:"ops"`
}

// Op is one step of a plan.
type Op struct {
	// Step is the step's name: read_lines, edit, apply_patch, write,
	// format, lint or check.
	Step string `json:"step"`
	// Args are the step's arguments.
	Args json.RawMessage `json:"args,omitempty"`
	// Label keys a read_lines result in DevResult.reads (default: the
	// path). Labels must be unique in a plan.
	Label string `json:"label,omitempty"`

	args any // the decoded arguments, set by validation
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
	}
	// PathsArgs are write's and format's arguments.
	PathsArgs struct {
		Paths []string `json:"paths,omitempty"`
		// Force (write only) writes, deletes and moves files that have
		// no write permission for their owner.
		Force bool `json:"force,omitempty"`
	}
	// LintArgs are lint's arguments.
	LintArgs struct {
		Paths []string `json:"paths,omitempty"`
		Fix   bool     `json:"fix,omitempty"`
	}
	// CheckArgs are check's arguments (none).
	CheckArgs struct{}
)

// Steps lists every step, in the seed's order.
var Steps = []string{"read_lines", "edit", "apply_patch", "write", "format", "lint", "check"}

// capabilityOf maps the capability steps to their kind.
var capabilityOf = map[string]Kind{"format": Format, "lint": Lint, "check": Check}

// ParsePlan decodes a plan from JSON. Unknown fields are errors. It does
// not validate the steps: see [Engine.Validate].
func ParsePlan(data []byte) (*Plan, error) {
	var p Plan
	if err := planJSON.Decode(data, &p); err != nil {
		return nil, fault.Wrap(fault.BadArgument, err, "the plan is not valid JSON of the form {\"paths\": [...], \"ops\": [{\"step\": ..., \"args\": {...}}]}")
	}
	return &p, nil
}

// planJSON decodes a plan and its steps' arguments strictly: exactly one
// JSON value, no unknown field, no trailing data.
var planJSON = jsonarg.Decoder{Noun: "argument"}

// Validate checks the whole plan before anything runs: step names,
// arguments and their types, empty edits and finds, bounds, duplicate read
// labels, and that format, lint and check have a capability. Every problem
// is listed in the error.
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
		if op.Step == "read_lines" {
			key := op.Label
			if key == "" {
				key = op.args.(*ReadLinesArgs).Path
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
	args := op.Args
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = []byte("{}")
	}
	if op.Label != "" && op.Step != "read_lines" {
		return fault.New(fault.BadArgument, "label is only for read_lines")
	}
	decode := func(v any) error {
		if err := planJSON.Decode(args, v); err != nil {
			return fault.Wrap(fault.BadArgument, err, "bad arguments")
		}
		return nil
	}
	switch op.Step {
	case "read_lines":
		var a ReadLinesArgs
		if err := decode(&a); err != nil {
			return err
		}
		if a.Path == "" {
			return fault.New(fault.BadArgument, "path is required")
		}
		if a.Start == nil {
			return fault.New(fault.BadArgument, "start is required (1-based line number)")
		}
		if *a.Start < 1 {
			return fault.New(fault.BadArgument, "start must be a positive integer (lines are 1-based), got %d", *a.Start)
		}
		if a.End != nil && *a.End < 1 {
			return fault.New(fault.BadArgument, "end must be a positive integer (lines are 1-based), got %d; omit it to read to the end of the file", *a.End)
		}
		if a.End != nil && *a.End < *a.Start {
			return fault.New(fault.BadArgument, "invalid range: end %d is before start %d; give end >= start, or omit end to read to the end of the file", *a.End, *a.Start)
		}
		op.args = &a
	case "edit":
		var a EditArgs
		if err := decode(&a); err != nil {
			return err
		}
		if a.Path == "" {
			return fault.New(fault.BadArgument, "path is required")
		}
		if len(a.Edits) == 0 {
			return fault.New(fault.BadArgument, "edits is empty: give at least one {find, replace}; an edit step with no edits is not a no-op")
		}
		for j, fr := range a.Edits {
			if fr.Find == nil || *fr.Find == "" {
				return fault.New(fault.BadArgument, "edit %d: find is empty; give the whole lines to replace", j+1)
			}
			if fr.Replace == nil {
				return fault.New(fault.BadArgument, "edit %d: replace is required (use \"\" to delete the lines)", j+1)
			}
			if err := text.CheckString(*fr.Replace); err != nil {
				return fault.Wrap(fault.BadArgument, err, "edit %d: replace is not text; a file is text (valid UTF-8 with no NUL byte): remove that byte", j+1)
			}
		}
		op.args = &a
	case "apply_patch":
		var a ApplyPatchArgs
		if err := decode(&a); err != nil {
			return err
		}
		if strings.TrimSpace(a.Patch) == "" {
			return fault.New(fault.BadArgument, "patch is required: a \"*** Begin Patch\" ... \"*** End Patch\" envelope")
		}
		op.args = &a
	case "write":
		var a PathsArgs
		if err := decode(&a); err != nil {
			return err
		}
		op.args = &a
	case "format", "lint", "check":
		var v any
		switch op.Step {
		case "lint":
			v = &LintArgs{}
		case "check":
			v = &CheckArgs{}
		default:
			v = &PathsArgs{}
		}
		if err := decode(v); err != nil {
			return err
		}
		if a, ok := v.(*PathsArgs); ok && a.Force {
			return fault.New(fault.BadArgument, "force is only for write: it lets a write change read-only files")
		}
		if e.caps == nil || !e.caps.Has(capabilityOf[op.Step]) {
			return e.unavailable(op.Step)
		}
		op.args = v
	case "":
		return fault.New(fault.BadArgument, "step is required; the steps are: %s", strings.Join(e.AvailableSteps(), ", "))
	default:
		return fault.New(fault.BadArgument, "unknown step %q; the steps are: %s", op.Step, strings.Join(e.AvailableSteps(), ", "))
	}
	return nil
}

// AvailableSteps lists the steps this engine can run: the workspace steps
// and the capability steps that have a working driver.
func (e *Engine) AvailableSteps() []string {
	var out []string
	for _, s := range Steps {
		if k, ok := capabilityOf[s]; ok && (e.caps == nil || !e.caps.Has(k)) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// unavailable is the error for a capability step with no working driver.
func (e *Engine) unavailable(step string) error {
	return fault.New(fault.Unavailable, "%s is unavailable: no working driver is configured for it (see `devbroker probe`); do not retry. Available steps: %s", step, strings.Join(e.AvailableSteps(), ", "))
}
