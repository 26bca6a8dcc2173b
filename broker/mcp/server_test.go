package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// fakeDrivers serves the kinds in has; check blocks until released or
// cancelled when block is set, and panics when panics is.
type fakeDrivers struct {
	has    map[engine.Kind]bool
	block  chan struct{} // nil: answer at once
	panics bool          // Run panics (fault injection)
	closed atomic.Bool
}

func (f *fakeDrivers) Has(k engine.Kind) bool { return f.has[k] }

func (f *fakeDrivers) Run(ctx context.Context, req engine.Request) (*engine.Response, error) {
	if f.panics {
		panic("injected: the driver panicked")
	}
	if f.block != nil {
		select {
		case <-f.block:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	resp := &engine.Response{Drivers: []engine.DriverStatus{{Driver: "fake", Status: engine.StatusOK}}}
	for _, p := range req.Changed {
		resp.Diagnostics = append(resp.Diagnostics, engine.Diagnostic{
			Path: p, Line: 1, Column: 1, EndLine: 1, EndColumn: 2,
			Severity: engine.SeverityError, Source: "fake", Message: "changed and unwritten",
		})
	}
	return resp, nil
}

func (f *fakeDrivers) Report() *capabilities.Report {
	r := &capabilities.Report{Available: map[engine.Kind][]string{}}
	for k, ok := range f.has {
		if ok {
			r.Available[k] = []string{"fake"}
		}
	}
	return r
}

func (f *fakeDrivers) Close() error { f.closed.Store(true); return nil }

// loaderOf returns a loader that serves whatever *next holds at load time.
func loaderOf(next *atomic.Pointer[fakeDrivers], loads *atomic.Int32) broker.Loader {
	return func(context.Context, string, broker.Drivers) (broker.Drivers, error) {
		loads.Add(1)
		d := next.Load()
		if d == nil {
			return nil, nil
		}
		return d, nil
	}
}

type harness struct {
	t    *testing.T
	root string
	mgr  *broker.Manager
	srv  *Server
	next atomic.Pointer[fakeDrivers]
	load atomic.Int32
}

// newHarness serves files with drivers d and the full profile, one tool
// per step: most tests here call each step's own tool.
func newHarness(t *testing.T, d *fakeDrivers, files map[string]string) *harness {
	t.Helper()
	return newHarnessWith(t, ProfileFull, d, files)
}

// newHarnessWith serves files with drivers d and the tools of profile p.
func newHarnessWith(t *testing.T, p Profile, d *fakeDrivers, files map[string]string) *harness {
	t.Helper()
	h := &harness{t: t, root: t.TempDir()}
	testtree.Write(t, h.root, files)
	h.next.Store(d)
	h.mgr = broker.NewManager(broker.Options{Load: loaderOf(&h.next, &h.load)})
	t.Cleanup(func() { h.mgr.Close() })
	srv, err := New(context.Background(), h.mgr, h.root, Options{ProgressInterval: 20 * time.Millisecond, Tools: p})
	if err != nil {
		t.Fatal(err)
	}
	h.srv = srv
	t.Cleanup(srv.Close)
	return h
}

// connect opens a client session over in-memory transports.
func (h *harness) connect(opts *sdk.ClientOptions) *sdk.ClientSession {
	h.t.Helper()
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := h.srv.SDK().Connect(ctx, st, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { ss.Close() })
	c := sdk.NewClient(&sdk.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := c.Connect(ctx, ct, nil)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { cs.Close() })
	return cs
}

func (h *harness) read(name string) string {
	h.t.Helper()
	b, err := os.ReadFile(filepath.Join(h.root, name))
	if err != nil {
		h.t.Fatal(err)
	}
	return string(b)
}

func call(t *testing.T, cs *sdk.ClientSession, name string, args any) *sdk.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	return res
}

func text(r *sdk.CallToolResult) string {
	var b strings.Builder
	for _, c := range r.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func structured[T any](t *testing.T, r *sdk.CallToolResult) T {
	t.Helper()
	var v T
	b, err := json.Marshal(r.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("structured content %s: %v", b, err)
	}
	return v
}

func toolNames(t *testing.T, cs *sdk.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	sort.Strings(names)
	return names
}

func TestToolsFollowTheProbe(t *testing.T) {
	h := newHarness(t, nil, map[string]string{"a.txt": "one\n"})
	listChanged := make(chan struct{}, 64)
	cs := h.connect(&sdk.ClientOptions{ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
		select {
		case listChanged <- struct{}{}:
		default:
		}
	}})

	base := []string{"apply_patch", "dev_plan", "discard", "edit", "edit_file", "probe", "read_file", "read_lines", "search", "write", "write_file"}
	if got := toolNames(t, cs); !slices.Equal(got, base) {
		t.Fatalf("without drivers: tools %v, want %v", got, base)
	}
	// An unadvertised capability tool is a tool error: unavailable, not retryable, listing the steps.
	res := call(t, cs, "check", map[string]any{})
	if !res.IsError || !strings.Contains(text(res), "check is unavailable") || !strings.Contains(text(res), "Available steps: read_lines, edit, apply_patch, write") {
		t.Fatalf("check without a driver: %v %q", res.IsError, text(res))
	}
	dr := structured[wire.DevResult](t, res)
	if dr.Error == nil || dr.Error.Kind != "unavailable" || dr.Error.Retryable {
		t.Fatalf("check without a driver: error %+v", dr.Error)
	}
	// So is a plan naming it.
	res = call(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{map[string]any{"step": "lint"}}})
	if dr := structured[wire.DevResult](t, res); !res.IsError || dr.Error.Kind != "unavailable" || dr.Error.Retryable {
		t.Fatalf("plan with lint: %+v", dr.Error)
	}

	// A driver appears; probe re-probes, the list changes and the client is told.
	h.next.Store(&fakeDrivers{has: map[engine.Kind]bool{engine.Check: true, engine.Lint: true}})
	res = call(t, cs, "probe", map[string]any{})
	if res.IsError {
		t.Fatalf("probe: %s", text(res))
	}
	pr := structured[wire.ProbeResult](t, res)
	if !slices.Contains(pr.Steps, "check") || slices.Contains(pr.Steps, "format") {
		t.Fatalf("probe steps %v", pr.Steps)
	}
	if !strings.Contains(text(res), "tools: ") || !strings.Contains(text(res), "check") {
		t.Fatalf("probe text lists no tools: %s", text(res))
	}
	want := append(slices.Clone(base), "check", "lint")
	sort.Strings(want)
	if got := toolNames(t, cs); !slices.Equal(got, want) {
		t.Fatalf("with check and lint: tools %v, want %v", got, want)
	}
	<-listChanged // the client is told (the test's timeout if never)

	// And goes away again.
	h.next.Store(nil)
	call(t, cs, "probe", map[string]any{})
	if got := toolNames(t, cs); !slices.Equal(got, base) {
		t.Fatalf("after the driver went: tools %v", got)
	}
}

func TestPlanAcrossCallsAndDiscard(t *testing.T) {
	h := newHarness(t, &fakeDrivers{has: map[engine.Kind]bool{engine.Check: true}}, map[string]string{"a.txt": "one\ntwo\nthree\n"})
	cs := h.connect(nil)

	// Edit in one call: the workspace changes, the disk does not.
	res := call(t, cs, "dev_plan", map[string]any{
		"paths": []string{"a.txt"},
		"ops":   []any{map[string]any{"step": "edit", "args": map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "two", "replace": "TWO"}}}}},
	})
	dr := structured[wire.DevResult](t, res)
	if res.IsError || !dr.OK || !slices.Equal(dr.Unwritten, []string{"a.txt"}) {
		t.Fatalf("edit: %s", text(res))
	}
	if got := h.read("a.txt"); got != "one\ntwo\nthree\n" {
		t.Fatalf("disk changed before write: %q", got)
	}
	// Check in a second: diagnostics describe the workspace; findings are not a tool error.
	res = call(t, cs, "check", map[string]any{})
	dr = structured[wire.DevResult](t, res)
	if res.IsError || dr.OK || len(dr.Diagnostics) != 1 || dr.Diagnostics[0].Path != "a.txt" {
		t.Fatalf("check: isError=%v %s", res.IsError, text(res))
	}
	// edit_file refuses the file while the workspace holds unwritten changes to it.
	abs := filepath.Join(h.root, "a.txt")
	if res := call(t, cs, "edit_file", map[string]any{"command": "view", "file_path": abs}); res.IsError {
		t.Fatalf("view: %s", text(res))
	}
	res = call(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": abs, "old_str": "one", "new_str": "ONE"})
	if !res.IsError || !strings.Contains(text(res), "unwritten") {
		t.Fatalf("edit_file over unwritten changes: %v %q", res.IsError, text(res))
	}
	// Discard drops them; the disk never changed.
	res = call(t, cs, "discard", map[string]any{})
	if d := structured[DiscardResult](t, res); !slices.Equal(d.Discarded, []string{"a.txt"}) {
		t.Fatalf("discard: %s", text(res))
	}
	res = call(t, cs, "read_lines", map[string]any{"path": "a.txt", "start": 2, "end": 2})
	if dr := structured[wire.DevResult](t, res); dr.Reads["a.txt"] != "two" {
		t.Fatalf("after discard: %s", text(res))
	}
	// Now edit_file works, and so does undo.
	res = call(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": abs, "old_str": "one", "new_str": "ONE"})
	if res.IsError || h.read("a.txt") != "ONE\ntwo\nthree\n" {
		t.Fatalf("str_replace: %s", text(res))
	}
	res = call(t, cs, "edit_file", map[string]any{"command": "undo_edit", "file_path": abs})
	if res.IsError || h.read("a.txt") != "one\ntwo\nthree\n" {
		t.Fatalf("undo: %s", text(res))
	}
}

func TestGranularStepsPersist(t *testing.T) {
	h := newHarness(t, nil, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "bee\n"})
	cs := h.connect(nil)
	// An unwritten change to b.txt from a plan...
	call(t, cs, "dev_plan", map[string]any{"paths": []string{"b.txt"}, "ops": []any{map[string]any{"step": "edit", "args": map[string]any{"path": "b.txt", "edits": []any{map[string]any{"find": "bee", "replace": "BEE"}}}}}})
	// ...then a granular edit of a.txt: a.txt is written, b.txt is not.
	res := call(t, cs, "edit", map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "two", "replace": "2"}}})
	dr := structured[wire.DevResult](t, res)
	if res.IsError || !slices.Equal(dr.Written, []string{"a.txt"}) || !slices.Equal(dr.Unwritten, []string{"b.txt"}) {
		t.Fatalf("edit: %s", text(res))
	}
	if h.read("a.txt") != "one\n2\n" || h.read("b.txt") != "bee\n" {
		t.Fatalf("disk: %q %q", h.read("a.txt"), h.read("b.txt"))
	}
	// A patch that adds and moves files writes them all.
	patch := "*** Begin Patch\n*** Add File: c.txt\n+sea\n*** Update File: a.txt\n*** Move to: d.txt\n@@\n one\n-2\n+two\n*** End Patch\n"
	res = call(t, cs, "apply_patch", map[string]any{"patch": patch})
	dr = structured[wire.DevResult](t, res)
	if res.IsError || !slices.Equal(dr.Written, []string{"d.txt", "c.txt"}) && !slices.Equal(dr.Written, []string{"c.txt", "d.txt"}) {
		t.Fatalf("apply_patch: %s", text(res))
	}
	if h.read("c.txt") != "sea\n" || h.read("d.txt") != "one\ntwo\n" {
		t.Fatal("patch not on disk")
	}
	if _, err := os.Stat(filepath.Join(h.root, "a.txt")); !os.IsNotExist(err) {
		t.Fatal("a.txt still on disk after the move")
	}
	// A failed edit changes nothing and is a tool error with the seed's sentence.
	res = call(t, cs, "edit", map[string]any{"path": "c.txt", "edits": []any{map[string]any{"find": "se", "replace": "x"}}})
	if !res.IsError || !strings.Contains(text(res), "the patch could not be applied cleanly to the source text") || h.read("c.txt") != "sea\n" {
		t.Fatalf("sub-line edit: %v %q", res.IsError, text(res))
	}
}

func TestBadArgumentsAreToolErrors(t *testing.T) {
	h := newHarness(t, nil, map[string]string{"a.txt": "one\n"})
	cs := h.connect(nil)
	cases := []struct {
		tool string
		args any
		want string
	}{
		{"edit", map[string]any{"path": 5, "edits": []any{}}, "path must be a string"},
		{"edit", map[string]any{"path": "a.txt", "edits": []any{}}, "edits is empty"},
		{"edit", map[string]any{"path": "a.txt", "edit": []any{}}, `unknown argument "edit"; the arguments are: path (required), edits (required)`},
		{"read_lines", map[string]any{"path": "a.txt", "start": 1.5}, "start must be an integer"},
		{"read_lines", map[string]any{"path": "a.txt"}, "start is required (an integer): the first line to read, 1-based"},
		{"read_lines", map[string]any{"path": "a.txt", "start": 3}, "1 line"},
		{"dev_plan", map[string]any{"ops": []any{map[string]any{"step": "frobnicate"}}}, `unknown step "frobnicate"`},
		{"dev_plan", map[string]any{"ops": "nope"}, "ops must be an array"},
		{"edit_file", map[string]any{"command": "view", "file_path": "a.txt"}, "absolute"},
		{"edit_file", map[string]any{"command": "view", "file_path": filepath.Join(h.root, "a.txt"), "bogus": 1}, "bogus"},
		{"edit_file", map[string]any{"file_path": filepath.Join(h.root, "a.txt")}, "command"},
	}
	for _, c := range cases {
		res := call(t, cs, c.tool, c.args)
		if !res.IsError || !strings.Contains(text(res), c.want) {
			t.Errorf("%s %v: isError=%v %q, want it to mention %q", c.tool, c.args, res.IsError, text(res), c.want)
		}
	}
	if h.read("a.txt") != "one\n" {
		t.Fatal("disk changed")
	}
	// An unknown tool is a protocol error.
	if _, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: "frobnicate"}); err == nil || !strings.Contains(err.Error(), "unknown tool") {
		t.Fatalf("unknown tool: %v", err)
	}
}

func TestLongCheckProgressAndCancel(t *testing.T) {
	d := &fakeDrivers{has: map[engine.Kind]bool{engine.Check: true}, block: make(chan struct{})}
	h := newHarness(t, d, map[string]string{"a.txt": "one\n"})
	progress := make(chan string, 64)
	cs := h.connect(&sdk.ClientOptions{ProgressNotificationHandler: func(_ context.Context, r *sdk.ProgressNotificationClientRequest) {
		select {
		case progress <- r.Params.Message:
		default:
		}
	}})
	ctx, cancel := context.WithCancel(context.Background())
	params := &sdk.CallToolParams{Name: "check", Arguments: map[string]any{"paths": []string{"a.txt"}}}
	params.SetProgressToken("tok")
	done := make(chan error, 1)
	go func() { _, err := cs.CallTool(ctx, params); done <- err }()
	<-progress // two progress notifications: the call is running
	<-progress
	cancel()
	if err := <-done; err == nil {
		t.Fatal("cancelled call returned no error")
	}
	// The server cancelled the check: the session serves the next call.
	close(d.block)
	res := call(t, cs, "check", map[string]any{})
	if res.IsError {
		t.Fatalf("check after cancel: %s", text(res))
	}
}

// TestEveryParameterIsDocumented fails when a tool's input schema has a
// property without a description.
func TestEveryParameterIsDocumented(t *testing.T) {
	tools, _ := listTools(t, allKinds()...)
	if len(tools) != len(ToolNames()) {
		t.Fatalf("%d tools listed, want all %d", len(tools), len(ToolNames()))
	}
	for _, tl := range tools {
		if tl.Description == "" {
			t.Errorf("%s has no description", tl.Name)
		}
		var walk func(path string, s map[string]any)
		walk = func(path string, s map[string]any) {
			props, _ := s["properties"].(map[string]any)
			for name, p := range props {
				pm := p.(map[string]any)
				if d, _ := pm["description"].(string); d == "" {
					t.Errorf("%s: parameter %s%s has no description", tl.Name, path, name)
				}
				if items, ok := pm["items"].(map[string]any); ok {
					walk(path+name+"[].", items)
				}
			}
		}
		walk("", tl.InputSchema.(map[string]any))
	}
}

// A server started on a symlinked root takes edit_file paths spelled the
// way the root was given.
func TestEditFileUnderASymlinkedRoot(t *testing.T) {
	real := t.TempDir()
	if err := os.WriteFile(filepath.Join(real, "a.txt"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	mgr := broker.NewManager(broker.Options{})
	t.Cleanup(func() { mgr.Close() })
	srv, err := New(context.Background(), mgr, link, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	h := &harness{t: t, root: link, mgr: mgr, srv: srv}
	cs := h.connect(nil)
	abs := filepath.Join(link, "a.txt")
	if res := call(t, cs, "edit_file", map[string]any{"command": "view", "file_path": abs}); res.IsError {
		t.Fatalf("view: %s", text(res))
	}
	res := call(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": abs, "old_str": "one", "new_str": "ONE"})
	if res.IsError || h.read("a.txt") != "ONE\n" {
		t.Fatalf("str_replace: %s", text(res))
	}
}
