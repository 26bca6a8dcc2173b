package mcp

// This file defines the dev_plan tool: a whole seed-000 plan in one call.

import (
	"context"
	"fmt"
	"strings"

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
	Step  string         `json:"step" jsonschema:"the step to run"`
	Args  map[string]any `json:"args,omitempty" jsonschema:"the step's arguments (each step's are listed in the tool's schema)"`
	Label string         `json:"label,omitempty" jsonschema:"read_lines only: the key of its text in reads (default: the path); labels must be unique in a plan"`
}

const planDoc = `Run a plan over this session's in-memory workspace: acquire "paths" from disk, then run "ops" in order. Paths are relative to the root. Nothing reaches disk until a write step; the workspace (with its unwritten changes) persists between calls of this session until it is written or discarded (see discard), so you can edit in one call, check in a second and write in a third.

Steps:
- read_lines {path, start, end?} (+ label): lines of the WORKSPACE copy (not the disk), 1-based, end inclusive; end past the end clamps, omit it to read to the end; start past the end fails naming the line count; a range of more than 256 KiB fails (bounds) naming the end that fits. Output lands in reads[label or path], joined with newlines, no trailing newline. It does not end the plan.
- edit {path, edits: [{find, replace}]}: find is one or more WHOLE LINES copied exactly from the file (read them first); a fragment of a line never matches. Each find must match exactly once, after the previous edit (one forward cursor). Empty replace deletes the lines. All edits of the step apply or none. Errors: "patch context is ambiguous and matches multiple locations" (add surrounding lines to find) and "the patch could not be applied cleanly to the source text" (re-read the lines).
- apply_patch {patch}: a "*** Begin Patch" envelope ONLY (a unified diff is refused): "*** Add File: p", "*** Delete File: p", "*** Update File: p" with optional "*** Move to: q", hunks opened by "@@" with lines starting " ", "-" or "+", then "*** End Patch". Matching is exact and whole-line; all or nothing.
- Line endings (edit and apply_patch): lines match regardless of line endings; kept lines keep theirs and new lines take the file's, so an LF patch leaves a CRLF file CRLF. A line's ending changes only when you write it: a '+' line (or replace line) ending in \r\n gets CRLF, and when a hunk's context or '-' lines (or find's lines) end in \r\n, every new line gets the ending it is written with. So "-a" then "+a\r\n" converts a line to CRLF, and "-a\r\n" then "+a\n" back to LF.
- write {paths?, force?}: persist the workspace's unwritten changes (all, or those paths) to disk: renames, then deletions, then creates and modifications. It is refused (conflict), writing nothing, if any of those files changed on disk since they were read; the error says how to recover (discard those paths, then make the change again). A file whose owner has no write permission (mode such as 0444) is not overwritten, deleted or moved: the write is refused, writing nothing, naming each such file and its mode, unless force is true (a written file keeps its mode). Not atomic across files: a failed write reports what it had written.
%s
A lint or check step whose answer has an error diagnostic, or is incomplete (a driver timed out, crashed or was still indexing, or an entry of a language's lint or check list went unchecked because none of its drivers works: see drivers), FAILS and ends the plan: nothing after it runs, including write. Its error kind is "diagnostics" for error findings (fix the code), else the status (timeout, crashed, indexing, unchecked); the diagnostics and statuses stay in the result. An incomplete format answer fails the same way. Warnings and infos never end a plan. ok is true only when every step ran, no diagnostic is an error and every driver answered completely.
Choose the ordering deliberately: edit -> lint -> check -> write writes only validated code (an error or an incomplete answer stops the plan before write; written is empty and the edit stays unwritten in the workspace); edit -> write -> lint -> check writes first and reports after (the files are on disk, ok is false with the diagnostics).`

// capabilityDoc is the dev_plan description of each capability step,
// after its name and arguments.
var capabilityDoc = map[engine.StepName]string{
	engine.StepFormat: "format workspace files (all, or those paths) with the configured formatter; changes the workspace, not the disk.",
	engine.StepLint:   "lint workspace files; diagnostics describe the workspace including unwritten changes; fix: true applies the fixes to the workspace. An error diagnostic or an incomplete answer ends the plan.",
	engine.StepCheck:  "type-check the workspace content (including unwritten changes) and report diagnostics; changes nothing. An error diagnostic or an incomplete answer ends the plan.",
}

func (s *Server) planTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[PlanParams]()
	steps := s.availableSteps()
	op := in.Properties["ops"].Items
	setEnum(op, "step", steps)
	var synopses, caps, missing []string
	for _, st := range engine.Steps() {
		synopses = append(synopses, fmt.Sprintf("%s %s", st.Name, st.Synopsis))
		switch {
		case st.Kind == "":
		case s.root.Has(st.Kind):
			caps = append(caps, fmt.Sprintf("- %s %s: %s", st.Name, st.Synopsis, capabilityDoc[st.Name]))
		default:
			missing = append(missing, string(st.Name))
		}
	}
	op.Properties["args"].Description = "the step's arguments. " + strings.Join(synopses, "; ")
	if len(caps) == 0 {
		caps = append(caps, "("+list(missing, "and")+" are unavailable: no working driver was found; see probe.)")
	}
	tool := &sdk.Tool{
		Name:         "dev_plan",
		Title:        "Run a workspace plan",
		Description:  fmt.Sprintf(planDoc, strings.Join(caps, "\n")) + "\nAvailable steps: " + strings.Join(steps, ", ") + ".",
		InputSchema:  in,
		OutputSchema: schemaFor[wire.DevResult](),
	}
	return tool, s.handler("dev_plan", func(ctx context.Context, req *sdk.CallToolRequest, bs *broker.Session) *sdk.CallToolResult {
		var p PlanParams
		if err := decodeArgs(req.Params.Arguments, in, &p); err != nil {
			return devToolResult(failedResult("", err), bs.Pending())
		}
		plan, err := engine.ParsePlan(req.Params.Arguments)
		if err != nil {
			return devToolResult(failedResult("", err), bs.Pending())
		}
		if plan.Paths == nil {
			plan.Paths = []string{}
		}
		stop := s.progress(ctx, req, "dev_plan")
		r := bs.Run(ctx, plan)
		stop()
		return devToolResult(r, bs.Pending())
	})
}
