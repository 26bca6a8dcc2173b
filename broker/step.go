package broker

// This file defines [Session.Step]: one workspace step called on its own
// (the granular tools), which acquires what the step names and, when the
// step changes files, writes them before it returns.

import (
	"context"
	"slices"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// StepRequest is one step called on its own.
type StepRequest struct {
	// Args are the step's typed arguments, which name the step (see
	// engine.Steps); the caller decoded them, the broker decodes nothing.
	Args engine.Args
	// Label keys a read_lines result (default: the path).
	Label string
	// Acquire names more files to acquire first (paths or globs). The
	// files a step names itself (see engine.Named) are acquired without
	// being listed here.
	Acquire []string
}

// Step runs one step on its own. The files it names are acquired first (a
// file the workspace already holds keeps its unwritten changes, and is read
// again from disk when it has none). When
// the step changed files (edit, apply_patch, format, lint with fix), the
// files it changed are written before Step returns, as if the plan were the
// step followed by `write` of those files; unwritten changes the session
// made earlier to other files stay unwritten. The result merges both: its
// error names the write as step 2 when the write failed. A step that
// changes the workspace only (engine.Step.Unwritten: rename, code_actions)
// is never followed by a write: its change waits for one, so that it can
// be checked first.
func (s *Session) Step(ctx context.Context, req StepRequest) *engine.Result {
	var name engine.StepName
	if req.Args != nil {
		name = req.Args.Step()
	}
	ctx = s.ready(ctx, []engine.Op{{Step: name, Args: req.Args}}, req.Acquire)
	var res *engine.Result
	err := s.call(func() error {
		res = s.step(ctx, req)
		return nil
	})
	if err != nil {
		return failed(err)
	}
	return res
}

func (s *Session) step(ctx context.Context, req StepRequest) *engine.Result {
	ws := s.eng.Workspace()
	acquire := append(s.named(req), req.Acquire...)
	before := snapshot(s)
	var name engine.StepName
	if req.Args != nil {
		name = req.Args.Step()
	}
	plan := &engine.Plan{Paths: acquire, Ops: []engine.Op{{Step: name, Args: req.Args, Label: req.Label}}}
	if plan.Paths == nil {
		plan.Paths = []string{}
	}
	res := s.eng.Run(ctx, plan)
	if step, ok := engine.LookupStep(name); res.Error != nil || !ok || !step.Mutates || step.Unwritten {
		return res
	}
	changed := changedSince(before, s)
	unwritten := ws.Unwritten()
	var sel []string
	for _, p := range changed {
		if _, ok := slices.BinarySearch(unwritten, p); ok {
			sel = append(sel, p)
		}
	}
	if len(sel) == 0 {
		return res
	}
	write := engine.Op{Step: engine.StepWrite, Args: &engine.WriteArgs{Paths: sel}}
	wr := s.eng.Run(ctx, &engine.Plan{Paths: []string{}, Ops: []engine.Op{write}})
	res.Written = wr.Written
	res.Merged = wr.Merged
	res.Changes = wr.Changes
	if wr.Error != nil {
		e := *wr.Error
		e.Step = 2
		res.Error = &e
		res.OK = false
	}
	return res
}

// named lists the files req's step names that must be acquired (the
// registry's engine.Named): every one but those the workspace deleted or
// moved away (re-acquiring them would bring them back). A held file is
// acquired again so that it follows the disk: read again when it has no
// unwritten change and changed on disk, reported stale when it has.
func (s *Session) named(req StepRequest) []string {
	ws := s.eng.Workspace()
	var out []string
	for _, p := range engine.Named(req.Args) {
		if p == "" {
			continue
		}
		if _, held := ws.Doc(p); !held {
			if _, pending := ws.Pending(p); pending {
				continue
			}
		}
		out = append(out, p)
	}
	return out
}

// snapshot records the workspace's documents. Documents are immutable
// values, so this copies pointers, not text.
func snapshot(s *Session) map[string]*text.Doc {
	ws := s.eng.Workspace()
	out := make(map[string]*text.Doc, ws.Len())
	for _, p := range ws.Paths() {
		d, _ := ws.Doc(p)
		out[p] = d
	}
	return out
}

// changedSince lists the paths whose content the last step changed, added
// or removed, sorted.
func changedSince(before map[string]*text.Doc, s *Session) []string {
	after := snapshot(s)
	var out []string
	for p, d := range after {
		if b, ok := before[p]; !ok || (b != d && !b.Equal(d)) {
			out = append(out, p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}
