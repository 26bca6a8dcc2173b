package main

// The MCP tool profiles through the real binary and the Go SDK's client
// over stdio: the default tools/list fits 16,000 bytes, whole, as it
// crosses the wire; and every step is reachable through the tools the
// default profile offers, answered by the real drivers.

import (
	"context"
	"encoding/json"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	brokermcp "github.com/devbroker/devbroker/broker/mcp"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// listBudget is the most bytes the default profile's whole tools/list
// result may take: every name, title, description, schema and annotation.
const listBudget = 16000

// rawResults is a transport that keeps the raw JSON of the last result
// the server sent, as it arrived.
type rawResults struct {
	sdk.Transport
	mu   sync.Mutex
	last json.RawMessage
}

func (r *rawResults) Connect(ctx context.Context) (sdk.Connection, error) {
	c, err := r.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &rawConn{Connection: c, r: r}, nil
}

func (r *rawResults) lastResult() json.RawMessage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.last
}

type rawConn struct {
	sdk.Connection
	r *rawResults
}

func (c *rawConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := c.Connection.Read(ctx)
	if resp, ok := m.(*jsonrpc.Response); ok && resp.Result != nil {
		c.r.mu.Lock()
		c.r.last = append(json.RawMessage(nil), resp.Result...)
		c.r.mu.Unlock()
	}
	return m, err
}

// listRaw starts `devbroker serve --mcp --tools p` on root, probes (so
// the list is the whole one), lists the tools and returns the names and
// the raw tools/list result.
func listRaw(t *testing.T, p brokermcp.Profile, root string) ([]string, json.RawMessage) {
	t.Helper()
	cmd := exec.Command(devbrokerBin(t), "serve", "--mcp", "--root", root, "--tools", string(p))
	logs := &syncBuffer{}
	cmd.Stderr = logs
	raw := &rawResults{Transport: &sdk.CommandTransport{Command: cmd}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "profile_test", Version: "1"}, nil).Connect(ctx, raw, nil)
	if err != nil {
		t.Fatalf("connect: %v\nlogs:\n%s", err, logs)
	}
	defer cs.Close()
	if res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "probe", Arguments: map[string]any{}}); err != nil || res.IsError {
		t.Fatalf("probe: %v %v\nlogs:\n%s", err, res, logs)
	}
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v\nlogs:\n%s", err, logs)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names, raw.lastResult()
}

// The default profile's whole tools/list result, with every tool listed
// (a Go module with gopls: the language steps in dev_plan's description
// too), is at most listBudget bytes as the server sends it; so is the
// lean profile's. The full profile's is measured and logged.
func TestDefaultToolListFitsItsBudget(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("gopls is not on PATH (make tools): the list would lack the language steps")
	}
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain})
	for _, name := range configs.MCPTools {
		p := brokermcp.Profile(name)
		names, raw := listRaw(t, p, root)
		if m := missing(names, untrustedTools(p)); len(m) > 0 {
			t.Fatalf("%s: tools/list lacks %v (is every driver of a Go root working here? devbroker probe says): %v", p, m, names)
		}
		var list struct {
			Tools []json.RawMessage `json:"tools"`
		}
		if err := json.Unmarshal(raw, &list); err != nil || len(list.Tools) != len(names) {
			t.Fatalf("%s: the raw result is not the list of %d tools (%v): %.200s", p, len(names), err, raw)
		}
		t.Logf("%s: tools/list is %d bytes, %d tools", p, len(raw), len(names))
		if p != brokermcp.ProfileFull && len(raw) > listBudget {
			t.Errorf("%s: tools/list is %d bytes, budget %d", p, len(raw), listBudget)
		}
	}
}

// stepCall is a call of one step and what its answer's text says.
type stepCall struct {
	step engine.StepName
	args map[string]any
	want string
}

// stepCalls are calls that run every step on reachModuleMain, in an order
// where each finds what it needs: read, find, change, check, write.
var stepCalls = []stepCall{
	{engine.StepReadLines, map[string]any{"path": "main.go", "start": 3, "end": 3}, "func helper(n int) int"},
	{engine.StepSearch, map[string]any{"pattern": "helper("}, "main.go:3"},
	{engine.StepSymbols, map[string]any{"path": "main.go"}, "helper"},
	{engine.StepDefinition, map[string]any{"path": "main.go", "line": 6, "column": 10}, "main.go:3"},
	{engine.StepReferences, map[string]any{"path": "main.go", "symbol": "helper"}, "main.go:6"},
	{engine.StepHover, map[string]any{"path": "main.go", "symbol": "helper"}, "func helper(n int) int"},
	{engine.StepCodeActions, map[string]any{"path": "main.go"}, "ok: true"},
	{engine.StepEdit, map[string]any{"path": "main.go", "edits": []any{map[string]any{"find": "\tprintln(helper(1))", "replace": "\tprintln(helper(2))"}}}, "change: modified main.go"},
	{engine.StepApplyPatch, map[string]any{"patch": "*** Begin Patch\n*** Add File: extra.go\n+package main\n+\n+func extra()   int { return helper(3) }\n*** End Patch\n"}, "change: added extra.go"},
	{engine.StepFormat, map[string]any{"paths": []string{"extra.go"}}, "ok: true"},
	{engine.StepRename, map[string]any{"path": "main.go", "symbol": "helper", "new_name": "assist"}, "renamed in the workspace"},
	{engine.StepLint, map[string]any{"paths": []string{"main.go", "extra.go"}}, "ok: true"},
	{engine.StepCheck, map[string]any{}, "ok: true"},
	{engine.StepWrite, map[string]any{}, "written: "},
}

const reachModuleMain = "package main\n\nfunc helper(n int) int { return n }\n\nfunc main() {\n\tprintln(helper(1))\n}\n"

// Every step runs through the default profile: its own tool where the
// profile offers one (check, search), else a dev_plan of that one step,
// each against the real drivers (gopls, gofumpt, staticcheck, go vet),
// in one session whose workspace carries the changes from step to step
// until the write.
func TestDefaultProfileReachesEveryStep(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("gopls is not on PATH (make tools): the language steps need it")
	}
	for _, st := range engine.Steps() {
		if st.Name == engine.StepTest {
			continue // it runs the repository's code: not in this untrusted root
		}
		if !slices.ContainsFunc(stepCalls, func(c stepCall) bool { return c.step == st.Name }) {
			t.Fatalf("no call of step %s here", st.Name)
		}
	}
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": reachModuleMain})
	cs := connectSettled(t, root)
	listed := listTools(t, cs)
	for _, c := range stepCalls {
		var res *sdk.CallToolResult
		via := string(c.step)
		if slices.Contains(listed, string(c.step)) {
			res = callTool(t, cs, string(c.step), c.args)
		} else {
			via = "dev_plan"
			res = callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"*.go", "go.mod"}, "ops": []any{map[string]any{"step": string(c.step), "args": c.args}}})
		}
		got := resultText(res)
		t.Logf("%s through %s:\n%s", c.step, via, got)
		if res.IsError || !strings.Contains(got, c.want) {
			t.Errorf("%s through %s: isError %v, want %q in:\n%s", c.step, via, res.IsError, c.want, got)
		}
	}
	want := "package main\n\nfunc assist(n int) int { return n }\n\nfunc main() {\n\tprintln(assist(2))\n}\n"
	if got := readFile(t, root, "main.go"); got != want {
		t.Errorf("main.go after the write: %q, want %q", got, want)
	}
	if got := readFile(t, root, "extra.go"); got != "package main\n\nfunc extra() int { return assist(3) }\n" {
		t.Errorf("extra.go after the write: %q", got)
	}
}

// The tool profile comes from --tools, else the configuration's [mcp]
// tools: the user's for every root, a project's only once the root is
// trusted; a bad value stops the server with the key's place.
func TestToolProfileFromConfig(t *testing.T) {
	cfg := t.TempDir()
	testtree.Write(t, cfg, map[string]string{"devbroker/config.toml": "[mcp]\ntools = \"lean\"\n"})
	env := []string{"XDG_CONFIG_HOME=" + cfg}
	root := testtree.New(t, map[string]string{"a.txt": "one\n", ".devbroker.toml": "[mcp]\ntools = \"full\"\n"})
	for _, c := range []struct {
		what  string
		extra []string
		want  brokermcp.Profile
	}{
		{"the user's configuration (the project is not trusted)", nil, brokermcp.ProfileLean},
		{"the trusted project's", []string{"--trust"}, brokermcp.ProfileFull},
		{"the flag", []string{"--trust", "--tools", "default"}, brokermcp.ProfileDefault},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		w, err := connectWatching(ctx, t, root, env, c.extra...)
		if err != nil {
			cancel()
			t.Fatalf("%s: connect: %v", c.what, err)
		}
		// With no driver (a text file), the tools that need none.
		var want []string
		for _, name := range c.want.Tools() {
			if slices.Contains([]string{"dev_plan", "discard", "probe", "search", "edit_file", "read_file", "write_file", "read_lines", "edit", "apply_patch", "write"}, name) {
				want = append(want, name)
			}
		}
		slices.Sort(want)
		if got := listTools(t, w.cs); !slices.Equal(got, want) {
			t.Errorf("%s: tools %v, want the %s profile's %v", c.what, got, c.want, want)
		}
		w.cs.Close()
		cancel()
	}
	bad := testtree.New(t, map[string]string{".devbroker.toml": "[mcp]\ntools = \"tiny\"\n"})
	out, err := exec.Command(devbrokerBin(t), "serve", "--mcp", "--trust", "--root", bad).CombinedOutput()
	if err == nil || !strings.Contains(string(out), `.devbroker.toml:2:1: mcp.tools: must be one of default, lean, full, got "tiny"`) {
		t.Errorf("serve with [mcp] tools = \"tiny\": %v\n%s", err, out)
	}
}

// Registered without --root, as the README's snippets are, the server
// serves the directory it starts in: a client that starts it in each
// project (Claude Code, Codex CLI and Gemini CLI start it where they run)
// gets each project as its root, from one registration.
func TestServeWithoutRootServesItsDirectory(t *testing.T) {
	for _, name := range []string{"one", "two"} {
		root := testtree.New(t, map[string]string{"project.txt": "project " + name + "\n"})
		cmd := exec.Command(devbrokerBin(t), "serve", "--mcp", "--tools", "lean")
		cmd.Dir = root
		logs := &syncBuffer{}
		cmd.Stderr = logs
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "profile_test", Version: "1"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			cancel()
			t.Fatalf("connect: %v\n%s", err, logs)
		}
		res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"project.txt"}, "ops": []any{map[string]any{"step": "read_lines", "args": map[string]any{"path": "project.txt", "start": 1}}}})
		if got := decodeStructured[devResult](t, res).Reads["project.txt"]; got != "project "+name {
			t.Errorf("started in %s: read %q, want %q: %s", root, got, "project "+name, resultText(res))
		}
		cs.Close()
		cancel()
	}
}

// untrustedTools is what profile p offers in a root not trusted: every
// tool but test, whose drivers run the repository's code.
func untrustedTools(p brokermcp.Profile) []string {
	return slices.DeleteFunc(p.Tools(), func(n string) bool { return n == string(engine.StepTest) })
}
