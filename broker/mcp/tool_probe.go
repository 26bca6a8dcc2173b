package mcp

// This file defines the probe tool: probe the root's drivers again; the
// tool list follows what it finds.

import (
	"context"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
)

// ProbeParams are probe's parameters (none).
type ProbeParams struct{}

func (s *Server) probeTool() (*sdk.Tool, sdk.ToolHandler) {
	in := schemaFor[ProbeParams]()
	tool := &sdk.Tool{
		Name:         "probe",
		Title:        "Probe the drivers",
		Description:  "Re-read the root's configuration (.devbroker.toml over the defaults) and probe every driver again: found, missing, failed or untrusted, with versions and reasons. Until the user trusts the root outside this server (devbroker trust DIR), none of .devbroker.toml applies (the embedded defaults alone serve; the answer's project part says so and lists the commands the file would run) and drivers that run code the repository provides (prettier, eslint, cargo clippy) are untrusted and run not even their version check; an edit of .devbroker.toml makes the root untrusted again, and no tool can trust it. format, lint and check tools are offered only while a working driver serves them, so the tool list changes (and you are notified) when this finds a driver installed or gone. The drivers are shared by every session on this root.",
		InputSchema:  in,
		OutputSchema: schemaFor[wire.ProbeResult](),
	}
	return tool, s.handler("probe", func(ctx context.Context, req *sdk.CallToolRequest, bs *broker.Session) *sdk.CallToolResult {
		var p ProbeParams
		if err := decodeArgs(req.Params.Arguments, in, &p); err != nil {
			return errorResult(err)
		}
		stop := s.progress(ctx, req, "probe")
		report, err := s.root.Reprobe(ctx)
		stop()
		if err != nil {
			return errorResult(err)
		}
		s.syncTools() // also done by the subscription; this makes the answer current
		tools := s.Tools()
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: probeText(report, tools)}}, StructuredContent: wire.NewProbeResult(report, s.availableSteps())}
	})
}
