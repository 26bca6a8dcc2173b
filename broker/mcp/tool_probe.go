package mcp

// This file defines the probe tool: probe the root's drivers again; the
// tool list follows what it finds.

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// ProbeParams are probe's parameters (none).
type ProbeParams struct{}

func (s *Server) probeTool() (*sdk.Tool, sdk.ToolHandler) {
	spec := jsonarg.For[ProbeParams]()
	tool := &sdk.Tool{
		Name:         "probe",
		Title:        "Find the working tools",
		Description:  "Report which formatters, linters, checkers and language servers work for this project, with versions, and why the others do not (missing, failed, untrusted), after reading the configuration again (.devbroker.toml over the built-in defaults). Call it after installing a tool, or when a step is unavailable: the tool list follows what it finds, and clients are notified when it changes. A project's .devbroker.toml applies only once the user has run devbroker trust DIR outside this server: until then, drivers that run code the repository provides (prettier, eslint, cargo clippy) never run. No tool can trust a project, and an edit of .devbroker.toml untrusts it again. Changes no file.",
		InputSchema:  inputSchema(spec),
		OutputSchema: resultOrFailure[wire.ProbeResult](),
	}
	readOnly(tool)
	return tool, s.handler("probe", func(ctx context.Context, req *sdk.CallToolRequest, bs *broker.Session) *sdk.CallToolResult {
		var p ProbeParams
		if err := decodeArgs(req.Params.Arguments, spec, &p); err != nil {
			return errorResult("probe", err)
		}
		stop := s.progress(ctx, req, "probe")
		report, err := s.root.Reprobe(ctx)
		stop()
		if err != nil {
			return errorResult("probe", err)
		}
		s.syncTools() // also done by the subscription; this makes the answer current
		tools := s.Tools()
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: probeText(report, tools)}}, StructuredContent: wire.NewProbeResult(report, s.availableSteps())}
	})
}
