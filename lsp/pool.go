package lsp

// This file defines [Pool]: the servers of one (command, environment,
// settings, root), so that callers with different content do not wait
// for each other.
//
// A [Server] serves one request at a time, and each request brings its
// open documents to the caller's content. Sessions with different
// unwritten content asking at once then queue behind each other, and each
// request pays for undoing the last caller's changes and making its own.
// A pool holds several servers of the same configuration (lanes), each a
// Server of its own (its own process, documents, disk checks before each
// request, watcher, crash restarts and idle stop). A caller takes a lane
// for one answer ([Pool.Take]): a free lane whose documents are nearest
// the caller's content (the same content first, so callers with the same
// unwritten state share a lane), else it waits for the first lane to be
// freed. A lane is added, up to the pool's size, only when every lane is
// taken, and none has or is being brought to the caller's content: a
// single caller, callers taking turns, and callers with the same content
// (two requests of one session at once) keep one server. A new lane
// answers only once it has started and checked the files of the
// request that made it grow (the workspace load is then behind it); until
// then the callers go on with the lanes that were there. A lane other than
// the first that no caller has taken for the pool's idle time is closed.
//
// Each request still states the whole content the server must see, so a
// lane's choice is only a matter of cost, never of what the answer says.

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"time"
)

// DefaultLaneIdle is how long a lane other than the first stays open
// without a caller.
const DefaultLaneIdle = 2 * time.Minute

// Want describes the content a caller is about to send, so that the pool
// can pick the lane that has it, or is nearest to it.
type Want struct {
	// State is the caller's content that differs from the disk: a key per
	// file (its path) and a value that changes with the content (a hash).
	// Nil or empty is the disk's content.
	State map[string]string
	// Files are absolute paths the request is about: a lane added for
	// this request checks them before it is handed out.
	Files []string
}

// Pool holds the lanes of one configuration. It is safe for concurrent
// use.
type Pool struct {
	cfg  Config
	size int
	idle time.Duration

	mu      sync.Mutex
	lanes   []*lane
	growing bool
	closed  bool
	// changed is closed and replaced when a lane is freed or added, or
	// the pool closes: the callers waiting for a lane look again.
	changed chan struct{}
	// life ends the lanes' starts when the pool closes.
	life context.Context
	kill context.CancelFunc
	// adding counts the additions in flight, which Close waits for.
	adding sync.WaitGroup
	// waiters are the callers of Take waiting for a lane, first first;
	// waited, when set (by tests), is told how many wait whenever one
	// starts to (with p.mu held).
	waiters []*poolWaiter
	waited  func(n int)
}

type lane struct {
	srv *Server
	// holders counts the callers holding the lane: one, or several
	// sharing it ([Sharing], shared) with the same state.
	holders int
	shared  bool
	ready   bool
	state   map[string]string // the content of the last caller
	used    time.Time
	timer   *time.Timer
}

// NewPool returns a pool of up to size lanes (at least 1) of cfg; idle
// is how long a lane other than the first stays without a caller (0:
// [DefaultLaneIdle]). The first lane exists at once and starts nothing.
func NewPool(cfg Config, size int, idle time.Duration) *Pool {
	if size < 1 {
		size = 1
	}
	if idle <= 0 {
		idle = DefaultLaneIdle
	}
	if cfg.Name == "" && len(cfg.Command) > 0 {
		cfg.Name = baseName(cfg.Command[0])
	}
	p := &Pool{cfg: cfg, size: size, idle: idle, changed: make(chan struct{})}
	p.life, p.kill = context.WithCancel(context.Background())
	p.lanes = []*lane{{srv: NewServer(cfg), ready: true}}
	return p
}

// Primary is the pool's first lane: the server a pool of one is, which
// is never closed before the pool.
func (p *Pool) Primary() *Server {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.lanes[0].srv
}

// Servers lists the pool's lanes, the first first.
func (p *Pool) Servers() []*Server {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make([]*Server, len(p.lanes))
	for i, l := range p.lanes {
		out[i] = l.srv
	}
	return out
}

// atLeast raises the pool's size to n.
func (p *Pool) atLeast(n int) {
	p.mu.Lock()
	p.size = max(p.size, n)
	p.mu.Unlock()
}

// Take hands the caller a lane for one answer; done gives it back (it is
// idempotent). It waits, as long as ctx lets it, for a lane to be free.
func (p *Pool) Take(ctx context.Context, w Want) (srv *Server, done func(), err error) {
	begun := time.Now()
	h := holderOf(ctx)
	me := &poolWaiter{w: w, h: h}
	// handOut hands l to the caller, which waits no longer. Called with
	// p.mu held.
	handOut := func(l *lane, how string) (*Server, func(), error) {
		p.unqueue(me)
		p.cfg.logger().Debug(how, "server", p.cfg.Name, "root", p.cfg.Root, "wait_ms", time.Since(begun).Milliseconds(), "lanes", len(p.lanes), "holders", l.holders)
		var once sync.Once
		return l.srv, func() {
			once.Do(func() {
				if h != nil {
					l.srv.arrive(h) // if it never asked
				}
				p.give(l, w.State)
			})
		}, nil
	}
	// giveUp takes the caller off the waiting ones, and gives back a lane
	// it was taken along to (invite) but will not use: the lane's other
	// holders wait for each holder to ask or give it back (batch.go).
	giveUp := func() {
		p.mu.Lock()
		p.unqueue(me)
		l := me.lane
		me.lane = nil
		p.mu.Unlock()
		if l != nil {
			l.srv.arrive(h)
			p.give(l, w.State)
		}
	}
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			giveUp()
			return nil, nil, ErrClosed
		}
		if l := me.lane; l != nil {
			// Taken along by a caller with the same content (invite).
			srv, done, err := handOut(l, "lane shared")
			p.mu.Unlock()
			return srv, done, err
		}
		best, busy := p.pick(w.State)
		if busy && len(p.lanes) < p.size && !p.growing && !p.has(w.State) {
			p.grow(w.Files)
		}
		if best == nil && h != nil && !p.othersWait(me) {
			if l := p.joinable(w.State); l != nil {
				l.holders++
				l.srv.expect(h)
				srv, done, err := handOut(l, "lane shared")
				p.mu.Unlock()
				return srv, done, err
			}
		}
		if best != nil {
			best.holders = 1
			best.shared = h != nil
			best.state = w.State
			if best.timer != nil {
				best.timer.Stop()
			}
			srv, done, err := handOut(best, "lane taken")
			if h != nil {
				best.srv.expect(h)
				p.invite(best) // me waits no longer: not among them
			}
			p.mu.Unlock()
			return srv, done, err
		}
		p.queue(me)
		wait := p.changed
		p.mu.Unlock()
		select {
		case <-wait:
		case <-ctx.Done():
			giveUp()
			return nil, nil, fmt.Errorf("waiting for a free %s: %w", p.cfg.Name, context.Cause(ctx))
		}
	}
}

// poolWaiter is a caller of Take waiting for a lane; lane is set when a
// caller with the same content took it along (invite).
type poolWaiter struct {
	w    Want
	h    *holder // nil: it does not share
	lane *lane
}

// queue adds a waiting caller, once. Called with p.mu held.
func (p *Pool) queue(me *poolWaiter) {
	if slices.Contains(p.waiters, me) {
		return
	}
	p.waiters = append(p.waiters, me)
	if p.waited != nil {
		p.waited(len(p.waiters))
	}
}

// othersWait reports whether a caller other than me waits for a lane.
// Called with p.mu held.
func (p *Pool) othersWait(me *poolWaiter) bool {
	return slices.ContainsFunc(p.waiters, func(o *poolWaiter) bool { return o != me })
}

// unqueue removes a caller from the waiting ones. Called with p.mu held.
func (p *Pool) unqueue(me *poolWaiter) {
	p.waiters = slices.DeleteFunc(p.waiters, func(o *poolWaiter) bool { return o == me })
}

// invite hands l, just taken by a caller sharing its turn ([Sharing]),
// to every waiting caller sharing theirs with the same content too: their
// calls may be answered by one turn of the server (batch.go). Called with
// p.mu held.
func (p *Pool) invite(l *lane) {
	n := 0
	for _, o := range p.waiters {
		if o.h != nil && o.lane == nil && distance(l.state, o.w.State) == 0 {
			o.lane = l
			l.holders++
			l.srv.expect(o.h)
			n++
		}
	}
	if n == 0 {
		return
	}
	p.waiters = slices.DeleteFunc(p.waiters, func(o *poolWaiter) bool { return o.lane != nil })
	p.broadcast()
}

// joinable returns a lane that a caller sharing its turn ([Sharing])
// with state may join: taken by such callers with the same state. Called
// with p.mu held, only when no caller waits for a lane (joining would
// keep it waiting longer).
func (p *Pool) joinable(state map[string]string) *lane {
	for _, l := range p.lanes {
		if l.ready && l.holders > 0 && l.shared && distance(l.state, state) == 0 {
			return l
		}
	}
	return nil
}

// pick returns the free ready lane nearest to state (the fewest files
// whose content differs), and whether every ready lane was
// taken. Among lanes as near, the one least recently used is taken, so
// that the states of the callers that came last stay where they are.
// Called with p.mu held.
func (p *Pool) pick(state map[string]string) (best *lane, busy bool) {
	busy = true
	cost := 0
	for _, l := range p.lanes {
		if !l.ready || l.holders > 0 {
			continue
		}
		busy = false
		c := distance(l.state, state)
		if best == nil || c < cost || c == cost && l.used.Before(best.used) {
			best, cost = l, c
		}
	}
	return best, busy
}

// has reports whether a lane has state, or is being brought to it by its
// caller: a caller with the same content waits for that lane, whose turn
// costs no new analysis, rather than adding a process (two requests of
// one session at once, sessions with no unwritten content). Called with
// p.mu held.
func (p *Pool) has(state map[string]string) bool {
	for _, l := range p.lanes {
		if l.ready && distance(l.state, state) == 0 {
			return true
		}
	}
	return false
}

// distance counts the files whose content differs between two states.
func distance(a, b map[string]string) int {
	n := 0
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			n++
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			n++
		}
	}
	return n
}

// grow adds a lane: it starts, checks files, and only then is handed out.
// Called with p.mu held.
func (p *Pool) grow(files []string) {
	l := &lane{srv: NewServer(p.cfg)}
	p.lanes = append(p.lanes, l)
	p.growing = true
	p.adding.Add(1)
	p.cfg.logger().Info("language server lane added: every lane was answering", "server", p.cfg.Name, "root", p.cfg.Root, "lanes", len(p.lanes))
	go func() {
		defer p.adding.Done()
		ctx, cancel := context.WithTimeout(p.life, l.srv.startTimeout())
		err := l.srv.Start(ctx)
		if err == nil {
			// The workspace load and the packages of the request that made
			// the pool grow are behind the lane when it is handed out. What
			// the server says about those files does not matter here, only
			// that it runs.
			if _, derr := l.srv.Diagnose(ctx, nil, files); errors.Is(derr, ErrExited) || errors.Is(derr, ErrClosed) || ctx.Err() != nil {
				err = derr
			}
		}
		cancel()
		p.mu.Lock()
		p.growing = false
		if err != nil || p.closed {
			p.drop(l)
			p.mu.Unlock()
			if err != nil {
				p.cfg.logger().Warn("language server lane not added", "server", p.cfg.Name, "root", p.cfg.Root, "err", err)
			}
			_ = l.srv.Close()
			return
		}
		l.ready = true
		l.used = time.Now()
		p.arm(l)
		p.broadcast()
		p.mu.Unlock()
	}()
}

// give frees a lane and remembers the content it was left with.
func (p *Pool) give(l *lane, state map[string]string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	l.holders--
	if l.holders > 0 {
		return
	}
	l.state = state
	l.used = time.Now()
	p.arm(l)
	p.broadcast()
}

// arm sets a lane other than the first to close when unused for the
// pool's idle time. Called with p.mu held.
func (p *Pool) arm(l *lane) {
	if p.closed || l == p.lanes[0] {
		return
	}
	if l.timer != nil {
		l.timer.Stop()
	}
	l.timer = time.AfterFunc(p.idle, func() { p.retire(l) })
}

// retire closes a lane that no caller took for the idle time.
func (p *Pool) retire(l *lane) {
	p.mu.Lock()
	if l == p.lanes[0] || l.holders > 0 || !l.ready || p.closed || time.Since(l.used) < p.idle {
		p.mu.Unlock()
		return
	}
	p.drop(l)
	p.mu.Unlock()
	p.cfg.logger().Info("language server lane idle, closing it", "server", p.cfg.Name, "root", p.cfg.Root)
	_ = l.srv.Close()
}

// drop removes a lane. Called with p.mu held.
func (p *Pool) drop(l *lane) {
	for i, m := range p.lanes {
		if m == l {
			p.lanes = append(p.lanes[:i:i], p.lanes[i+1:]...)
			break
		}
	}
	p.broadcast()
}

// broadcast wakes the callers waiting for a lane. Called with p.mu held.
func (p *Pool) broadcast() {
	close(p.changed)
	p.changed = make(chan struct{})
}

// FilesChanged tells every lane that paths changed on disk; see
// [Server.FilesChanged].
func (p *Pool) FilesChanged(paths []string) {
	for _, s := range p.Servers() {
		s.FilesChanged(paths)
	}
}

func (p *Pool) isClosed() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Close closes every lane, whoever holds it. It is idempotent.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	lanes := p.lanes
	for _, l := range lanes {
		if l.timer != nil {
			l.timer.Stop()
		}
	}
	p.broadcast()
	p.mu.Unlock()
	p.kill()
	var wg sync.WaitGroup
	for _, l := range lanes {
		wg.Go(func() { _ = l.srv.Close() })
	}
	wg.Wait()
	p.adding.Wait()
	return nil
}

func (c *Config) logger() *slog.Logger {
	if c.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Log
}
