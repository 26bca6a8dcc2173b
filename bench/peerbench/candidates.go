package main

// This file defines the candidates: how each one is started, makes the
// edit (in memory, or on disk) and answers with diagnostics, each the way
// its own tools document.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// candidate is one server session on one module copy.
type candidate interface {
	// apply makes the changes and returns the answer for the edited file.
	apply(ctx context.Context, cs []change) (answer, error)
	// query answers about the file as it is, without editing it.
	query(ctx context.Context) (answer, error)
	// pid is the server's process (its tree is the candidate's memory).
	pid() int
	close()
}

// kind is a candidate's name and how to start it on a root.
type kind struct {
	name  string
	short string
	start func(ctx context.Context, t *tools, root string, e *edit, also ...*edit) (candidate, error)
}

// set makes e's file broken or clean (the toggle) and returns c's answer.
func set(ctx context.Context, c candidate, e *edit, broken bool) (answer, error) {
	return c.apply(ctx, []change{toggle(e, broken)})
}

// kinds are the candidates in the order the tables list them; agent-lsp
// only when it was built.
func kinds(t *tools) []kind {
	k := []kind{
		{"devbroker `dev_plan [edit, check]` (in memory)", "devbroker dev_plan", startPlan},
		{"devbroker `edit_file` + `check` (on disk)", "devbroker edit_file", startEditFile},
		{"`gopls mcp` (write the file + `go_diagnostics`)", "gopls mcp", startGoplsMCP},
	}
	if t.baseline != "" {
		k = append(k, kind{"baseline devbroker `edit_file` + `check` (" + filepath.Base(t.baseline) + ", on disk)", "baseline edit_file", startBaseline})
	}
	if t.agentLSP != "" {
		k = append(k, kind{"agent-lsp (write the file + `get_diagnostics`)", "agent-lsp", startAgentLSP})
	}
	return k
}

// devbroker is a session of devbroker serve --mcp.
type devbroker struct {
	cs   *sdk.ClientSession
	proc int // the server's process
	root string
	e    *edit
	disk bool // edit_file + check rather than dev_plan
}

func startPlan(ctx context.Context, t *tools, root string, e *edit, also ...*edit) (candidate, error) {
	return startDevbroker(ctx, t.devbroker, t, root, e, false, also)
}

func startEditFile(ctx context.Context, t *tools, root string, e *edit, also ...*edit) (candidate, error) {
	return startDevbroker(ctx, t.devbroker, t, root, e, true, also)
}

// startBaseline is startEditFile with the -baseline binary.
func startBaseline(ctx context.Context, t *tools, root string, e *edit, also ...*edit) (candidate, error) {
	return startDevbroker(ctx, t.baseline, t, root, e, true, also)
}

// startDevbroker starts the server bin over stdio and waits until it
// lists check (waiting for tools/list_changed, not polling on a timer).
// With disk, the session reads e's file and also's first (edit_file
// changes only files it has read).
func startDevbroker(ctx context.Context, bin string, t *tools, root string, e *edit, disk bool, also []*edit) (candidate, error) {
	cmd := exec.Command(bin, "serve", "--mcp", "--root", root, "--log-level", "error")
	cmd.Env = t.env()
	changed := make(chan struct{}, 1)
	cs, err := connect(ctx, &sdk.CommandTransport{Command: cmd}, changed, "")
	if err != nil {
		return nil, fmt.Errorf("devbroker: %w", err)
	}
	if err := waitForTool(ctx, cs, changed, "check"); err != nil {
		cs.Close()
		return nil, fmt.Errorf("devbroker: %w", err)
	}
	d := &devbroker{cs: cs, proc: cmd.Process.Pid, root: root, e: e, disk: disk}
	if disk { // edit_file changes only a file this session has read
		for _, f := range append([]*edit{e}, also...) {
			if _, err := call(ctx, cs, "edit_file", map[string]any{"command": "view", "file_path": d.abs(f), "view_range": []int{1, 1}}); err != nil {
				cs.Close()
				return nil, err
			}
		}
	}
	return d, nil
}

func (d *devbroker) abs(e *edit) string { return filepath.Join(d.root, filepath.FromSlash(e.file)) }

// apply makes the changes with edit_file (one call per file, each writing
// the disk) then asks check about the edited file, or makes them in one
// dev_plan [edit..., check] in memory.
func (d *devbroker) apply(ctx context.Context, cs []change) (answer, error) {
	if d.disk {
		for _, c := range cs {
			find, replace := c.e.change(c.from, c.to)
			if _, err := call(ctx, d.cs, "edit_file", map[string]any{"command": "str_replace", "file_path": d.abs(c.e), "old_str": find, "new_str": replace}); err != nil {
				return answer{}, err
			}
		}
		return d.query(ctx)
	}
	var paths []string
	var ops []any
	for _, c := range cs {
		find, replace := c.e.change(c.from, c.to)
		paths = append(paths, c.e.file)
		ops = append(ops, map[string]any{"step": "edit", "args": map[string]any{"path": c.e.file, "edits": []any{map[string]any{"find": find, "replace": replace}}}})
	}
	ops = append(ops, map[string]any{"step": "check"})
	res, err := d.cs.CallTool(ctx, &sdk.CallToolParams{Name: "dev_plan", Arguments: map[string]any{"paths": paths, "ops": ops}})
	if err != nil {
		return answer{}, fmt.Errorf("dev_plan: %w", err)
	}
	return devAnswer(res)
}

func (d *devbroker) query(ctx context.Context) (answer, error) {
	res, err := d.cs.CallTool(ctx, &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"paths": []string{d.e.file}}})
	if err != nil {
		return answer{}, fmt.Errorf("check: %w", err)
	}
	return devAnswer(res)
}

func (d *devbroker) pid() int { return d.proc }

func (d *devbroker) close() { d.cs.Close() }

// diskServer is a server that learns of edits from the disk: the
// benchmark writes the file, then asks (gopls mcp, agent-lsp).
type diskServer struct {
	cs    *sdk.ClientSession
	proc  int // the server's process
	root  string
	e     *edit
	tool  string
	args  map[string]any
	parse func(text, root string) (answer, error)
}

func (s *diskServer) abs(e *edit) string { return filepath.Join(s.root, filepath.FromSlash(e.file)) }

// apply writes each changed file, then asks about the edited one.
func (s *diskServer) apply(ctx context.Context, cs []change) (answer, error) {
	for _, c := range cs {
		if err := os.WriteFile(s.abs(c.e), []byte(c.e.text(c.to)), 0o644); err != nil {
			return answer{}, err
		}
	}
	return s.query(ctx)
}

func (s *diskServer) query(ctx context.Context) (answer, error) {
	text, err := call(ctx, s.cs, s.tool, s.args)
	if err != nil {
		return answer{incomplete: err.Error()}, nil
	}
	return s.parse(text, s.root)
}

func (s *diskServer) pid() int { return s.proc }

func (s *diskServer) close() { s.cs.Close() }

// startGoplsMCP starts gopls mcp in root over stdio. The client reports
// root as its MCP root, which gopls watches (fsnotify); go_diagnostics
// given the file also compares the modification times of its package's
// files, so it sees a write even before the watcher reports it.
func startGoplsMCP(ctx context.Context, t *tools, root string, e *edit, _ ...*edit) (candidate, error) {
	cmd := exec.Command(t.gopls, "mcp")
	cmd.Dir, cmd.Env = root, t.env()
	cs, err := connect(ctx, &sdk.CommandTransport{Command: cmd}, nil, root)
	if err != nil {
		return nil, fmt.Errorf("gopls mcp: %w", err)
	}
	return goplsSession(cs, cmd.Process.Pid, root, e), nil
}

func goplsSession(cs *sdk.ClientSession, pid int, root string, e *edit) *diskServer {
	s := &diskServer{cs: cs, proc: pid, root: root, e: e, tool: "go_diagnostics"}
	s.args = map[string]any{"files": []string{s.abs(e)}}
	s.parse = func(text, root string) (answer, error) { return goplsAnswer(text, root), nil }
	return s
}

// startAgentLSP starts agent-lsp with gopls for Go, in its JSON output
// format, and points it at root with start_lsp, as its docs say.
func startAgentLSP(ctx context.Context, t *tools, root string, e *edit, _ ...*edit) (candidate, error) {
	cmd := exec.Command(t.agentLSP, "go:"+t.gopls)
	cmd.Dir, cmd.Env = root, t.env("AGENT_LSP_OUTPUT_FORMAT=json")
	cs, err := connect(ctx, &sdk.CommandTransport{Command: cmd}, nil, "")
	if err != nil {
		return nil, fmt.Errorf("agent-lsp: %w", err)
	}
	if _, err := call(ctx, cs, "start_lsp", map[string]any{"root_dir": root}); err != nil {
		cs.Close()
		return nil, err
	}
	s := &diskServer{cs: cs, proc: cmd.Process.Pid, root: root, e: e, tool: "get_diagnostics", parse: agentLSPAnswer}
	s.args = map[string]any{"file_path": s.abs(e)}
	return s, nil
}

// connect connects an MCP client over transport; changed (if not nil)
// receives tools/list_changed, and root (if not "") is the client's root.
func connect(ctx context.Context, transport sdk.Transport, changed chan struct{}, root string) (*sdk.ClientSession, error) {
	opts := &sdk.ClientOptions{}
	if changed != nil {
		opts.ToolListChangedHandler = func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case changed <- struct{}{}:
			default:
			}
		}
	}
	c := sdk.NewClient(&sdk.Implementation{Name: "peerbench", Version: "1"}, opts)
	if root != "" {
		//lint:ignore SA1019 gopls mcp watches the roots its client reports.
		c.AddRoots(&sdk.Root{URI: "file://" + filepath.ToSlash(root), Name: "module"})
	}
	return c.Connect(ctx, transport, nil)
}

// waitForTool returns once the server lists tool.
func waitForTool(ctx context.Context, cs *sdk.ClientSession, changed chan struct{}, tool string) error {
	for {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			return err
		}
		if slices.ContainsFunc(res.Tools, func(t *sdk.Tool) bool { return t.Name == tool }) {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("%s was never listed: %w", tool, ctx.Err())
		}
	}
}

// call calls a tool and returns its text; a tool error is an error.
func call(ctx context.Context, cs *sdk.ClientSession, tool string, args map[string]any) (string, error) {
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", fmt.Errorf("%s: %w", tool, err)
	}
	if res.IsError {
		return "", fmt.Errorf("%s failed: %s", tool, resultText(res))
	}
	return resultText(res), nil
}

// warm makes c's answers settle: add and remove the error until both
// answers are complete and the broken one names the error (at most
// tries cycles), and returns the clean module's errors. only judges the
// edited file alone (see judge).
func warm(ctx context.Context, c candidate, e *edit, tries int, only bool) ([]diag, error) {
	var last string
	for range tries {
		b, err := set(ctx, c, e, true)
		if err != nil {
			return nil, err
		}
		a, err := set(ctx, c, e, false)
		if err != nil {
			return nil, err
		}
		if ok, why := judge(b, e, wantMessage, a.errs, only); !ok {
			last = "with the error: " + why
			continue
		}
		if a.incomplete != "" {
			last = "without the error: " + a.incomplete
			continue
		}
		return a.errs, nil
	}
	return nil, errors.New("no settled answer after warm-up, last " + last)
}

// timed runs f and returns how long it took.
func timed(f func() (answer, error)) (answer, time.Duration, error) {
	t0 := time.Now()
	a, err := f()
	return a, time.Since(t0), err
}
