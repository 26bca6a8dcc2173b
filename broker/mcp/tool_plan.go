package mcp

// This file defines the dev_plan tool: a whole plan in one call.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
)

// PlanParams are dev_plan's parameters.
type PlanParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"files to acquire into the workspace before the steps run: paths relative to the root, or globs (* matches within one path segment, ** any depth). A literal path must exist on disk; a glob must match at least one file; a directory needs a glob (dir/**). A file the workspace already holds is compared with the disk: with no unwritten change it is read again if the disk changed (and leaves the workspace, failing as not_found, if it is gone); with unwritten changes it keeps them, and is listed in stale when the disk no longer holds what they were based on. When the workspace needs room (at most 500 files), files with no unwritten change leave, least recently used first. May be empty, e.g. for a plan that only adds files."`
	Ops   []PlanOp `json:"ops" jsonschema:"the steps, run in order. The whole plan is validated before anything runs; the first failing step stops the plan and the steps before it keep their effect on the workspace."`
}

// PlanOp is one step of a plan.
type PlanOp struct {
	Step  string          `json:"step" jsonschema:"the step to run"`
	Args  json.RawMessage `json:"args,omitempty" jsonschema:"the step's arguments (each step's are listed in the tool's schema)"`
	Label string          `json:"label,omitempty" jsonschema:"read_lines only: the key of its text in reads (default: the path); labels must be unique in a plan"`
}

// planDoc is dev_plan's description; %s is the list of steps available,
// each "- name synopsis", with a note naming the ones that are not.
const planDoc = `Run several steps in one call over the session's workspace, an in-memory copy of the project's files, so code can be changed and checked before anything reaches disk. paths (relative to the root, or globs such as src/**/*.go) are read from disk first; then ops run in order, each {step, args}. A step works as the tool of the same name, except that nothing reaches disk until a write step:
%s
Unwritten changes stay in the workspace across calls until write or discard. The whole plan is validated before it runs; the first step that fails stops it, and the steps before keep their effect in the workspace. A lint or check that finds an error, or whose answer is incomplete, fails and stops the plan: edit, lint, check, write writes only code that passed; edit, write, check writes first and reports after. ok is true only when every step ran, no finding is an error and every driver answered completely.`

// stepNotes are what dev_plan's description adds to a step's synopsis.
var stepNotes = map[engine.StepName]string{
	engine.StepReadLines: " (the text lands in reads[label or path])",
	engine.StepWrite:     " (the workspace's unwritten changes)",
	engine.StepCheck:     " (checks what the workspace holds)",
}

func (s *Server) planTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[PlanParams]()
	steps := s.availableSteps()
	op := in.Properties["ops"].Items
	setEnum(op, "step", steps)
	// args stay raw for their step's decoder, but are an object.
	op.Properties["args"] = &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{}}
	var synopses, lines, missing []string
	for _, st := range engine.Steps() {
		synopses = append(synopses, fmt.Sprintf("%s %s", st.Name, st.Synopsis))
		if st.Kind == "" || s.root.Has(st.Kind) {
			lines = append(lines, fmt.Sprintf("- %s %s%s", st.Name, st.Synopsis, stepNotes[st.Name]))
		} else {
			missing = append(missing, string(st.Name))
		}
	}
	op.Properties["args"].Description = "the step's arguments. " + strings.Join(synopses, "; ")
	if len(missing) > 0 {
		lines = append(lines, "("+list(missing, "and")+" unavailable: no working driver was found; see probe.)")
	}
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
			return devToolResult(failedResult("", err), bs.Pending())
		}
		plan := p.plan()
		stop := s.progress(ctx, req, "dev_plan")
		r := bs.Run(ctx, plan)
		stop()
		return devToolResult(r, bs.Pending())
	})
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
