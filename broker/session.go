package broker

// This file defines [Session]: one connection's workspace (an
// engine.Engine) and edit_file state (an editfile.Session over the same
// workspace), with calls serialized and the session's end.

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/editfile"
	"github.com/devbroker/devbroker/engine/fault"
)

// Session is one connection's state: its own workspace, which persists
// between calls until it is written, discarded or the session ends, and its
// own edit_file read tracking and undo history. Its format, lint and check
// go to its root's shared drivers.
//
// Calls are serialized (the engine and its workspace are not safe for
// concurrent use); a Session is safe for concurrent use.
type Session struct {
	id   string
	mgr  *Manager
	root *Root

	mu   sync.Mutex // held for the length of each call
	eng  *engine.Engine
	edit *editfile.Session

	lastUsed atomic.Int64 // unix nanoseconds of the last call's end

	endMu   sync.Mutex
	ended   string // why the session ended; "" while open
	onClose []func()
}

// newSession opens a session on root, given as dir (root's directory as
// the client spelled it), so that the session's paths may use either
// spelling.
func newSession(id string, m *Manager, root *Root, dir string) (*Session, error) {
	eng, err := engine.New(dir, engine.Options{Limits: m.sessionLimits(root), Capabilities: root, WriteLock: root.WriteLock()})
	if err != nil {
		return nil, err
	}
	s := &Session{
		id: id, mgr: m, root: root, eng: eng,
		edit: editfile.NewSession(eng.FS(), eng.Workspace()),
	}
	s.edit.SetWriteLock(root.WriteLock())
	// What edit_file changes on disk is compared, in lint and check
	// answers, with what the file held before the session's first edit.
	s.edit.SetBaseRecorder(eng.Bases())
	// format's only: "changed" knows what edit_file changed.
	eng.SetBases(s.edit.Base)
	// edit_file, read_file and write_file read no larger file than the
	// workspace acquires.
	s.edit.SetMaxFileBytes(eng.Workspace().Limits().MaxFileBytes)
	s.lastUsed.Store(s.mgr.now().UnixNano())
	return s, nil
}

// ID is the session's id, unique in its Manager.
func (s *Session) ID() string { return s.id }

// Root is the root the session works on.
func (s *Session) Root() *Root { return s.root }

// AvailableSteps lists the plan steps the session can run now: the
// workspace steps and the capability steps with a working driver.
func (s *Session) AvailableSteps() []string { return s.eng.AvailableSteps() }

// OnClose registers fn to run when the session ends (after Close, an idle
// timeout, or the manager's shutdown); a transport uses it to close its
// connection. fn runs once, without the session's locks held.
func (s *Session) OnClose(fn func()) {
	s.endMu.Lock()
	if s.ended == "" {
		s.onClose = append(s.onClose, fn)
		s.endMu.Unlock()
		return
	}
	s.endMu.Unlock()
	fn()
}

// call runs fn with the session locked, refusing an ended session.
func (s *Session) call(fn func() error) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	defer func() { s.lastUsed.Store(s.mgr.now().UnixNano()) }() // the call's end
	if why := s.endReason(); why != "" {
		return fault.New(fault.BadArgument, "session %s has ended (%s); its unwritten changes were discarded: reconnect to start a new session", s.id, why)
	}
	s.lastUsed.Store(s.mgr.now().UnixNano())
	return fn()
}

func (s *Session) endReason() string {
	s.endMu.Lock()
	defer s.endMu.Unlock()
	return s.ended
}

// idleSince reports how long the session has been idle at now; a session
// in the middle of a call is never idle.
func (s *Session) idleSince(now time.Time) time.Duration {
	if !s.mu.TryLock() {
		return 0
	}
	defer s.mu.Unlock()
	return now.Sub(time.Unix(0, s.lastUsed.Load()))
}

// ready waits, before the call takes the session's lock, for what the
// call's capability steps (ops; acquire: the paths the call acquires) will
// wait for: their drivers' probes and servers' starts, each within its
// driver's timeout from now (see [Root.Ready]). The waiting holds nothing:
// the session's other calls run meanwhile. It returns ctx marked with the
// call's start, which the steps' requests count their timeout from.
//
// The files a step works on decide which drivers it needs, as the engine
// picks them: its own paths; else, when the call names paths, every file
// the workspace holds; else the whole root (every language under it).
func (s *Session) ready(ctx context.Context, ops []engine.Op, acquire []string) context.Context {
	ctx = capabilities.Begin(ctx)
	var needs []Need
	var held []string
	heldRead := false
	for _, op := range ops {
		st, ok := engine.LookupStep(op.Step)
		if !ok || st.Kind == "" {
			continue
		}
		paths := engine.Named(op.Args)
		if len(paths) == 0 && len(acquire) > 0 {
			if !heldRead {
				// What the workspace holds: read under the lock, for a
				// moment.
				s.mu.Lock()
				held = s.eng.Workspace().Paths()
				s.mu.Unlock()
				heldRead = true
			}
			paths = append(slices.Clone(acquire), held...)
		}
		needs = append(needs, Need{Kind: st.Kind, Paths: paths})
	}
	if len(needs) > 0 && s.endReason() == "" {
		s.root.Ready(ctx, needs)
	}
	return ctx
}

// Run validates and runs a plan over the session's workspace.
func (s *Session) Run(ctx context.Context, p *engine.Plan) *engine.Result {
	ctx = s.ready(ctx, p.Ops, p.Paths)
	var res *engine.Result
	if err := s.call(func() error { res = s.eng.Run(ctx, p); return nil }); err != nil {
		return failed(err)
	}
	return res
}

// failed is the Result of a call refused before any step ran.
func failed(err error) *engine.Result {
	kind := fault.KindOf(err)
	return &engine.Result{
		Reads: map[string]string{}, Written: []string{}, Diagnostics: []engine.Diagnostic{},
		Error: &engine.StepError{Kind: kind, Message: err.Error(), Retryable: kind.Retryable()},
	}
}

// EditFile runs one edit_file call given as JSON parameters. It
// refuses a file that has unwritten changes in this session's workspace.
func (s *Session) EditFile(ctx context.Context, params []byte) (*editfile.Result, error) {
	var res *editfile.Result
	err := s.call(func() (err error) { res, err = s.edit.Call(ctx, params); return err })
	return res, err
}

// ReadFile runs one read_file call given as JSON parameters.
func (s *Session) ReadFile(ctx context.Context, params []byte) (*editfile.Result, error) {
	var res *editfile.Result
	err := s.call(func() (err error) { res, err = s.edit.ReadFile(ctx, params); return err })
	return res, err
}

// WriteFile runs one write_file call given as JSON parameters.
func (s *Session) WriteFile(ctx context.Context, params []byte) (*editfile.Result, error) {
	var res *editfile.Result
	err := s.call(func() (err error) { res, err = s.edit.WriteFile(ctx, params); return err })
	return res, err
}

// Pending lists the workspace paths with unwritten changes, sorted.
func (s *Session) Pending() []string {
	var out []string
	_ = s.call(func() error { out = s.eng.Workspace().Unwritten(); return nil })
	return out
}

// Discard drops the unwritten changes of paths (paths or globs; none: all)
// and refreshes those files from disk, so that they hold what the disk
// holds now; a file gone from disk leaves the workspace. A path with no
// unwritten change is refreshed too. It returns the paths whose unwritten
// changes it dropped and those that left the workspace.
func (s *Session) Discard(paths []string) (dropped, left []string, err error) {
	err = s.call(func() (err error) {
		dropped, left, err = s.eng.Discard(paths)
		return err
	})
	return dropped, left, err
}

// Close ends the session, discarding its unwritten changes. It waits for a
// running call to finish and is idempotent.
func (s *Session) Close() { s.end("it was closed") }

// end ends the session for the reason why, runs the OnClose functions and
// removes it from its manager.
func (s *Session) end(why string) {
	s.endMu.Lock()
	if s.ended != "" {
		s.endMu.Unlock()
		return
	}
	s.ended = why
	fns := s.onClose
	s.onClose = nil
	s.endMu.Unlock()

	s.mu.Lock() // wait for a running call
	lost := s.eng.Workspace().Unwritten()
	s.eng.Reset()
	s.mu.Unlock()
	if len(lost) > 0 {
		s.mgr.log.Warn("session ended with unwritten changes; discarded", "session", s.id, "paths", lost, "why", why)
	}
	s.mgr.forget(s)
	s.mgr.log.Info("session ended", "session", s.id, "why", why)
	for _, fn := range fns {
		fn()
	}
}

// String describes the session for logs.
func (s *Session) String() string { return fmt.Sprintf("session %s on %s", s.id, s.root.Dir()) }
