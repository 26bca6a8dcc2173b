package lsp

// This file defines [Server]: one language server over one root, started
// lazily, restarted after a crash with its open documents re-sent, and
// stopped when idle or closed.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"
)

// Defaults.
const (
	// DefaultIdleTimeout is how long a server without requests stays up.
	DefaultIdleTimeout = 10 * time.Minute
	// ShutdownGrace bounds the polite part of a shutdown (shutdown, exit)
	// before the process is killed.
	ShutdownGrace = 2 * time.Second
	// DefaultStartTimeout bounds a start: the process's answer to
	// initialize and the documents sent again after a crash.
	DefaultStartTimeout = 2 * time.Minute
)

// Sentinel errors. Errors from a [Server] wrap one of these or
// context.DeadlineExceeded / context.Canceled (the caller's deadline).
var (
	// ErrNotInstalled reports a server command that is not there.
	ErrNotInstalled = errors.New("language server not installed")
	// ErrExited reports a server that exited or broke its connection; the
	// error is an *ExitError. The next request starts a new server.
	ErrExited = errors.New("language server exited")
	// ErrClosed reports a request to a closed Server or Supervisor.
	ErrClosed = errors.New("language server closed")
	// ErrStarting reports a request that stopped waiting while the
	// server was starting (it has not answered initialize): the start
	// goes on, within its own bound, and a later request finds the server
	// running or still starting. The error is a *StartingError.
	ErrStarting = errors.New("language server still starting")
)

// StartingError is a request that stopped waiting (its context ended)
// while the server was starting; see [ErrStarting].
type StartingError struct {
	Server string
	// Bound is how long the start may go on in all
	// ([Config.StartTimeout]).
	Bound time.Duration
	// Err is the request's context's error.
	Err error
}

func (e *StartingError) Error() string {
	return fmt.Sprintf("%v: %s has not answered initialize: it is starting, and its start goes on (for up to %s); ask again in a moment", e.Err, e.Server, e.Bound)
}

// Is makes errors.Is(err, ErrStarting) true.
func (e *StartingError) Is(target error) bool { return target == ErrStarting }

func (e *StartingError) Unwrap() error { return e.Err }

// ExitError is a server that died: how, and the end of its stderr.
type ExitError struct {
	Server string
	Err    error // the process's exit status, or the connection's failure
	Stderr string
}

func (e *ExitError) Error() string {
	msg := fmt.Sprintf("%s exited", e.Server)
	if e.Err != nil {
		msg = fmt.Sprintf("%s exited: %v", e.Server, e.Err)
	}
	if e.Stderr != "" {
		s := e.Stderr
		if len(s) > 400 {
			s = "..." + s[len(s)-400:]
		}
		msg += "; stderr: " + s
	}
	return msg
}

// Is makes errors.Is(err, ErrExited) true.
func (e *ExitError) Is(target error) bool { return target == ErrExited }

func (e *ExitError) Unwrap() error { return e.Err }

// Config says how to run one language server over one root.
type Config struct {
	// Name names the server in logs and errors ("gopls").
	Name string
	// Command is the server's argv; Command[0] is looked up on PATH.
	Command []string
	// Root is the absolute workspace root: the working directory and the
	// only workspace folder.
	Root string
	// Env adds "NAME=value" entries to the server's environment.
	Env []string
	// Settings are sent as initializationOptions, in
	// workspace/didChangeConfiguration, and in answer to
	// workspace/configuration: a section that names a key of Settings
	// gets that key's value, any other section gets Settings.
	Settings map[string]any
	// IdleTimeout stops the server after this long without requests; 0
	// means DefaultIdleTimeout, negative never.
	IdleTimeout time.Duration
	// StartTimeout bounds one start of the process: its answer to
	// initialize and the documents sent again after a crash; 0 means
	// DefaultStartTimeout. A start does not end with the request that
	// began it: a request waits for it as long as its context lets it,
	// and the start goes on (see [ErrStarting]). Close ends it.
	StartTimeout time.Duration
	// Stderr receives the server's standard error; nil discards it (its
	// end is still kept for error messages).
	Stderr io.Writer
	// Log receives lifecycle events (start, exit, restart); nil discards.
	Log *slog.Logger
	// NoWatch turns the disk watcher off. Changes on disk are still
	// found before every request, by the metadata of every input
	// (verify.go): the watcher's events are only hints.
	NoWatch bool
	// Inputs says what the server's answers depend on outside the root
	// and how it is told of changes it does not act on; the zero value
	// is the files under the root, told as the server's registered
	// watchers ask.
	Inputs Inputs
}

func (c *Config) section(name string) any {
	if name != "" {
		if v, ok := c.Settings[name]; ok {
			return v
		}
	}
	if c.Settings == nil {
		return map[string]any{}
	}
	return c.Settings
}

// key identifies the servers a Supervisor shares: one command with one
// environment and settings on one root. Servers whose settings differ are
// different servers (a re-probe that changed them starts a new one).
func (c *Config) key() string {
	settings, _ := json.Marshal(c.Settings) // map keys sorted
	return strings.Join(c.Command, "\x00") + "\x01" + c.Root + "\x01" + strings.Join(c.Env, "\x00") + "\x01" + string(settings)
}

// Document is content the server must see for one file.
type Document struct {
	// Path is the file's absolute path.
	Path string
	// LanguageID is the LSP language identifier ("go").
	LanguageID string
	// Text is the content.
	Text string
	// OnDisk says that Text is the file's content on disk. Such a
	// document stays open when a later request leaves it out, until the
	// disk changes under it or too many are kept (see sync.go).
	OnDisk bool
	// Current, when set on a document at disk content, reports whether
	// the disk still holds Text: a turn shared with other callers, which
	// would see the disk's file, sends it for them only then (batch.go).
	Current func() bool
}

// openDoc is a document the server has open.
type openDoc struct {
	Document
	version int
	// sent is the text the server has: Text, or Text padded (see sync.go).
	sent string
	// kept says the last request left the document out: it stays open
	// at disk content. used is the number of the last request that
	// named it.
	kept bool
	used int
}

// Server is one language server over one root. It is safe for concurrent
// use; requests are serialized. The process starts with the first request.
type Server struct {
	cfg  Config
	log  *slog.Logger
	sem  chan struct{} // held by the running request, or by a start
	done chan struct{} // closed by Close
	hub  hub           // the subscribers to the servers' progress
	// life is cancelled by Close: it ends a start in flight; starts
	// counts the starts in flight, which Close waits for.
	life     context.Context
	kill     context.CancelFunc
	starting sync.WaitGroup

	mu       sync.Mutex
	inst     *instance
	docs     map[string]*openDoc // by URI: what the server has open
	version  int                 // last version sent, for every document
	requests int                 // requests synced so far
	lastUsed time.Time
	idle     *time.Timer
	closed   bool
	starts   int
	// launching: a start is in flight (it holds sem); launches counts
	// the starts begun.
	launching bool
	launches  int

	// track verifies the inputs before each request (verify.go); watch
	// collects the changes for the next request and runs the disk
	// watcher (rewatch.go).
	track *tracker
	watch *diskWatch

	// atDisk is the last answer about documents all at disk content
	// (reuse.go); nil when none may be reused.
	atDisk *diskAnswer

	// flushed are the URIs of the paths the turn's check of the disk
	// found changed (flushDisk), with the unsent ones: a request's
	// document "at disk content" among them may hold the text from
	// before the change (see sync).
	flushed map[string]bool
	// unsent are the paths found changed that no request sent: a start
	// of the process read them itself (freshWatch, errRestart), perhaps
	// after a request read its documents. The next check of the disk
	// takes them for its own (flushed).
	unsent map[string]bool

	// trace, when set (by tests), is told every notification sent.
	trace func(method string, params any)

	// waiting holds the calls of Diagnose waiting for the turn, which a
	// shared turn may answer (batch.go).
	waitMu  sync.Mutex
	waiting []*waiter
	hooks   batchHooks
	// expected holds the pool's callers holding the lane that have not
	// asked yet; arrived is closed when one does (batch.go).
	expected map[*holder]bool
	arrived  chan struct{}
}

// NewServer returns a Server for cfg. It starts nothing.
func NewServer(cfg Config) *Server {
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Name == "" && len(cfg.Command) > 0 {
		cfg.Name = baseName(cfg.Command[0])
	}
	s := &Server{cfg: cfg, log: log, sem: make(chan struct{}, 1), done: make(chan struct{}), docs: map[string]*openDoc{}}
	s.life, s.kill = context.WithCancel(context.Background())
	s.track = newTracker(&s.cfg)
	s.watch = newDiskWatch(&s.cfg, log)
	return s
}

// Name is the server's name: what it calls itself once started, else the
// configured name.
func (s *Server) Name() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inst != nil {
		return s.inst.name
	}
	return s.cfg.Name
}

// Root is the directory the server runs in and was told is its
// workspace (Config.Root).
func (s *Server) Root() string { return s.cfg.Root }

// PID is the running server's process id, or 0.
func (s *Server) PID() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.inst == nil || !s.inst.alive() {
		return 0
	}
	return s.inst.pid()
}

// Starts counts the processes started so far (restarts included).
func (s *Server) Starts() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.starts
}

// acquire waits for the server's turn, then makes sure a live process is
// there (starting or restarting it, re-sending open documents). A request
// whose context ends while the server starts gets a *StartingError, and
// the start goes on without it (see ensure).
func (s *Server) acquire(ctx context.Context) (*instance, error) {
	return s.acquireFor(ctx, nil, nil)
}

// errServed: a waiting call of Diagnose was answered by another's turn.
var errServed = errors.New("answered by a shared turn")

// acquireFor is acquire for a call that another's turn may answer:
// served, closed when it was, ends the wait with errServed; flushCtx,
// when set, gives the context of the check of the inputs (a shared
// turn's: see batch.go), once the process is there.
func (s *Server) acquireFor(ctx context.Context, served <-chan struct{}, flushCtx func(*instance) context.Context) (*instance, error) {
	if ctx.Err() != nil {
		// Out of time before its turn: it starts nothing.
		return nil, s.gaveUp(ctx)
	}
	select {
	case s.sem <- struct{}{}:
	case <-ctx.Done():
		return nil, s.gaveUp(ctx)
	case <-s.done:
		return nil, ErrClosed
	case <-served:
		return nil, errServed
	}
	select {
	case <-served:
		// The turn that answered it ended just before this one began.
		<-s.sem
		return nil, errServed
	default:
	}
	in, err := s.ensure(ctx)
	if errors.Is(err, errHandedOver) {
		return nil, s.gaveUp(ctx) // the start holds the turn now
	}
	fctx := ctx
	if err == nil && flushCtx != nil {
		fctx = flushCtx(in)
	}
	if err == nil {
		err = s.flushDisk(fctx, in)
	}
	if errors.Is(err, errRestart) {
		// The server would keep its old copy of a changed file: a new
		// process reads the disk.
		s.log.Info("language server restarted: a file changed on disk that it would not read again", "server", in.name, "root", s.cfg.Root)
		s.mu.Lock()
		s.inst = nil
		s.mu.Unlock()
		in.shutdown(ShutdownGrace)
		in, err = s.ensure(ctx)
		if errors.Is(err, errHandedOver) {
			return nil, s.gaveUp(ctx)
		}
		if err == nil {
			err = s.flushDisk(fctx, in)
		}
	}
	if err != nil {
		s.release()
		return nil, err
	}
	return in, nil
}

// gaveUp is the error of a request whose context ended before it had
// the server: a *StartingError while a start is in flight.
func (s *Server) gaveUp(ctx context.Context) error {
	s.mu.Lock()
	launching := s.launching
	s.mu.Unlock()
	if launching {
		return &StartingError{Server: s.cfg.Name, Bound: s.startTimeout(), Err: ctx.Err()}
	}
	return fmt.Errorf("waiting for %s: %w", s.cfg.Name, ctx.Err())
}

// Start starts the server's process now, unless it runs, without a
// request, and returns once it is initialized: its initial work (gopls's
// workspace load) then runs while the caller does other things, and the
// first request finds it under way or done. It arms the idle timer as a
// request does. A running server returns at once, without waiting for
// the request that holds it. When ctx ends first, the start goes on (a
// *StartingError). An error leaves the start to the next request.
func (s *Server) Start(ctx context.Context) error {
	if in := s.live(); in != nil {
		return nil
	}
	if _, err := s.acquire(ctx); err != nil {
		return err
	}
	s.release()
	return nil
}

// release ends a request and arms the idle timer.
func (s *Server) release() {
	s.mu.Lock()
	s.lastUsed = time.Now()
	if idle := s.idleTimeout(); idle > 0 && !s.closed {
		if s.idle == nil {
			s.idle = time.AfterFunc(idle, s.idleStop)
		} else {
			s.idle.Reset(idle)
		}
	}
	s.mu.Unlock()
	<-s.sem
}

func (s *Server) idleTimeout() time.Duration {
	if s.cfg.IdleTimeout == 0 {
		return DefaultIdleTimeout
	}
	return s.cfg.IdleTimeout
}

// idleStop stops the server if nothing used it for the idle timeout.
func (s *Server) idleStop() {
	select {
	case s.sem <- struct{}{}:
	case <-s.done:
		return
	}
	defer func() { <-s.sem }()
	s.mu.Lock()
	in := s.inst
	if in == nil || s.closed || time.Since(s.lastUsed) < s.idleTimeout() {
		s.mu.Unlock()
		return
	}
	s.inst = nil
	s.docs = map[string]*openDoc{}
	s.mu.Unlock()
	s.log.Info("language server idle, stopping", "server", in.name, "root", s.cfg.Root)
	s.watch.stop(false)
	s.track.dropHandles(false)
	in.shutdown(ShutdownGrace)
}

func (s *Server) startTimeout() time.Duration {
	if s.cfg.StartTimeout > 0 {
		return s.cfg.StartTimeout
	}
	return DefaultStartTimeout
}

// errHandedOver is ensure's error when the caller's context ended during
// a start: the start goes on and holds the semaphore, which it releases
// when it ends.
var errHandedOver = errors.New("the start goes on without the request")

// ensure returns a live instance, starting one if needed. Called with the
// semaphore held. A start runs on its own goroutine, bounded by the start
// timeout and by Close, not by ctx: when ctx ends first, ensure returns
// errHandedOver and the start keeps the semaphore until it ends, so that
// a server slow to initialize is not killed by each request in turn, and
// no second process starts beside it.
func (s *Server) ensure(ctx context.Context) (*instance, error) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil, ErrClosed
	}
	in := s.inst
	s.mu.Unlock()
	if in != nil && in.alive() {
		return in, nil
	}
	if in != nil {
		s.log.Warn("language server died, restarting", "server", in.name, "root", s.cfg.Root, "err", in.failure(errConnClosed))
		in.kill()
	}
	if len(s.cfg.Command) == 0 {
		return nil, fmt.Errorf("%w: no command configured", ErrNotInstalled)
	}
	type started struct {
		in  *instance
		err error
	}
	done := make(chan started, 1)
	var hand sync.Mutex
	handed, finished := false, false
	s.mu.Lock()
	if s.closed { // Close waits for the starts begun before it
		s.mu.Unlock()
		return nil, ErrClosed
	}
	s.launching = true
	s.launches++
	s.starting.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.starting.Done()
		sctx, cancel := context.WithTimeoutCause(context.WithoutCancel(ctx), s.startTimeout(),
			fmt.Errorf("%s did not answer initialize within %s (its start's bound)", s.cfg.Name, s.startTimeout()))
		stop := context.AfterFunc(s.life, cancel)
		in, err := s.launch(sctx)
		stop()
		cancel()
		s.mu.Lock()
		s.launching = false
		s.mu.Unlock()
		hand.Lock()
		if handed {
			hand.Unlock()
			if err != nil && !errors.Is(err, ErrClosed) {
				s.log.Warn("language server did not start", "server", s.cfg.Name, "root", s.cfg.Root, "err", err)
			}
			s.release() // the turn the request handed over
			return
		}
		finished = true
		hand.Unlock()
		done <- started{in, err}
	}()
	select {
	case r := <-done:
		return r.in, r.err
	case <-ctx.Done():
	}
	hand.Lock()
	if finished {
		hand.Unlock()
		r := <-done
		return r.in, r.err
	}
	handed = true
	hand.Unlock()
	return nil, errHandedOver
}

// launch starts a process and makes it the server's instance, re-sending
// the open documents. ctx bounds the start.
func (s *Server) launch(ctx context.Context) (*instance, error) {
	// A new process reads the disk: what changed before it starts is
	// known to it, what changes from now on is collected.
	s.freshWatch()
	in, err := start(ctx, &s.cfg, s.log, s.hub.publish)
	if err != nil {
		if cause := context.Cause(ctx); cause != nil && ctx.Err() == context.DeadlineExceeded {
			err = fmt.Errorf("%w: %w", cause, err)
		}
		return nil, err
	}
	s.mu.Lock()
	if s.closed { // closed while starting
		s.mu.Unlock()
		in.shutdown(ShutdownGrace)
		return nil, ErrClosed
	}
	s.inst = in
	s.starts++
	// The new process reads the disk: documents kept at disk content
	// are not opened again.
	maps.DeleteFunc(s.docs, func(_ string, d *openDoc) bool { return d.kept })
	docs := slices.Sorted(maps.Keys(s.docs))
	s.mu.Unlock()
	// Re-send what the dead server had open, at new versions.
	for _, u := range docs {
		d := s.docs[u]
		s.version++
		d.version = s.version
		if err := s.notify(ctx, in, "textDocument/didOpen", didOpenParams{TextDocument: textDocumentItem{URI: u, LanguageID: d.LanguageID, Version: d.version, Text: d.sent}}); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// Close stops the server: shutdown and exit, a bounded wait, then kill.
// It is idempotent and returns when the process is gone; it returns nil
// (a server that does not stop is killed, and that is not the caller's
// error). A request in flight fails with ErrExited or ErrClosed.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.done)
	if s.idle != nil {
		s.idle.Stop()
	}
	s.mu.Unlock()
	s.kill()          // a start in flight ends
	s.starting.Wait() // and its process is gone
	s.mu.Lock()
	in := s.inst
	s.inst = nil
	s.mu.Unlock()
	s.watch.stop(true)
	s.track.dropHandles(true)
	if in != nil {
		in.shutdown(ShutdownGrace)
	}
	return nil
}
