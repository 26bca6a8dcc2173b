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
	// set makes the edited file broken or clean and returns the answer.
	set(ctx context.Context, broken bool) (answer, error)
	// query answers about the file as it is, without editing it.
	query(ctx context.Context) (answer, error)
	close()
}

// kind is a candidate's name and how to start it on a root.
type kind struct {
	name  string
	short string
	start func(ctx context.Context, t *tools, root string, e *edit) (candidate, error)
}

// kinds are the candidates in the order the tables list them; agent-lsp
// only when it was built.
func kinds(t *tools) []kind {
	k := []kind{
		{"devbroker `dev_plan [edit, check]` (in memory)", "devbroker dev_plan", startPlan},
		{"devbroker `edit_file` + `check` (on disk)", "devbroker edit_file", startEditFile},
		{"`gopls mcp` (write the file + `go_diagnostics`)", "gopls mcp", startGoplsMCP},
	}
	if t.agentLSP != "" {
		k = append(k, kind{"agent-lsp (write the file + `get_diagnostics`)", "agent-lsp", startAgentLSP})
	}
	return k
}

// devbroker is a session of devbroker serve --mcp.
type devbroker struct {
	cs   *sdk.ClientSession
	root string
	e    *edit
	disk bool // edit_file + check rather than dev_plan
}

func startPlan(ctx context.Context, t *tools, root string, e *edit) (candidate, error) {
	return startDevbroker(ctx, t, root, e, false)
}

func startEditFile(ctx context.Context, t *tools, root string, e *edit) (candidate, error) {
	return startDevbroker(ctx, t, root, e, true)
}

// startDevbroker starts the server over stdio and waits until it lists
// check (waiting for tools/list_changed, not polling on a timer).
func startDevbroker(ctx context.Context, t *tools, root string, e *edit, disk bool) (candidate, error) {
	cmd := exec.Command(t.devbroker, "serve", "--mcp", "--root", root, "--log-level", "error")
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
	d := &devbroker{cs: cs, root: root, e: e, disk: disk}
	if disk { // edit_file changes only a file this session has read
		if _, err := call(ctx, cs, "edit_file", map[string]any{"command": "view", "file_path": d.abs(), "view_range": []int{1, 1}}); err != nil {
			cs.Close()
			return nil, err
		}
	}
	return d, nil
}

func (d *devbroker) abs() string { return filepath.Join(d.root, filepath.FromSlash(d.e.file)) }

func (d *devbroker) set(ctx context.Context, broken bool) (answer, error) {
	find, replace := d.e.replacement(broken)
	if d.disk {
		if _, err := call(ctx, d.cs, "edit_file", map[string]any{"command": "str_replace", "file_path": d.abs(), "old_str": find, "new_str": replace}); err != nil {
			return answer{}, err
		}
		return d.query(ctx)
	}
	res, err := d.cs.CallTool(ctx, &sdk.CallToolParams{Name: "dev_plan", Arguments: map[string]any{
		"paths": []string{d.e.file},
		"ops": []any{
			map[string]any{"step": "edit", "args": map[string]any{"path": d.e.file, "edits": []any{map[string]any{"find": find, "replace": replace}}}},
			map[string]any{"step": "check"},
		},
	}})
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

func (d *devbroker) close() { d.cs.Close() }

// diskServer is a server that learns of edits from the disk: the
// benchmark writes the file, then asks (gopls mcp, agent-lsp).
type diskServer struct {
	cs    *sdk.ClientSession
	root  string
	e     *edit
	tool  string
	args  map[string]any
	parse func(text, root string) (answer, error)
}

func (s *diskServer) abs() string { return filepath.Join(s.root, filepath.FromSlash(s.e.file)) }

func (s *diskServer) set(ctx context.Context, broken bool) (answer, error) {
	if err := os.WriteFile(s.abs(), []byte(s.e.content(broken)), 0o644); err != nil {
		return answer{}, err
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

func (s *diskServer) close() { s.cs.Close() }

// startGoplsMCP starts gopls mcp in root over stdio. The client reports
// root as its MCP root, which gopls watches (fsnotify); go_diagnostics
// given the file also compares the modification times of its package's
// files, so it sees a write even before the watcher reports it.
func startGoplsMCP(ctx context.Context, t *tools, root string, e *edit) (candidate, error) {
	cmd := exec.Command(t.gopls, "mcp")
	cmd.Dir, cmd.Env = root, t.env()
	cs, err := connect(ctx, &sdk.CommandTransport{Command: cmd}, nil, root)
	if err != nil {
		return nil, fmt.Errorf("gopls mcp: %w", err)
	}
	return goplsSession(cs, root, e), nil
}

func goplsSession(cs *sdk.ClientSession, root string, e *edit) *diskServer {
	s := &diskServer{cs: cs, root: root, e: e, tool: "go_diagnostics"}
	s.args = map[string]any{"files": []string{s.abs()}}
	s.parse = func(text, root string) (answer, error) { return goplsAnswer(text, root), nil }
	return s
}

// startAgentLSP starts agent-lsp with gopls for Go, in its JSON output
// format, and points it at root with start_lsp, as its docs say.
func startAgentLSP(ctx context.Context, t *tools, root string, e *edit) (candidate, error) {
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
	s := &diskServer{cs: cs, root: root, e: e, tool: "get_diagnostics", parse: agentLSPAnswer}
	s.args = map[string]any{"file_path": s.abs()}
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
		b, err := c.set(ctx, true)
		if err != nil {
			return nil, err
		}
		a, err := c.set(ctx, false)
		if err != nil {
			return nil, err
		}
		if ok, why := judge(b, e, true, a.errs, only); !ok {
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
