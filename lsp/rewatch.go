package lsp

// This file defines [diskWatch], a server's state of the disk between
// requests: what is collected for it before each request (the
// verification's changes (verify.go), devbroker's own, and the watcher's
// events as hints) and the disk watcher's life (it starts with the
// server's process, is given up when it fails, and is started again by a
// later request).

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"syscall"
	"time"
)

// The watcher's events are hints (verify.go finds every change without
// them). A watcher that failed while running is started again by the next
// request; one that could not start (or failed again right after a
// restart) is tried again watchRetryFirst later, the wait doubling with
// every failure in a row up to watchRetryMax.
const (
	watchRetryFirst = 5 * time.Second
	watchRetryMax   = time.Minute
)

// diskWatch is what a server knows of the disk between two requests: the
// changes collected for the next request (the verification's and
// devbroker's own), and the life of the disk watcher whose events add
// hints to them. It has its own lock, taken after none of the Server's.
type diskWatch struct {
	name, root string
	log        *slog.Logger
	off        bool // the configuration turned the watcher off
	// start starts a watcher (newWatcher; tests inject failures).
	start func(root string, log *slog.Logger) (*watcher, error)

	mu sync.Mutex
	// changes are the paths changed since the last request (true:
	// created).
	changes map[string]bool
	// w is the running watcher, problem why there is none. After a
	// failure, fails counts the failures in a row and next is the
	// earliest next try; limit says the system's inotify limits stopped
	// the watcher until the next process. closed: the server closed, no
	// watcher starts again.
	w       *watcher
	problem string
	fails   int
	next    time.Time
	limit   bool
	closed  bool
}

func newDiskWatch(cfg *Config, log *slog.Logger) *diskWatch {
	return &diskWatch{name: cfg.Name, root: cfg.Root, log: log, off: cfg.NoWatch, start: newWatcher, changes: map[string]bool{}}
}

// WatchStatus says why the disk watcher, whose events are hints, does not
// run, and when a failed one is started again, or "" when it covers the
// root (or the server has not started yet). Changes are found without it
// (see [Server.Unverified]).
func (s *Server) WatchStatus() string {
	return s.watch.status()
}

func (d *diskWatch) status() string {
	d.mu.Lock()
	w, problem := d.w, d.problem
	if w == nil && d.limit {
		problem += "; it is tried again when " + d.name + " starts again"
	} else if w == nil && d.fails > 0 {
		problem += "; it is started again at the next request"
		if next := d.next; time.Now().Before(next) {
			problem += " from " + next.Format("15:04:05") + " on"
		}
	}
	d.mu.Unlock()
	if problem == "" && w != nil {
		problem = w.status()
	}
	if problem == "" {
		return ""
	}
	return "no disk watcher for " + d.name + " (" + problem + "); changes on disk are still found before every request by the metadata of every input"
}

// ensure starts a watcher if there is none and one may run: not turned
// off, on Linux, and not while waiting after a failure. Called with the
// server's semaphore held.
func (d *diskWatch) ensure() {
	d.mu.Lock()
	try := false
	switch {
	case d.w != nil, d.closed, d.limit:
	case d.off:
		d.problem = "the disk watcher is off"
	case !watchable:
		d.problem = "the disk watcher works on Linux only"
	default:
		try = d.fails == 0 || !time.Now().Before(d.next)
	}
	d.mu.Unlock()
	if !try {
		return
	}
	w, err := d.start(d.root, d.log)
	if err != nil {
		d.failed("the disk watcher could not start: "+err.Error(), false)
		if systemLimit(err) {
			// Every try walks the whole root on a request's time, and
			// the limit stays until someone raises it: try again only
			// with the next process.
			d.mu.Lock()
			d.limit = true
			d.problem += " (the system's inotify limits: raise fs.inotify.max_user_watches or max_user_instances)"
			d.mu.Unlock()
		}
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed { // closed meanwhile: the watchers are stopped already
		w.close()
		return
	}
	d.w, d.problem = w, ""
}

// systemLimit reports whether err is the system's inotify limits: watches
// (ENOSPC) or instances (EMFILE).
func systemLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE)
}

// failed records that the watcher failed (while running, or at its
// start) and when to try again.
func (d *diskWatch) failed(problem string, running bool) {
	d.log.Warn("no disk watcher for now; changes are found by the metadata check alone", "root", d.root, "problem", problem)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.w, d.problem = nil, problem
	d.fails++
	d.next = time.Now().Add(retryWait(d.fails, running))
}

// retryWait is the wait before the next try after fails failures in a
// row, the last one while running or at the start.
func retryWait(fails int, running bool) time.Duration {
	if running {
		fails--
	}
	if fails <= 0 {
		return 0
	}
	return min(watchRetryFirst<<min(fails-1, 8), watchRetryMax)
}

// add adds changes to those for the next request.
func (d *diskWatch) add(changes map[string]bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for p, created := range changes {
		d.changes[p] = d.changes[p] || created
	}
}

// note adds paths, changed by devbroker itself, to the changes for the
// next request, as changed unless known as created already.
func (d *diskWatch) note(paths []string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, p := range paths {
		if _, seen := d.changes[p]; !seen {
			d.changes[p] = false
		}
	}
}

// take returns the changes collected for the next request and the
// running watcher's events (hints), and starts collecting anew. A watcher
// that failed is given up, to be started again later.
func (d *diskWatch) take() map[string]bool {
	d.mu.Lock()
	w, changes := d.w, d.changes
	d.changes = map[string]bool{}
	d.mu.Unlock()
	if w == nil {
		return changes
	}
	if err := w.failure(); err != nil {
		d.failed("the disk watcher failed: "+err.Error(), true)
		w.close()
	}
	hints, _ := w.take()
	for p, created := range hints {
		changes[p] = changes[p] || created
	}
	return changes
}

// stop stops the watcher (the server's process stopped); the next
// process starts with a new one. With closed, none starts again.
func (d *diskWatch) stop(closed bool) {
	d.mu.Lock()
	w := d.w
	d.w, d.problem, d.fails = nil, "", 0
	d.limit = false
	d.closed = d.closed || closed
	d.mu.Unlock()
	if w != nil {
		w.close()
	}
}

// freshWatch prepares for a process about to start, which reads the
// disk: nothing collected so far needs sending (it is kept as unsent),
// and the inputs are scanned now, so that the next request's scan
// reports what changes from here on. Called with the semaphore held.
func (s *Server) freshWatch() {
	s.watch.ensure()
	changes, _ := s.track.scan()
	s.track.takeSameTime()
	s.unsent = addPaths(addPaths(s.unsent, changes), s.watch.take())
}

// collect returns the changes to send before a request: the
// verification's (see verify.go), devbroker's own (FilesChanged) and the
// watcher's events, which are hints. Called with the semaphore held.
func (s *Server) collect(ctx context.Context) (map[string]bool, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // the request ended: everything stays for the next one
	}
	s.watch.ensure()
	if a := alongsideOf(ctx, s); a != nil {
		return a.collect(), nil
	}
	s.verify(ctx)
	return s.watch.take(), nil
}

// verify scans the inputs (verify.go) and adds what changed to the
// changes for the next request, unless a scan began after ctx's request
// began (see [Began]): that one has seen every change made before.
func (s *Server) verify(ctx context.Context) {
	if began, ok := ctx.Value(beganKey{}).(time.Time); ok && s.track.since(began) {
		return
	}
	s.track.scanInto(s.watch.add)
}

// Blind returns the package directories (inside the root or among the
// Go inputs outside it) holding sources gopls never compiles
// ([BlindSources]), as the latest check of the inputs found them, and a
// generation that changes whenever they or a file in them changes. Only
// for a server whose [Inputs.Go] is set.
func (s *Server) Blind() ([]string, uint64) {
	return s.track.blindDirs()
}

// Unverified says why the server's next answer cannot be verified to
// reflect every input as the disk holds it (a directory that cannot be
// read, more inputs than [MaxInputs], an outside directory the build
// reads that is gone, a go.work that does not build the root), or ""
// when the latest check of the inputs verified them all.
func (s *Server) Unverified() string {
	return s.track.status()
}
