package editor

// This file defines the requests: initialize and the devbroker/ methods.
// Each is plumbing: decode, call the session, map the answer.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"

	"github.com/bmatcuk/doublestar/v4"
	"go.lsp.dev/jsonrpc2"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/editfile"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
)

// Apply modes of devbroker/plan.
const (
	// ApplyEditor leaves the disk alone: the plan may not write, and the
	// result carries the edit for the editor to apply to its buffers.
	ApplyEditor = "editor"
	// ApplyDisk runs the plan as an agent would: write steps write the
	// disk.
	ApplyDisk = "disk"
)

// encodings maps LSP position encodings to the mapper's units.
var encodings = map[string]text.Unit{"utf-16": text.UTF16, "utf-8": text.Bytes, "utf-32": text.Chars}

func (c *conn) initialize(_ context.Context, params json.RawMessage) (any, error) {
	var p InitializeParams
	if err := decodeLoose("initialize", params, &p); err != nil {
		return nil, err
	}
	c.mu.Lock()
	if c.initialized {
		c.mu.Unlock()
		return nil, newError(jsonrpc2.InvalidRequest, fault.BadArgument, "initialize was already sent on this connection")
	}
	for _, e := range p.Capabilities.General.PositionEncodings {
		if u, ok := encodings[e]; ok {
			c.unit, c.encoding = u, e
			break
		}
	}
	c.diagnostics = p.InitializationOptions.PublishDiagnostics
	c.initialized = true
	enc, diags := c.encoding, c.diagnostics
	c.mu.Unlock()

	res := &InitializeResult{
		ServerInfo: ServerInfo{Name: "devbroker", Version: version()},
		Devbroker: Info{
			Session: c.sess.ID(), Root: c.sess.Root().Dir(),
			Steps:      c.sess.AvailableSteps(),
			Available:  wire.Available(c.sess.Root().Report()),
			ApplyModes: []string{ApplyEditor, ApplyDisk},
			Methods:    methodNames(), PublishDiagnostics: diags,
		},
	}
	res.Capabilities.PositionEncoding = enc
	res.Capabilities.TextDocumentSync = TextSyncInfo{OpenClose: true, Change: 2}
	return res, nil
}

// version is the module version devbroker was built at.
func version() string { return broker.Version() }

// planRequest is devbroker/plan's params: a plan, its apply mode and
// the client's progress token.
type planRequest struct {
	engine.PlanJSON
	Apply         json.RawMessage `json:"apply,omitempty"`
	WorkDoneToken json.RawMessage `json:"workDoneToken,omitempty"`
}

func (c *conn) plan(ctx context.Context, params json.RawMessage) (any, error) {
	// The request is decoded once, the plan with it, through the front end
	// every surface's arguments go through (engine.DecodePlanJSON); each
	// op's arguments by their step's.
	if p := bytes.TrimSpace(params); len(p) == 0 || p[0] != '{' {
		return nil, badParams("devbroker/plan", fmt.Errorf(`want an object {"paths": [...], "ops": [...], "apply": "editor" | "disk"}`))
	}
	var req planRequest
	if err := engine.DecodePlanJSON(params, &req); err != nil {
		return nil, badParams("devbroker/plan", err)
	}
	apply := ApplyEditor
	if req.Apply != nil {
		if err := json.Unmarshal(req.Apply, &apply); err != nil || (apply != ApplyEditor && apply != ApplyDisk) {
			return nil, badParams("devbroker/plan", fmt.Errorf(`apply must be "editor" or "disk", got %s`, req.Apply))
		}
	}
	if req.Paths == nil {
		req.Paths = []string{}
	}
	token, err := workDoneToken("devbroker/plan", req.WorkDoneToken)
	if err != nil {
		return nil, err
	}
	plan := req.Plan()
	if err := c.checkApply(plan, apply); err != nil {
		return nil, err
	}
	var edit *WorkspaceEdit
	pctx, endProgress := c.workDone(ctx, token, "devbroker/plan")
	res, changes, reverted := c.sess.RunChanges(pctx, plan, c.keep(apply, &edit))
	endProgress()
	out := &PlanResult{Apply: apply, Edit: edit}
	reverts := map[string]bool{}
	if reverted {
		for _, fc := range changes {
			out.Reverted = append(out.Reverted, fc.Path)
			reverts[fc.Path] = true
		}
	}
	// The protocol has no fixes (docs/editor-protocol.md): diagnostics go
	// out without them.
	out.DevResult = *wire.NewDevResult(res, c.sess.Pending(), wire.Options{OmitFixes: true})
	if c.wantDiagnostics() && slices.ContainsFunc(plan.Ops, func(op engine.Op) bool {
		return op.Step == engine.StepLint || op.Step == engine.StepCheck || op.Step == engine.StepTest
	}) {
		c.publish(ctx, slices.Concat(res.Diagnostics, res.PreExisting), reverts)
	}
	return out, nil
}

// keep decides whether a plan's effect stays in the session. A plan that is
// not ok changes nothing in the editor's view: it gets no edit to apply,
// and the session drops its changes, so the workspace keeps mirroring the
// buffers (with "disk", a plan that wrote keeps what it did). With
// "editor", an ok plan's edit goes to *edit; a plan whose changes the edit
// cannot express fails with the reason and is dropped too.
func (c *conn) keep(apply string, edit **WorkspaceEdit) func(*engine.Result, []broker.FileChange) bool {
	return func(res *engine.Result, changes []broker.FileChange) bool {
		if !res.OK {
			return false
		}
		if apply != ApplyEditor {
			return true
		}
		e, err := buildEdit(changes, c.baseOf, c.uriOf, c.unit)
		if err != nil {
			res.OK = false
			kind := fault.KindOf(err)
			res.Error = &engine.StepError{Kind: kind, Message: err.Error(), Retryable: kind.Retryable()}
			return false
		}
		*edit = e
		return true
	}
}

// checkApply refuses a plan its apply mode cannot run: with "editor", any
// write step; with "disk", a write that would put an unsaved buffer's text
// on disk behind the editor's back.
func (c *conn) checkApply(plan *engine.Plan, apply string) error {
	for i, op := range plan.Ops {
		if op.Step != engine.StepWrite {
			continue
		}
		if apply == ApplyEditor {
			return fault.New(fault.BadArgument, `step %d is write, but apply "editor" leaves the disk to the editor: drop the write step (save in the editor after applying the edit), or pass apply: "disk"`, i+1)
		}
		args, ok := op.Args.(*engine.WriteArgs)
		if !ok {
			continue // its arguments did not decode: the engine refuses the plan
		}
		var unsaved []string
		for _, b := range c.bufs {
			if selected(b.path, args.Paths) && c.dirty(b) {
				unsaved = append(unsaved, b.path)
			}
		}
		if len(unsaved) > 0 {
			sort.Strings(unsaved)
			return fault.New(fault.Conflict, "step %d (write) would write %v, which has unsaved changes in the editor: save the buffer first, or run the plan with apply \"editor\" and save in the editor", i+1, unsaved)
		}
	}
	return nil
}

// selected reports whether write's selectors (none: everything) cover path.
func selected(path string, selectors []string) bool {
	if len(selectors) == 0 {
		return true
	}
	for _, s := range selectors {
		if ok, _ := doublestar.Match(s, path); ok || s == path {
			return true
		}
	}
	return false
}

func (c *conn) wantDiagnostics() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.diagnostics
}

func (c *conn) editFile(ctx context.Context, params json.RawMessage) (any, error) {
	return c.fileCall(ctx, params, (*broker.Session).EditFile)
}

func (c *conn) readFile(ctx context.Context, params json.RawMessage) (any, error) {
	return c.fileCall(ctx, params, (*broker.Session).ReadFile)
}

func (c *conn) writeFile(ctx context.Context, params json.RawMessage) (any, error) {
	return c.fileCall(ctx, params, (*broker.Session).WriteFile)
}

// fileCall runs edit_file or a sibling, which work on the disk.
// A refusal because the file has unsaved changes in the editor says so.
func (c *conn) fileCall(ctx context.Context, params json.RawMessage, call func(*broker.Session, context.Context, []byte) (*editfile.Result, error)) (any, error) {
	if len(params) == 0 || string(params) == "null" {
		params = json.RawMessage("{}")
	}
	r, err := call(c.sess, ctx, params)
	if err != nil {
		var p struct {
			FilePath string `json:"file_path"`
		}
		_ = json.Unmarshal(params, &p)
		if rel, rerr := c.sess.Rel(p.FilePath); rerr == nil && fault.KindOf(err) == fault.Conflict {
			if b, ok := c.bufs[rel]; ok && c.dirty(b) {
				return nil, fault.Wrap(fault.Conflict, err, "%s has unsaved changes in the editor (buffer version %d), and edit_file works on the disk: save the buffer first, or use devbroker/plan with apply \"editor\"", rel, b.version)
			}
		}
		return nil, err
	}
	return wire.NewFileResult(r), nil
}

func (c *conn) probe(ctx context.Context, params json.RawMessage) (any, error) {
	var p struct {
		Reprobe bool `json:"reprobe,omitempty" jsonschema:"true: probe the drivers again and wait for the new report"`
	}
	if err := decodeStrict("devbroker/probe", params, &p); err != nil {
		return nil, err
	}
	rep := c.sess.Root().Report()
	if p.Reprobe {
		var err error
		if rep, err = c.sess.Root().Reprobe(ctx); err != nil {
			return nil, err
		}
	}
	return wire.NewProbeResult(rep, c.sess.AvailableSteps()), nil
}

func (c *conn) discard(_ context.Context, params json.RawMessage) (any, error) {
	var p struct{}
	if err := decodeStrict("devbroker/discard", params, &p); err != nil {
		return nil, err
	}
	bufs := c.bufferTexts()
	discarded, err := c.sess.DiscardKeepingBuffers(bufs)
	if err != nil {
		return nil, err
	}
	out := &DiscardResult{Discarded: append([]string{}, discarded...), Buffers: []string{}}
	for p := range bufs {
		out.Buffers = append(out.Buffers, p)
	}
	sort.Strings(out.Buffers)
	return out, nil
}

// PendingResult is devbroker/pending's result.
type PendingResult struct {
	// Unwritten lists the paths whose workspace content is not on disk.
	Unwritten []string `json:"unwritten"`
	// Buffers lists the open buffers the workspace mirrors.
	Buffers []BufferInfo `json:"buffers"`
}

// BufferInfo is one open buffer as the endpoint knows it.
type BufferInfo struct {
	Path    string `json:"path"`
	Version int32  `json:"version"`
	// Dirty says the buffer differs from the disk.
	Dirty bool `json:"dirty"`
}

func (c *conn) pending(_ context.Context, params json.RawMessage) (any, error) {
	var p struct{}
	if err := decodeStrict("devbroker/pending", params, &p); err != nil {
		return nil, err
	}
	out := &PendingResult{Unwritten: append([]string{}, c.sess.Pending()...), Buffers: []BufferInfo{}}
	for _, b := range c.bufs {
		out.Buffers = append(out.Buffers, BufferInfo{Path: b.path, Version: b.version, Dirty: c.dirty(b)})
	}
	sort.Slice(out.Buffers, func(i, j int) bool { return out.Buffers[i].Path < out.Buffers[j].Path })
	return out, nil
}
