package mcp

// This file defines the discard tool: drop the session's unwritten
// workspace changes, all or some, and take what the disk holds now.

import (
	"context"
	"fmt"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// DiscardParams are discard's parameters.
type DiscardParams struct {
	Paths []string `json:"paths,omitempty" jsonschema:"the files to discard and refresh: paths relative to the root, or globs, each matching a file of the workspace or a path with an unwritten change; omit to discard everything"`
}

// DiscardResult says what was dropped.
type DiscardResult struct {
	Discarded []string `json:"discarded" jsonschema:"the paths whose unwritten changes were dropped"`
	Left      []string `json:"left" jsonschema:"the paths that left the workspace because they are no longer on disk (or no longer text files)"`
}

// discardDoc is discard's description; %s is said of edit_file when
// the profile offers it.
const discardDoc = `Drop unwritten changes from the session's workspace (its in-memory copy of the project's files) and read those files again from disk; nothing on disk changes. With paths (relative to the root, or globs), only those files (a renamed file under either of its paths); without, every file. A file gone from disk leaves the workspace. A file with no unwritten change is read again too, so discard also takes up a change made on disk by someone else.
Use it when a write is refused with a conflict (discard the files it names, make your change again on the new content, write), or to abandon a plan's edits%s. Otherwise unwritten changes are dropped only when the session ends.`

func (s *Server) discardTool() (*sdk.Tool, sdk.ToolHandler) {
	spec := jsonarg.For[DiscardParams]()
	tool := &sdk.Tool{
		Name:         "discard",
		Title:        "Discard unwritten changes",
		Description:  fmt.Sprintf(discardDoc, s.ifOffered("edit_file", ", or before edit_file on a file with unwritten changes")),
		InputSchema:  inputSchema(spec),
		OutputSchema: resultOrFailure[DiscardResult](),
	}
	destructive(tool, true)
	return tool, s.handler("discard", func(ctx context.Context, req *sdk.CallToolRequest, bs *broker.Session) *sdk.CallToolResult {
		var p DiscardParams
		if err := decodeArgs(req.Params.Arguments, spec, &p); err != nil {
			return errorResult("discard", err)
		}
		dropped, left, err := bs.Discard(p.Paths)
		if err != nil {
			return errorResult("discard", err)
		}
		out := &DiscardResult{Discarded: append([]string{}, dropped...), Left: append([]string{}, left...)}
		var lines []string
		if len(dropped) > 0 {
			lines = append(lines, "discarded the unwritten changes to: "+strings.Join(dropped, ", "))
		} else {
			lines = append(lines, "no unwritten changes to discard")
		}
		if len(left) > 0 {
			lines = append(lines, "left the workspace (no longer on disk): "+strings.Join(left, ", "))
		}
		lines = append(lines, "the files discarded now hold what the disk holds")
		text := strings.Join(lines, "\n")
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, StructuredContent: out}
	})
}
