package main

// This file drives devbroker serve --mcp over stdio with the official Go
// SDK's client: the definition and references tools, and dev_plan's
// rename, check and write steps, reading each answer's structured content
// (broker/wire's DevResult, the encoding every surface sends).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker/wire"
)

// devbrokerClient is one MCP session of devbroker serve --mcp.
type devbrokerClient struct {
	cs *sdk.ClientSession
}

// navTools are the tools the benchmark calls; the server lists them once
// its probe found gopls (tools/list_changed says when).
var navTools = []string{"definition", "references", "symbols", "dev_plan", "discard", "check"}

// errMissingTools is a devbroker that lists check but not the language
// tools: one built before them.
var errMissingTools = errors.New("devbroker does not offer the tools this benchmark calls")

// startDevbroker starts the server on root and waits for its tools.
func startDevbroker(ctx context.Context, t *tools, root string) (*devbrokerClient, error) {
	// The full tool profile: definition and references as tools of their own.
	cmd := exec.Command(t.devbroker, "serve", "--mcp", "--root", root, "--tools", "full", "--log-level", "error")
	cmd.Env = t.env()
	changed := make(chan struct{}, 1)
	c := sdk.NewClient(&sdk.Implementation{Name: "navbench", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		},
	})
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("devbroker: %w", err)
	}
	d := &devbrokerClient{cs: cs}
	if err := d.waitForTools(ctx, changed); err != nil {
		cs.Close()
		return nil, fmt.Errorf("devbroker: %w", err)
	}
	return d, nil
}

// waitForTools returns once the server lists every tool of navTools. The
// tools appear as the probe finds what serves them (check may come first,
// from its go build fallback, and the language tools with gopls).
func (d *devbrokerClient) waitForTools(ctx context.Context, changed chan struct{}) error {
	for {
		res, err := d.cs.ListTools(ctx, nil)
		if err != nil {
			return err
		}
		var missing []string
		for _, name := range navTools {
			if !slices.ContainsFunc(res.Tools, func(t *sdk.Tool) bool { return t.Name == name }) {
				missing = append(missing, name)
			}
		}
		if len(missing) == 0 {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("%w: %s were never listed (is gopls installed?): %w", errMissingTools, strings.Join(missing, ", "), ctx.Err())
		}
	}
}

// call calls tool and decodes its DevResult; a failed call, or a result
// with an error, is an error.
func (d *devbrokerClient) call(ctx context.Context, tool string, args map[string]any) (*wire.DevResult, time.Duration, error) {
	t0 := time.Now()
	res, err := d.cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	took := time.Since(t0)
	if err != nil {
		return nil, took, fmt.Errorf("%s: %w", tool, err)
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		return nil, took, err
	}
	var r wire.DevResult
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, took, fmt.Errorf("%s: the structured content is no DevResult: %w", tool, err)
	}
	if r.Error != nil {
		return &r, took, fmt.Errorf("%s failed at step %d (%s): %s: %s", tool, r.Error.Step, r.Error.Name, r.Error.Kind, r.Error.Message)
	}
	if res.IsError {
		return &r, took, fmt.Errorf("%s failed: %s", tool, resultText(res))
	}
	return &r, took, nil
}

// ask calls tool (definition or references) at the target's name, by
// symbol or by line and column, and returns its listing.
func (d *devbrokerClient) ask(ctx context.Context, tool string, q query) (listing, time.Duration, error) {
	args := map[string]any{"path": q.file}
	if q.symbol != "" {
		args["symbol"] = q.symbol
	} else {
		args["line"], args["column"] = q.line, q.column
	}
	r, took, err := d.call(ctx, tool, args)
	if err != nil {
		return listing{}, took, err
	}
	if len(r.Answers) != 1 {
		return listing{}, took, fmt.Errorf("%s: %d answers, want 1", tool, len(r.Answers))
	}
	a := r.Answers[0]
	ps := make([]place, len(a.Locations))
	for i, l := range a.Locations {
		ps[i] = place{path: l.Path, line: l.Line, column: l.Column}
	}
	return newListing(ps, a.Omitted), took, nil
}

// renamePlan runs dev_plan [rename, check] (and write when write is
// true) and returns the changed paths, sorted.
func (d *devbrokerClient) renamePlan(ctx context.Context, t *target, newName string, write bool) ([]string, time.Duration, error) {
	ops := []any{
		map[string]any{"step": "rename", "args": map[string]any{"path": t.file, "symbol": t.symbol, "new_name": newName}},
		map[string]any{"step": "check"},
	}
	if write {
		ops = append(ops, map[string]any{"step": "write"})
	}
	r, took, err := d.call(ctx, "dev_plan", map[string]any{"paths": []string{t.file}, "ops": ops})
	if err != nil {
		return nil, took, err
	}
	if !r.OK {
		return nil, took, fmt.Errorf("dev_plan [rename, check] is not ok: %s", notOK(r))
	}
	var paths []string
	for _, c := range r.Changes {
		paths = append(paths, c.Path)
	}
	slices.Sort(paths)
	return paths, took, nil
}

// discard drops the session's unwritten changes.
func (d *devbrokerClient) discard(ctx context.Context) error {
	_, _, err := d.call(ctx, "discard", map[string]any{})
	return err
}

// notOK says why a result is not ok: its first diagnostics and drivers.
func notOK(r *wire.DevResult) string {
	var why []string
	for _, dr := range r.Drivers {
		if dr.Status != "ok" {
			why = append(why, fmt.Sprintf("driver %s %s %s", dr.Driver, dr.Status, dr.Message))
		}
	}
	for i, dg := range r.Diagnostics {
		if i == 3 {
			break
		}
		why = append(why, fmt.Sprintf("%s:%d:%d: %s", dg.Path, dg.Line, dg.Column, dg.Message))
	}
	return strings.Join(why, "; ")
}

// resultText is a tool result's text content.
func resultText(r *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func (d *devbrokerClient) close() { d.cs.Close() }
