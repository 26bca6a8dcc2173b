package mcp

// This file defines the dev_plan tool: a whole plan in one call.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// planDoc is dev_plan's description; %s is the list of steps available
// (see planSteps), with a note naming the ones that are not. It is the
// one description of the steps a client without their tools reads, so it
// names no other tool.
const planDoc = `Run steps in order on the session's workspace, an in-memory copy of the project's files, to change and check code before it reaches disk. Paths are relative to the root. paths (files, or globs like src/**/*.go) are read in first; each op is {step, args}. Nothing is written before a write step; changes stay in the workspace, across calls, until written or discarded. Steps:
%s
The plan is validated first; the first failing step stops it, earlier steps keep their effect. A lint or check with an error finding or an incomplete answer stops the plan: edit, lint, check, write writes only code that passed; rename, check, write is the safe rename. ok: every step ran, no error finding, every driver answered completely.`

// stepNotes are what dev_plan's description adds to a step's synopsis:
// what the step does, in brief, for a client that has no tool of its own
// for it.
var stepNotes = map[engine.StepName]string{
	engine.StepReadLines:  ": 1-based lines, end inclusive; the text is in reads[label or path]",
	engine.StepEdit:       ": each find is whole lines copied exactly from the file, matching once after the previous edit; an empty replace deletes them",
	engine.StepApplyPatch: ": '*** Begin Patch', then '*** Add File: p' with '+' lines, '*** Delete File: p', or '*** Update File: p' (optionally '*** Move to: q') with '@@' hunks of ' ', '-' and '+' lines matching once, then '*** End Patch'",
	engine.StepWrite:      ": write the workspace's changes (all, or those under paths) to disk; a file changed on disk since it was read is merged if that change touches other lines (merged says where), else nothing is written (conflict: discard it, redo the change; merge: false never merges); force overwrites read-only files",
	engine.StepSearch:     ": find literal text (RE2 with regex) in every file of the root, unwritten changes included",
	engine.StepFormat:     ": the project's formatters; only \"changed\": just the lines you changed; formatted has each file's diff",
	engine.StepLint:       ": the project's linters; fix applies their fixes",
	engine.StepCheck:      ": type-check the workspace; findings most severe first",
	engine.StepTest:       ": the tests the changes affect, on the unwritten content",
}

// planSpec describes dev_plan's arguments: the engine's plan.
var planSpec = jsonarg.For[engine.PlanJSON]()

// pointAt is the synopsis the language steps that point at code share.
const pointAt = "{path, symbol? | line+column?"

func (s *Server) planTool() (*sdk.Tool, sdk.ToolHandler) {
	// The plan's arguments are described by the engine (engine.PlanJSON);
	// the schema adds what depends on the root: the steps available now.
	in := inputSchema(planSpec)
	op := in.Properties["ops"].Items
	setEnum(op, "step", s.availableSteps())
	// args stay raw for their step's decoder, which takes an object.
	op.Properties["args"].Type = "object"
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
		var p engine.PlanJSON
		if err := decodeArgs(req.Params.Arguments, planSpec, &p); err != nil {
			return devToolResult(failedResult("", err), bs.Pending(), true)
		}
		if p.Paths == nil {
			p.Paths = []string{}
		}
		plan := p.Plan() // each op's arguments decoded by its step
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
	var lines, pointers, others, missing, unwritten []string
	for _, st := range engine.Steps() {
		rest, points := strings.CutPrefix(st.Synopsis, pointAt)
		if st.Unwritten && (st.Kind == "" || has(st.Kind)) {
			unwritten = append(unwritten, string(st.Name))
		}
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
		note := ": the language server's answers; symbol is a name or Type.Method, lines and columns 1-based"
		if len(unwritten) > 0 {
			note += "; " + list(unwritten, "and") + " change the workspace"
		}
		lines = append(lines, "- "+strings.Join(language, "; ")+note)
	}
	if len(missing) > 0 {
		lines = append(lines, "("+list(missing, "and")+" unavailable: no working driver was found; see probe.)")
	}
	return lines
}
