package mcp

// This file defines the dev_plan tool: a whole plan in one call.

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
)

// PlanParams are dev_plan's parameters.
type PlanParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files to acquire into the workspace before the steps run: paths relative to the root, or globs (* matches within one path segment, ** any depth). A literal path must exist on disk; a glob must match at least one file; a directory needs a glob (dir/**). A file the workspace already holds is compared with the disk: with no unwritten change it is read again if the disk changed (and leaves the workspace, failing as not_found, if it is gone); with unwritten changes it keeps them, and is listed in stale when the disk no longer holds what they were based on. When the workspace needs room (at most 500 files), files with no unwritten change leave, least recently used first. May be empty, e.g. for a plan that only adds files; then a format, lint or check without paths of its own works on the whole root (every file a configured language covers, testdata, vendor and version control passed over), as devbroker check does."`
	Ops   []PlanOp `json:"ops" jsonschema:"the steps, run in order. The whole plan is validated before anything runs; the first failing step stops the plan and the steps before it keep their effect on the workspace."`
}

// PlanOp is one step of a plan.
type PlanOp struct {
	Step  string          `json:"step" jsonschema:"the step to run"`
	Args  json.RawMessage `json:"args,omitempty" jsonschema:"the step's arguments (each step's are listed in the tool's schema)"`
	Label string          `json:"label,omitempty" jsonschema:"read_lines only: the key of its text in reads (default: the path); labels must be unique in a plan"`
}

// planDoc is dev_plan's description; %s is the list of steps available
// (see planSteps), with a note naming the ones that are not.
const planDoc = `Run steps in order over the session's workspace, an in-memory copy of the project's files, to change and check code before it reaches disk. paths (relative to the root, or globs like src/**/*.go) are read first; each op is {step, args}, as the tool of that name, but nothing is written before a write step:
%s
Changes stay in the workspace until write or discard. The plan is validated first; the first failing step stops it, earlier steps keep their effect. A lint or check with an error or an incomplete answer stops the plan: edit, lint, check, write writes only code that passed; rename, check, write is the safe rename. ok: every step ran, no error finding, every driver answered completely.`

// stepNotes are what dev_plan's description adds to a step's synopsis.
var stepNotes = map[engine.StepName]string{
	engine.StepReadLines: " (text in reads[label or path])",
}

// pointAt is the synopsis the language steps that point at code share.
const pointAt = "{path, symbol? | line+column?"

func (s *Server) planTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[PlanParams]()
	steps := s.availableSteps()
	op := in.Properties["ops"].Items
	setEnum(op, "step", steps)
	// args stay raw for their step's decoder, but are an object.
	op.Properties["args"] = &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{}}
	var synopses []string
	for _, st := range engine.Steps() {
		synopses = append(synopses, fmt.Sprintf("%s %s", st.Name, st.Synopsis))
	}
	op.Properties["args"].Description = "the step's arguments. " + strings.Join(synopses, "; ")
	lines := planSteps(s.root.Has)
	tool := &sdk.Tool{
		Name:         "dev_plan",
		Title:        "Edit, check and write in one plan",
		Description:  fmt.Sprintf(planDoc, strings.Join(lines, "\n")),
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	destructive(tool, false)
	return tool, s.handler("dev_plan", func(ctx context.Context, req *sdk.CallToolRequest, bs *broker.Session) *sdk.CallToolResult {
		var p PlanParams
		if err := decodeArgs(req.Params.Arguments, in, &p); err != nil {
			return devToolResult(failedResult("", err), bs.Pending(), true)
		}
		plan := p.plan()
		stop := s.progress(ctx, req, "dev_plan")
		r := bs.Run(ctx, plan)
		stop()
		return devToolResult(r, bs.Pending(), true)
	})
}

// planSteps lists the steps available for dev_plan's description: one
// line "- name synopsis" per step, except the language steps, which share
// one line (those that point at code grouped by their shared synopsis,
// their own arguments in brackets), then a note naming the steps that are
// unavailable.
func planSteps(has func(engine.Kind) bool) []string {
	var lines, pointers, others, missing []string
	for _, st := range engine.Steps() {
		rest, points := strings.CutPrefix(st.Synopsis, pointAt)
		switch {
		case st.Kind != "" && !has(st.Kind):
			missing = append(missing, string(st.Name))
		case !slices.Contains(engine.LanguageKinds(), st.Kind):
			lines = append(lines, fmt.Sprintf("- %s %s%s", st.Name, st.Synopsis, stepNotes[st.Name]))
		case points && rest == "}":
			pointers = append(pointers, string(st.Name))
		case points:
			pointers = append(pointers, fmt.Sprintf("%s (%s)", st.Name, strings.TrimSuffix(strings.TrimPrefix(rest, ", "), "}")))
		default:
			others = append(others, fmt.Sprintf("%s %s", st.Name, st.Synopsis))
		}
	}
	var language []string
	if len(pointers) > 0 {
		language = append(language, strings.Join(pointers, ", ")+" "+pointAt+"}")
	}
	if language = append(language, others...); len(language) > 0 {
		lines = append(lines, "- "+strings.Join(language, "; ")+" (symbol: a name or Type.Method)")
	}
	if len(missing) > 0 {
		lines = append(lines, "("+list(missing, "and")+" unavailable: no working driver was found; see probe.)")
	}
	return lines
}

// plan makes the engine's plan from the decoded parameters, each op's
// arguments decoded by its step: the request is decoded once.
func (p *PlanParams) plan() *engine.Plan {
	w := engine.PlanJSON{Paths: p.Paths, Ops: make([]engine.OpJSON, len(p.Ops))}
	if w.Paths == nil {
		w.Paths = []string{}
	}
	for i, o := range p.Ops {
		w.Ops[i] = engine.OpJSON{Step: o.Step, Args: o.Args, Label: o.Label}
	}
	return w.Plan()
}
