// Package engine is devbroker's workspace engine: it runs plans of the
// workspace steps (read_lines, edit, apply_patch, write), the capability
// steps (format, lint, check) and the language steps (definition,
// references, hover, symbols, rename, code_actions) over an in-memory
// workspace and reports a [Result].
//
// The principal types are [Engine] (one session's workspace over one root),
// [Plan] and [Result]; the steps are data in one registry ([Steps], [Step])
// that decodes their arguments ([Step.Decode], [ParsePlan]). Capability steps go through the [Capabilities]
// interface defined here; the engine starts no process and speaks no
// protocol. Subpackages hold the parts: text (the text model and position
// mapper), rootfs (the root-confined filesystem), workspace (acquisition,
// copy-on-write changes, ordered writes), merge (the three-way line merge
// of a write whose file changed on disk), patch (the envelope parser and
// hunk matcher), unidiff (the unified diff parser and applier behind
// edit_file's patch), editfile (the edit_file tool with read_file and
// write_file), search (the search step), gitignore (.gitignore as git
// reads it), lex (the one lexer of source languages and its extension
// table), symbols (the lexical declaration finder behind view by symbol
// and replace_symbol), syntax (the checks behind validate_syntax), fault
// (error kinds), jsonarg (the one description and strict decoding of a
// tool's or step's JSON arguments) and, for tests only, testtree (file
// trees on disk).
package engine

import (
	"context"
	"strings"
	"sync"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/workspace"
)

// Options configure an [Engine].
type Options struct {
	// Limits bound the workspace; zero fields take the defaults.
	Limits workspace.Limits
	// Capabilities serve format, lint and check; nil means none.
	Capabilities Capabilities
	// Hooks inject faults into disk operations, for tests.
	Hooks rootfs.Hooks
	// WriteLock serializes the writes to the root: every engine (and
	// edit_file session) that writes to the same root must share one, so
	// that a write's conflict check and its disk operations happen with
	// no other write in between. Nil: a lock of this engine's own.
	WriteLock sync.Locker
	// Since is the baseline lint and check answers are compared with,
	// and the content before the change of format's only: "changed" (a
	// revision's content); nil: the content before the session's
	// changes (see baseline.go and format.go).
	Since BaseSource
}

// Engine is one session's workspace over one root, and the plans run over
// it. The workspace persists between plans until it is written, discarded
// or dropped. An Engine is not safe for concurrent use.
type Engine struct {
	fs    *rootfs.FS
	caps  Capabilities
	ws    *workspace.Workspace
	wlock sync.Locker
	// actions are the code actions listed in this session, by id.
	actions map[string]listed
	// outlines are the outlines symbol lookups got, by file.
	outlines outlines
	// sessionBases are what the files the session changed on disk held
	// before its first change; since, another baseline (see baseline.go).
	sessionBases *Bases
	since        BaseSource
	// bcache keeps the baselines' findings.
	bcache *baseCache
	// noBaseline leaves lint and check answers uncompared: for the
	// benchmark that measures what comparing costs (export_test.go).
	noBaseline bool
	// bases are the bases of the files the session changed on disk
	// (edit_file), for format's only: "changed"; nil: none.
	bases BaseFunc
}

// New returns an Engine over root.
func New(root string, opts Options) (*Engine, error) {
	fsys, err := rootfs.New(root)
	if err != nil {
		return nil, err
	}
	e := &Engine{caps: opts.Capabilities, wlock: opts.WriteLock, sessionBases: &Bases{}, since: opts.Since, bcache: &baseCache{}}
	if e.wlock == nil {
		e.wlock = &sync.Mutex{}
	}
	e.fs = fsys.WithHooks(opts.Hooks).WithObserver(e.diskChanged)
	e.ws = workspace.New(e.fs, opts.Limits)
	return e, nil
}

// Root is the absolute root directory.
func (e *Engine) Root() string { return e.fs.Root() }

// FS is the engine's root-confined filesystem.
func (e *Engine) FS() *rootfs.FS { return e.fs }

// WriteLock is the lock the engine holds over each write (see
// [Options.WriteLock]), for other writers of the root to share.
func (e *Engine) WriteLock() sync.Locker { return e.wlock }

// Workspace is the engine's workspace.
func (e *Engine) Workspace() *workspace.Workspace { return e.ws }

// Discard drops the unwritten changes of the paths selectors match (none:
// all) and refreshes those files from disk; see [workspace.Workspace.Discard].
func (e *Engine) Discard(selectors []string) (dropped, left []string, err error) {
	return e.ws.Discard(selectors)
}

// Reset empties the workspace, dropping its unwritten changes, without
// reading the disk: for a session that ends.
func (e *Engine) Reset() { e.ws.Reset() }

// SetCapabilities replaces the capabilities (after a new probe).
func (e *Engine) SetCapabilities(c Capabilities) {
	e.caps = c
	e.bcache.clear()
}

// Bases is where the session records what the files it changes on disk
// held before its first change (edit_file records there too): the
// baseline its lint and check answers are compared with.
func (e *Engine) Bases() *Bases { return e.sessionBases }

// skipped is what a failed step's message adds when steps after it in
// its plan did not run: which; "" when it was the last (a lone step's
// message speaks of that step, not of a plan).
func skipped(rest []Op) string {
	if len(rest) == 0 {
		return ""
	}
	names := make([]string, len(rest))
	for i, op := range rest {
		names[i] = string(op.Step)
	}
	return "; the plan stopped here, so the steps after it (" + strings.Join(names, ", ") + ") did not run"
}

// Run validates the plan, acquires its paths and runs its steps in order.
// The first failing step ends the plan; the steps before it keep their
// effect. Run never returns nil.
func (e *Engine) Run(ctx context.Context, p *Plan) *Result {
	r := newResult()
	if err := e.Validate(p); err != nil {
		r.fail(0, "", err)
		r.finish()
		return r
	}
	// The files the caller's walk found (Swept) that cannot be held by
	// themselves are skipped, and the answer names them.
	walked := make(map[string]bool, len(p.Swept))
	for _, s := range p.Swept {
		walked[s] = true
	}
	stale, passed, err := e.ws.AcquireWalked(p.Paths, func(f string) bool { return walked[f] })
	r.addStale(stale)
	r.Coverage = append(r.Coverage, p.Notes...)
	r.Coverage = append(r.Coverage, skippedNote(passed)...)
	if err != nil {
		r.fail(0, "acquire", err)
		r.finish()
		return r
	}
	sc := planScope(p)
	for i := range p.Ops {
		op := &p.Ops[i]
		if err := ctx.Err(); err != nil {
			r.fail(i+1, string(op.Step), err)
			break
		}
		if err := e.runStep(ctx, i+1, op, sc, r); err != nil {
			r.fail(i+1, string(op.Step), err)
			r.Error.Message += skipped(p.Ops[i+1:])
			break
		}
	}
	if ch := e.ws.Changes(); len(ch) > 0 {
		r.Changes = ch
	}
	r.finish()
	return r
}
