// Package mcp is devbroker's MCP server, on the official Go SDK: the
// dev_plan tool and its steps, edit_file with read_file and write_file,
// discard and probe, over stdio or streamable HTTP.
//
// The principal type is [Server]: one root's tools, advertised from its
// probe (format, lint and check only when a working driver serves them),
// with one [broker.Session] per MCP session. [StdioTransport] is a stdio
// transport that survives malformed input; [NewHTTPHandler] serves
// streamable HTTP behind an optional bearer token.
//
// The files: server.go (the tool list and the handler plumbing), one
// tool_*.go per group of tools with their titles, descriptions and
// annotations (a tool's input schema is made from the one description of
// its arguments: the engine's step's, engine/editfile's, or, for discard
// and probe, the jsonschema tags of their parameter structs; tool_plan.go:
// dev_plan; tool_steps.go: read_lines, edit, apply_patch, write, format,
// lint, check; tool_lang.go: search and the language tools;
// tool_editfile.go: edit_file, read_file, write_file; tool_discard.go;
// tool_probe.go), args.go (input schemas from those descriptions, and
// the decoding of arguments through their front end), wire.go (the MCP-only results and their text),
// stdio.go, http.go and drain.go (graceful shutdown).
package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/fault"
)

// Options configure a [Server].
type Options struct {
	// Version is the server's version in the MCP handshake.
	Version string
	// ProgressInterval is how often a long call sends a progress
	// notification when the client asked for them (default 2s).
	ProgressInterval time.Duration
	// Logger receives the server's log; nil discards it.
	Logger *slog.Logger
	// ShutdownGrace is how long calls in flight get to answer when the
	// server shuts down, before they are cancelled (default
	// DefaultShutdownGrace).
	ShutdownGrace time.Duration
	// Tools is the profile of tools offered (default ProfileDefault).
	Tools Profile
}

// Server serves one root's tools over MCP. Every MCP session gets its own
// broker session (workspace, read tracking, undo); all of them share the
// root's drivers. It is safe for concurrent use.
type Server struct {
	mgr  *broker.Manager
	root *broker.Root
	dir  string // the root as given: sessions take paths spelled under it
	sdk  *sdk.Server
	opts Options
	log  *slog.Logger

	toolMu     sync.Mutex
	advertised map[string]bool
	kinds      []engine.Kind
	unsub      func()

	drain drainState

	sessMu   sync.Mutex
	sessions map[*sdk.ServerSession]*broker.Session
	closed   bool
}

// toolSpec is one tool: its name, the capability it needs ("" for none),
// and how to build its definition and handler.
type toolSpec struct {
	name  string
	needs engine.Kind
	build func(s *Server) (*sdk.Tool, sdk.ToolHandler)
}

// stepTools builds the tool of each step of the engine's registry.
var stepTools = map[engine.StepName]func(*Server) (*sdk.Tool, sdk.ToolHandler){
	engine.StepReadLines:   (*Server).readLinesTool,
	engine.StepEdit:        (*Server).editTool,
	engine.StepApplyPatch:  (*Server).applyPatchTool,
	engine.StepWrite:       (*Server).writeTool,
	engine.StepFormat:      (*Server).formatTool,
	engine.StepLint:        (*Server).lintTool,
	engine.StepCheck:       (*Server).checkTool,
	engine.StepTest:        (*Server).testTool,
	engine.StepSearch:      (*Server).searchTool,
	engine.StepDefinition:  (*Server).definitionTool,
	engine.StepReferences:  (*Server).referencesTool,
	engine.StepHover:       (*Server).hoverTool,
	engine.StepSymbols:     (*Server).symbolsTool,
	engine.StepRename:      (*Server).renameTool,
	engine.StepCodeActions: (*Server).codeActionsTool,
}

// tools is every tool, in the order they are listed: dev_plan, one tool per
// step of the engine's registry (needing the step's capability), then the
// rest. (A function, not a variable: the probe tool's handler lists the
// tools.)
func tools() []toolSpec {
	out := []toolSpec{{name: "dev_plan", build: (*Server).planTool}}
	for _, st := range engine.Steps() {
		out = append(out, toolSpec{name: string(st.Name), needs: st.Kind, build: stepTools[st.Name]})
	}
	return append(out,
		toolSpec{name: "discard", build: (*Server).discardTool},
		toolSpec{name: "edit_file", build: (*Server).editFileTool},
		toolSpec{name: "read_file", build: (*Server).readFileTool},
		toolSpec{name: "write_file", build: (*Server).writeFileTool},
		toolSpec{name: "probe", build: (*Server).probeTool},
	)
}

// ToolNames lists every tool the server can advertise, whatever the probe
// found.
func ToolNames() []string {
	out := make([]string, len(tools()))
	for i, t := range tools() {
		out[i] = t.name
	}
	return out
}

// New returns a Server for dir, loading (or reusing) the root's drivers
// through mgr.
func New(ctx context.Context, mgr *broker.Manager, dir string, opts Options) (*Server, error) {
	root, err := mgr.Root(ctx, dir)
	if err != nil {
		return nil, err
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, err
	}
	if opts.ProgressInterval <= 0 {
		opts.ProgressInterval = 2 * time.Second
	}
	if opts.ShutdownGrace <= 0 {
		opts.ShutdownGrace = DefaultShutdownGrace
	}
	if opts.Version == "" {
		opts.Version = broker.Version()
	}
	if _, err := ParseProfile(string(opts.Tools)); err != nil {
		return nil, err
	}
	opts.Tools = opts.Tools.orDefault()
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	s := &Server{
		mgr: mgr, root: root, dir: dir, opts: opts, log: log,
		advertised: map[string]bool{},
		sessions:   map[*sdk.ServerSession]*broker.Session{},
	}
	s.sdk = sdk.NewServer(&sdk.Implementation{Name: "devbroker", Title: "devbroker", Version: opts.Version}, &sdk.ServerOptions{
		Instructions: instructions(opts.Tools),
		Logger:       log,
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{ListChanged: true}},
	})
	s.drain.init()
	s.sdk.AddReceivingMiddleware(s.track, s.unavailable, s.listExpected) // listExpected: firstlist.go
	// Subscribed first: a probe that ends between the two is not missed.
	s.unsub = root.Subscribe(s.syncTools)
	s.syncTools()
	return s, nil
}

// instructions are the server's instructions to a model: what devbroker
// is, a three-line guide to which of the profile's tools to use, and what
// ok means. The steps that write, and the language steps, come from the
// engine's registry; only the tools the profile offers are named.
func instructions(p Profile) string {
	var quiet, mutating, asks, unwritten, planOnly []string
	for _, st := range engine.Steps() {
		name := string(st.Name)
		if !p.Offers(name) {
			planOnly = append(planOnly, name)
		}
		switch {
		case !p.Offers(name), st.Name == engine.StepSearch, st.Name == engine.StepWrite:
		case st.Mutates:
			mutating = append(mutating, name)
		case st.Unwritten:
			unwritten = append(unwritten, name)
		case slices.Contains(engine.LanguageKinds(), st.Kind):
			asks = append(asks, name)
		default:
			quiet = append(quiet, name)
		}
	}
	var b strings.Builder
	b.WriteString(`devbroker reads, changes and checks the files of one project directory (the root) with real tools: formatters, linters, type checkers and language servers. Nothing outside the root is reachable.
Which tools to use:
1. To change code and see whether it still builds before anything is written, use dev_plan: it edits an in-memory copy of the files (paths relative to the root) and runs lint and check on that copy; only a write step puts the changes on disk, and discard drops them.`)
	if len(planOnly) > 0 {
		b.WriteString(" dev_plan also runs the steps that have no tool of their own here: " + list(planOnly, "and") + ".")
	}
	b.WriteString("\n")
	var files []string
	for _, name := range []string{"edit_file", "read_file", "write_file"} {
		if p.Offers(name) {
			files = append(files, name)
		}
	}
	if len(files) > 0 {
		b.WriteString("2. For a quick change by exact text, use " + list(files, "and") + ": on the files on disk by absolute path, written at once; view a file before you change it.\n")
	} else {
		b.WriteString("2. Read, search and edit files with your own tools, on disk; then check the files you changed (check with their paths).\n")
	}
	var single []string
	switch len(quiet) {
	case 0:
	case 1:
		single = append(single, quiet[0]+" changes nothing")
	default:
		single = append(single, list(quiet, "and")+" change nothing")
	}
	if p.Offers(string(engine.StepWrite)) {
		single = append(single, "write puts the in-memory changes on disk")
	}
	if p.Offers(string(engine.StepSearch)) {
		single = append(single, "search finds text in every file (unwritten changes included)")
	}
	if len(mutating) > 0 {
		single = append(single, list(mutating, "and")+" write the files they changed when they succeed")
	}
	if len(asks) > 0 {
		single = append(single, list(asks, "and")+" find and explain code through the language server (point at it with symbol, a name or Type.Method, instead of columns)")
	}
	if len(unwritten) > 0 {
		single = append(single, list(unwritten, "and")+" change only the in-memory copy: dev_plan with rename, check, write is the safe rename")
	}
	b.WriteString("3. The single-step tools do one dev_plan step each: " + strings.Join(single, "; ") + ".\n")
	b.WriteString("ok is true only when no finding is an error and every tool answered completely; error findings are the answer, not a failure. format, lint, check and the language steps need a working tool: those without one are unavailable (their tools are not listed), and probe says which work and why the others do not.")
	return b.String()
}

// list joins words as prose: "a, b and c".
func list(words []string, conj string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + conj + " " + words[len(words)-1]
}

// Root is the root the server serves.
func (s *Server) Root() *broker.Root { return s.root }

// SDK is the underlying SDK server.
func (s *Server) SDK() *sdk.Server { return s.sdk }

// Tools lists the tools advertised now, in listing order.
func (s *Server) Tools() []string {
	s.toolMu.Lock()
	defer s.toolMu.Unlock()
	var out []string
	for _, t := range tools() {
		if s.advertised[t.name] {
			out = append(out, t.name)
		}
	}
	return out
}

// syncTools advertises exactly the tools the root's drivers support. The
// SDK tells connected clients when the list changes.
func (s *Server) syncTools() {
	s.toolMu.Lock()
	defer s.toolMu.Unlock()
	kinds := s.root.Kinds()
	kindsChanged := !slices.Equal(kinds, s.kinds)
	want := map[string]bool{}
	for _, t := range tools() {
		// A step whose tool is not built yet is not advertised
		// (TestEveryStepHasATool names it).
		if t.build != nil && s.opts.Tools.Offers(t.name) && (t.needs == "" || slices.Contains(kinds, t.needs)) {
			want[t.name] = true
		}
	}
	var remove []string
	for name := range s.advertised {
		if !want[name] {
			remove = append(remove, name)
		}
	}
	if len(remove) > 0 {
		sort.Strings(remove)
		s.sdk.RemoveTools(remove...)
	}
	s.kinds = kinds
	for _, t := range tools() {
		// dev_plan's description and step list depend on the kinds.
		if want[t.name] && (!s.advertised[t.name] || (t.name == "dev_plan" && kindsChanged)) {
			s.sdk.AddTool(s.build(t))
		}
	}
	s.advertised = want
	s.log.Info("tools advertised", "root", s.root.Dir(), "kinds", kinds, "removed", remove)
}

// build builds a tool of the server's profile: without its output schema
// unless the profile declares them (see Profile.outputSchemas).
func (s *Server) build(t toolSpec) (*sdk.Tool, sdk.ToolHandler) {
	tool, h := t.build(s)
	if !s.opts.Tools.outputSchemas() {
		tool.OutputSchema = nil
	}
	return tool, h
}

// offers reports whether the server's profile offers the tool name.
func (s *Server) offers(name string) bool { return s.opts.Tools.Offers(name) }

// ifOffered is text when the server's profile offers the tool name, and
// "" when not: a description names only tools the client is offered.
func (s *Server) ifOffered(name, text string) string {
	if s.offers(name) {
		return text
	}
	return ""
}

// availableSteps lists the plan steps available on the root now.
func (s *Server) availableSteps() []string { return engine.AvailableSteps(s.root) }

// unavailable answers a call to a capability tool that is not advertised.
// When a driver not probed yet may serve it (the probe runs in the
// background after the server answers initialize), the tool runs, and
// its step waits for its language's probe. Otherwise the answer is a tool
// error that says not to retry and lists what is available, instead of
// the protocol's bare "unknown tool".
func (s *Server) unavailable(next sdk.MethodHandler) sdk.MethodHandler {
	return func(ctx context.Context, method string, req sdk.Request) (sdk.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		cr, ok := req.(*sdk.CallToolRequest)
		if !ok || cr.Params == nil {
			return next(ctx, method, req)
		}
		name := cr.Params.Name
		if !s.offers(name) && slices.Contains(ToolNames(), name) {
			return s.notOffered(name), nil
		}
		st, ok := engine.LookupStep(engine.StepName(name))
		if !ok || st.Kind == "" {
			return next(ctx, method, req)
		}
		s.toolMu.Lock()
		on := s.advertised[name]
		s.toolMu.Unlock()
		if on {
			return next(ctx, method, req)
		}
		if s.root.Has(st.Kind) {
			// A driver not probed yet may serve it: the step waits for
			// its language's probe, as any request does, and answers.
			return s.callUnlisted(ctx, name, cr)
		}
		why := "no working driver is configured for it (see the probe tool); do not retry"
		if w := s.root.Unavailable(st.Kind); w != "" {
			why = "no working driver serves it: " + w + ". Do what that says (install what is missing, or trust the root), then call the probe tool; until then do not retry"
		}
		err := fault.New(fault.Unavailable, "%s is unavailable: %s. Available steps: %s", name, why, strings.Join(s.availableSteps(), ", "))
		r := &engine.Result{Error: &engine.StepError{Step: 1, Name: name, Kind: fault.Unavailable, Message: err.Error()}}
		return devToolResult(r, nil, false), nil
	}
}

// notOffered answers a call of a tool of devbroker's that the server's
// profile does not offer: a tool error (not the protocol's bare "unknown
// tool") saying what to call instead. A step runs through dev_plan in
// every profile.
func (s *Server) notOffered(name string) *sdk.CallToolResult {
	instead := "start the server with --tools full to have it"
	_, step := engine.LookupStep(engine.StepName(name))
	switch {
	case step:
		instead = fmt.Sprintf(`run it as a step of dev_plan, {"ops": [{"step": %q, "args": {...}}]} (its arguments are those dev_plan's description lists), or %s`, name, instead)
	case !s.offers("edit_file"):
		instead = "use your own file tools, or " + instead
	case name == "read_file":
		instead = "edit_file's view command reads a file, with line numbers and its revision; or " + instead
	case name == "write_file":
		instead = "dev_plan's apply_patch step creates a file ('*** Add File: path') or changes one ('*** Update File: path'), and its write step writes it; or " + instead
	}
	err := fault.New(fault.Unavailable, "%s is not one of this server's tools (its %s tool set offers %s): %s", name, s.opts.Tools, strings.Join(s.opts.Tools.Tools(), ", "), instead)
	return errorResult(name, err)
}

// callUnlisted runs the handler of a tool the probe has not advertised
// yet: a client that calls check or definition right after it connects
// gets the answer, not "unavailable".
func (s *Server) callUnlisted(ctx context.Context, name string, cr *sdk.CallToolRequest) (sdk.Result, error) {
	for _, t := range tools() {
		if t.name == name {
			_, h := s.build(t)
			return h(ctx, cr)
		}
	}
	return nil, fmt.Errorf("no tool %q", name)
}

// session returns the broker session of an MCP session, opening it on
// first use. It ends when the MCP session does, and closes the MCP session
// when it ends first (idle timeout, shutdown).
func (s *Server) session(ctx context.Context, ss *sdk.ServerSession) (*broker.Session, error) {
	s.sessMu.Lock()
	if s.closed {
		s.sessMu.Unlock()
		return nil, broker.ErrClosed
	}
	if bs, ok := s.sessions[ss]; ok {
		s.sessMu.Unlock()
		return bs, nil
	}
	s.sessMu.Unlock()
	// Open outside the lock: the first session on a root loads and probes
	// its drivers, and other MCP sessions must not wait for that.
	bs, err := s.mgr.Open(ctx, s.dir)
	if err != nil {
		return nil, err
	}
	s.sessMu.Lock()
	if s.closed {
		s.sessMu.Unlock()
		bs.Close()
		return nil, broker.ErrClosed
	}
	if other, ok := s.sessions[ss]; ok {
		// Two first calls of one MCP session raced: keep the first.
		s.sessMu.Unlock()
		bs.Close()
		return other, nil
	}
	s.sessions[ss] = bs
	s.sessMu.Unlock()
	// Registered after the lock is released: OnClose runs fn at once when
	// the session has already ended, and fn takes the lock.
	bs.OnClose(func() {
		s.sessMu.Lock()
		if s.sessions[ss] == bs {
			delete(s.sessions, ss)
		}
		s.sessMu.Unlock()
		ss.Close()
	})
	go func() {
		ss.Wait()
		bs.Close()
	}()
	s.log.Info("mcp session bound", "mcp_session", ss.ID(), "session", bs.ID())
	return bs, nil
}

// Sessions returns how many MCP sessions have a broker session.
func (s *Server) Sessions() int {
	s.sessMu.Lock()
	defer s.sessMu.Unlock()
	return len(s.sessions)
}

// Close ends every session of this server and stops following the root's
// probe. It does not close the manager.
func (s *Server) Close() {
	s.sessMu.Lock()
	s.closed = true
	var bss []*broker.Session
	for _, bs := range s.sessions {
		bss = append(bss, bs)
	}
	s.sessMu.Unlock()
	for _, bs := range bss {
		bs.Close()
	}
	if s.unsub != nil {
		s.unsub()
	}
}

// handler wraps a tool's body: it binds the broker session, turns a panic
// into an internal tool error (the server keeps going), and logs the call.
func (s *Server) handler(name string, body func(ctx context.Context, req *sdk.CallToolRequest, bs *broker.Session) *sdk.CallToolResult) sdk.ToolHandler {
	return func(ctx context.Context, req *sdk.CallToolRequest) (res *sdk.CallToolResult, err error) {
		start := time.Now()
		defer func() {
			if p := recover(); p != nil {
				s.log.Error("tool panicked", "tool", name, "panic", p, "stack", string(debug.Stack()))
				res = failure(name, fault.New(fault.Internal, "%s failed inside devbroker (a bug; please report it): %v", name, p))
			}
			s.log.Debug("tool call", "tool", name, "took", time.Since(start), "error", res != nil && res.IsError)
		}()
		bs, err := s.session(ctx, req.Session)
		if errors.Is(err, broker.ErrClosed) {
			err = fault.Wrap(fault.Unavailable, err, "%s was not run: the server is shutting down or this session was closed; reconnect to a running server and call it again", name)
		}
		if err != nil {
			return failure(name, err), nil
		}
		ctx, endProgress := s.relay(ctx, req) // progress.go
		defer endProgress()
		return body(ctx, req, bs), nil
	}
}

// failure is the answer of a call of the tool name that failed before or
// outside its work (its session, a panic, shutdown): a tool error whose
// structured content is a shape the tool's output schema admits, since
// clients validate a tool error's structured content too (the TypeScript
// SDK's does). dev_plan and the step tools answer a DevResult whose error
// is the failure (step 0); the other tools a wire.Failure (errorResult).
func failure(name string, err error) *sdk.CallToolResult {
	if name == "dev_plan" {
		return devToolResult(failedResult("", err), nil, true)
	}
	if _, ok := engine.LookupStep(engine.StepName(name)); ok {
		return devToolResult(failedResult(name, err), nil, false)
	}
	return errorResult(name, err)
}

// errorResult is the failure of a tool that is not dev_plan or a step
// tool (edit_file, read_file, write_file, discard, probe): a tool error
// whose text is the failure's line (kind, whether to retry, the whole
// message) and whose structured content is the one failure shape,
// wire.Failure, which those tools' output schemas admit (resultOrFailure).
func errorResult(name string, err error) *sdk.CallToolResult {
	e := wire.NewError(err)
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: failedLine(name, e.Kind, e.Retryable, e.Message)}},
		StructuredContent: &wire.Failure{Error: e},
		IsError:           true,
	}
}

// devToolResult is the answer of dev_plan (plan true) and the step tools:
// the DevResult as text and structured content; a failed step is a tool
// error, except a lint or check that failed on error findings (kind
// diagnostics): findings are the answer, and the result still says ok
// false and where the plan stopped. A step tool's text speaks of its step,
// not of a plan.
func devToolResult(r *engine.Result, unwritten []string, plan bool) *sdk.CallToolResult {
	dr := wire.NewDevResult(r, unwritten, wire.Options{})
	return &sdk.CallToolResult{
		Content:           []sdk.Content{&sdk.TextContent{Text: devResultText(dr, plan)}},
		StructuredContent: dr,
		IsError:           dr.Error != nil && dr.Error.Kind != string(fault.Diagnostics),
	}
}

// failedResult is the result of a call whose arguments were refused.
func failedResult(name string, err error) *engine.Result {
	k := fault.KindOf(err)
	return &engine.Result{Error: &engine.StepError{Step: 0, Name: name, Kind: k, Message: err.Error(), Retryable: k.Retryable()}}
}

// ServeStdio serves one MCP session over t until the client disconnects or
// ctx is cancelled. When the input ends, the calls already read answer
// first (see [Server.Drain]). On cancellation it drains (see [Server.Drain]): the
// calls in flight answer, or are cancelled and answer, before the session
// closes; it then returns ctx's error.
func (s *Server) ServeStdio(ctx context.Context, t *StdioTransport) error {
	t.answers = s.drain.answers.Add
	t.atEnd = func() {
		// The client closed its end: the calls it sent answer first,
		// within the grace period; then the rest are cancelled, as on
		// shutdown.
		if s.drain.answers.Wait(s.opts.ShutdownGrace) {
			return
		}
		if !s.Drain(0) {
			s.log.Warn("input ended: some calls did not answer")
		}
	}
	ss, err := s.sdk.Connect(context.Background(), t, nil)
	if err != nil {
		return err
	}
	ended := make(chan error, 1)
	go func() { ended <- ss.Wait() }()
	select {
	case err := <-ended:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down", "grace", s.opts.ShutdownGrace)
	if !s.Drain(s.opts.ShutdownGrace) {
		s.log.Warn("shutting down: some calls did not answer")
	}
	ss.Close()
	<-ended
	return ctx.Err()
}

// ShutdownGrace is the grace period of [Server.Drain] on shutdown.
func (s *Server) ShutdownGrace() time.Duration { return s.opts.ShutdownGrace }
