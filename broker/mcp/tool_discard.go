package mcp

// This file defines the discard tool: drop the session's unwritten
// workspace changes.

import (
	"context"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
)

// DiscardParams are discard's parameters (none).
type DiscardParams struct{}

// DiscardResult says what was dropped.
type DiscardResult struct {
	Discarded []string `json:"discarded" jsonschema:"the paths whose unwritten changes were dropped"`
}

func (s *Server) discardTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[DiscardParams]()
	tool := &sdk.Tool{
		Name:         "discard",
		Title:        "Discard unwritten changes",
		Description:  "Drop every unwritten change in this session's workspace (what dev_plan changed but did not write); the workspace goes back to what is on disk as far as it knows. Nothing on disk changes. Use it to abandon a plan's edits, or before edit_file on a file that has unwritten workspace changes. A session's unwritten changes are otherwise dropped only when the session ends.",
		InputSchema:  in,
		OutputSchema: schemaFor[DiscardResult](),
	}
	return tool, s.handler("discard", func(ctx context.Context, req *sdk.CallToolRequest, bs *broker.Session) *sdk.CallToolResult {
		var p DiscardParams
		if err := decodeArgs(req.Params.Arguments, in, &p); err != nil {
			return errorResult(err)
		}
		paths, err := bs.Discard()
		if err != nil {
			return errorResult(err)
		}
		out := &DiscardResult{Discarded: append([]string{}, paths...)}
		text := "nothing to discard: the workspace has no unwritten changes"
		if len(paths) > 0 {
			text = "discarded the unwritten changes to: " + strings.Join(paths, ", ")
		}
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: out}
	})
}
