package lspdriver

// This file tells the request's listener where a request stands, in the
// words a person reads on a status line (engine.ReportProgress): first,
// while the server is loading or has not yet begun the request, the
// loading phase ("gopls: loading the workspace: Setting up workspace:
// Loading packages... (35s)", "gopls: loading the workspace: taking in
// 595 files; the check has not begun (1m10s)"), then the request's own
// ("gopls: checking: Analyzing Dependencies: Indexed 48/543 packages
// (9%, 1m35s)"). Each phase is one piece of work, reported again
// whenever the server says more and every progressTick, with the time
// since the request began: a wait that gives no percentage still moves.

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/lsp"
)

// progressTick is how often an open phase is reported again; tests
// shorten it.
var progressTick = 5 * time.Second

// phases reports one request's phases; see the file's comment.
type phases struct {
	ctx   context.Context
	d     *Driver
	began time.Time
	doing string // the request's own phase: "checking", "linting", ...
	what  string // the request, for a queued one: "the check"
	files int    // the files the request asked about

	mu    sync.Mutex
	open  map[string]lsp.Progress // the server's pieces of work, by token
	order []string                // their tokens, oldest first
	begun bool                    // the server began the request's own work
	// working is set once the request's own phase shows.
	working bool
	shown   map[string]engine.Progress
	closed  bool
}

// Phase IDs, after the driver's name.
const (
	phaseLoading = "/loading"
	phaseWork    = "/work"
)

// report starts reporting req's phases on srv to ctx's listener; stop
// ends the open ones and returns when nothing more is reported.
func (d *Driver) report(ctx context.Context, srv *lsp.Server, req *capabilities.Request) (stop func()) {
	if !engine.WantsProgress(ctx) {
		return func() {}
	}
	p := &phases{
		ctx: ctx, d: d, began: capabilities.Began(ctx), doing: doing(req.Kind), what: "the " + string(req.Kind),
		files: len(req.Files), open: map[string]lsp.Progress{}, shown: map[string]engine.Progress{},
	}
	unsubscribe := srv.Subscribe(p.event)
	done := make(chan struct{})
	ticked := make(chan struct{})
	go func() {
		defer close(ticked)
		tick := time.NewTicker(progressTick)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				p.again()
			}
		}
	}()
	return func() {
		unsubscribe()
		close(done)
		<-ticked
		p.stop()
	}
}

// doing names a request's own phase.
func doing(k engine.Kind) string {
	switch k {
	case engine.Check:
		return "checking"
	case engine.Lint:
		return "linting"
	case engine.Format:
		return "formatting"
	}
	return "answering " + string(k)
}

// event records one of the server's progress events and reports the
// phases it changes.
func (p *phases) event(ev lsp.Progress) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	if ev.Done {
		delete(p.open, ev.Token)
		p.order = slices.DeleteFunc(p.order, func(t string) bool { return t == ev.Token })
	} else {
		if _, ok := p.open[ev.Token]; !ok {
			p.order = append(p.order, ev.Token)
		}
		p.open[ev.Token] = ev
		if ev.Own() && !ev.Queued {
			p.begun = true
		}
	}
	p.update()
}

// loading reports whether a piece of the server's work is the loading
// phase: the request queued behind it, or the server's own work before
// the server began the request.
func (p *phases) loading(ev lsp.Progress) bool {
	if ev.Own() {
		return ev.Queued
	}
	return !p.begun
}

// update reports the phases as they stand. Called with p.mu held.
func (p *phases) update() {
	// The newest piece of each phase says the most; in the loading phase
	// the server's own words say more than that the request waits.
	var load, work *lsp.Progress
	for _, tok := range p.order {
		ev := p.open[tok]
		switch {
		case !p.loading(ev):
			work = &ev
		case load == nil || !ev.Queued || load.Queued:
			load = &ev
		}
	}
	loading := p.d.name + phaseLoading
	if load != nil {
		p.show(engine.Progress{ID: loading, Title: "loading the workspace", Message: p.describe(*load), Percentage: load.Percentage})
	} else if _, ok := p.shown[loading]; ok {
		p.end(loading)
		p.working = true // after the load, the request's own phase shows
	}
	if work != nil {
		p.working = true
	}
	if !p.working {
		return
	}
	piece := engine.Progress{ID: p.d.name + phaseWork, Title: p.doing, Percentage: -1}
	if work != nil {
		piece.Message, piece.Percentage = p.describe(*work), work.Percentage
	}
	p.show(piece)
}

// describe is a piece of the server's work in words.
func (p *phases) describe(ev lsp.Progress) string {
	if ev.Queued {
		files := "1 file"
		if p.files != 1 {
			files = fmt.Sprintf("%d files", p.files)
		}
		return fmt.Sprintf("taking in %s; %s has not begun", files, p.what)
	}
	return trimAdvice(ev.Describe())
}

// trimAdvice drops the advice a server adds to its progress for its
// editor's user ("Indexed 3/9 packages. (Set "analysisProgressReporting"
// to false to disable notifications.)").
func trimAdvice(s string) string {
	if i := strings.LastIndex(s, " (Set "); i >= 0 && strings.HasSuffix(s, ")") {
		return strings.TrimSpace(s[:i])
	}
	return s
}

// show reports piece (begun or again), as the driver's, with the time
// since the request began. Called with p.mu held.
func (p *phases) show(piece engine.Progress) {
	piece.Driver = p.d.name
	piece.Elapsed = time.Since(p.began)
	if prev, ok := p.shown[piece.ID]; ok && prev.Title == piece.Title && prev.Message == piece.Message && prev.Percentage == piece.Percentage {
		return // nothing new; the tick says it again
	}
	p.shown[piece.ID] = piece
	engine.ReportProgress(p.ctx, piece)
}

// end reports the end of piece id if it is open. Called with p.mu held.
func (p *phases) end(id string) {
	piece, ok := p.shown[id]
	if !ok {
		return
	}
	delete(p.shown, id)
	piece.Done, piece.Message, piece.Percentage, piece.Elapsed = true, "", -1, time.Since(p.began)
	engine.ReportProgress(p.ctx, piece)
}

// again reports every open phase again with the time it has taken.
func (p *phases) again() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return
	}
	for _, id := range []string{p.d.name + phaseLoading, p.d.name + phaseWork} {
		if piece, ok := p.shown[id]; ok {
			piece.Elapsed = time.Since(p.began)
			p.shown[id] = piece
			engine.ReportProgress(p.ctx, piece)
		}
	}
}

// stop ends the open phases; nothing is reported after it.
func (p *phases) stop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.end(p.d.name + phaseLoading)
	p.end(p.d.name + phaseWork)
	p.closed = true
}
