package lsp

// This file defines the disk watcher: what other processes change under a
// server's root, collected for the next request (see disk.go) as hints:
// the check of the inputs (verify.go) finds every change without it.
//
// The watcher watches every directory of the root (fsnotify adds one
// watch per directory), skipping VCS metadata and node_modules, and adds
// directories as they appear, reporting the files already in them. It
// also watches a private directory outside the root, where the tests'
// barrier (barrier_test.go) creates a file and waits for its event: the
// kernel queues one watcher's events in order, so once that event has
// arrived, every event of a write completed before it has been handled.
// The product waits for no event: a request checks its inputs
// (verify.go), and takes what the watcher collected as hints.

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/fsnotify/fsnotify"

	"github.com/devbroker/devbroker/internal/privtemp"
)

// MaxWatchedDirs bounds the directories one watcher watches. Beyond it,
// changes in the directories left out are seen only when devbroker makes
// them itself.
const MaxWatchedDirs = 20000

// skipDir reports whether a directory is never watched: version control
// metadata and installed JavaScript packages.
func skipDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", ".jj", ".bzr", "node_modules":
		return true
	}
	return false
}

// watcher collects the changes under root. It is safe for concurrent use.
type watcher struct {
	root    string // absolute, symlink-resolved
	private string // the tests' barrier directory, outside root
	fsw     *fsnotify.Watcher
	log     *slog.Logger
	done    chan struct{} // closed when the event loop ends
	// progress counts the events and directory entries the loop handled
	// (the tests' barrier waits while it grows).
	progress atomic.Uint64

	mu      sync.Mutex
	pending map[string]bool          // changed paths; true when created
	rescan  bool                     // events were lost: everything may have changed
	dirs    map[string]bool          // watched directories
	problem string                   // why some directories are left out; "" when none
	waiters map[string]chan struct{} // the tests' barriers, by file
	seq     int                      // the tests' barriers written
	err     error                    // why the loop ended
	broken  error                    // why changes may have been missed (inotify limits): start a new watcher
}

// newWatcher watches root. It fails when root itself cannot be watched.
func newWatcher(root string, log *slog.Logger) (*watcher, error) {
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	private, err := privtemp.Dir("watch")
	if err == nil {
		err = fsw.Add(private)
	}
	if err != nil {
		_ = fsw.Close()
		if private != "" {
			_ = os.RemoveAll(private)
		}
		return nil, fmt.Errorf("the barrier directory: %w", err)
	}
	w := &watcher{
		root: root, private: private, fsw: fsw, log: log, done: make(chan struct{}),
		pending: map[string]bool{}, dirs: map[string]bool{}, waiters: map[string]chan struct{}{},
	}
	if err := fsw.Add(root); err != nil {
		w.close()
		return nil, err
	}
	w.dirs[root] = true
	w.addTree(root, false)
	if w.broken != nil {
		w.close()
		return nil, w.broken
	}
	go w.loop()
	return w, nil
}

// close stops watching and removes the barrier directory.
func (w *watcher) close() {
	_ = w.fsw.Close()
	_ = os.RemoveAll(w.private)
}

// addTree watches dir's subdirectories (dir itself is watched); with
// report, every file found counts as created.
func (w *watcher) addTree(dir string, report bool) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		w.progress.Add(1)
		if !d.IsDir() {
			if report {
				w.note(p, true)
			}
			return nil
		}
		if skipDir(d.Name()) || p == w.private {
			return filepath.SkipDir
		}
		if report {
			w.note(p, true)
		}
		w.mu.Lock()
		full := len(w.dirs) >= MaxWatchedDirs
		if full && w.problem == "" {
			w.problem = fmt.Sprintf("the root has more than %d directories; only that many are watched", MaxWatchedDirs)
		}
		w.mu.Unlock()
		if full {
			return filepath.SkipDir
		}
		if err := w.fsw.Add(p); err != nil {
			w.addFailed(p, err)
			return filepath.SkipDir
		}
		w.mu.Lock()
		w.dirs[p] = true
		w.mu.Unlock()
		return nil
	})
}

// addFailed handles a directory that could not be watched. One that is
// gone already is no problem (its removal is an event of its parent); one
// that cannot be read is left out, as the server cannot read it either;
// any other failure (inotify limits) breaks the watcher, which is then
// replaced.
func (w *watcher) addFailed(dir string, err error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
	case errors.Is(err, fs.ErrPermission):
		if w.problem == "" {
			w.problem = fmt.Sprintf("watching %s: %v", dir, err)
		}
	case w.broken != nil:
	case errors.Is(err, syscall.ENOSPC):
		w.broken = fmt.Errorf("watching %s: %w (raise fs.inotify.max_user_watches)", dir, err)
	default:
		w.broken = fmt.Errorf("watching %s: %w", dir, err)
	}
}

// note records a change to p.
func (w *watcher) note(p string, created bool) {
	w.mu.Lock()
	w.pending[p] = w.pending[p] || created
	w.mu.Unlock()
}

// loop handles events until the watcher is closed.
func (w *watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				w.end(errors.New("the watcher was closed"))
				return
			}
			w.event(ev)
			w.progress.Add(1)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				w.end(errors.New("the watcher was closed"))
				return
			}
			w.progress.Add(1)
			w.mu.Lock()
			switch {
			case errors.Is(err, fsnotify.ErrEventOverflow):
				w.rescan = true // lost events (the verification finds the changes)
			case w.broken == nil:
				w.log.Warn("file watcher error", "root", w.root, "err", err)
				w.broken = fmt.Errorf("the watcher reported: %w", err)
			}
			w.mu.Unlock()
		}
	}
}

func (w *watcher) end(err error) {
	w.mu.Lock()
	w.err = err
	w.mu.Unlock()
}

// event handles one event.
func (w *watcher) event(ev fsnotify.Event) {
	if filepath.Dir(ev.Name) == w.private {
		w.mu.Lock()
		if ch, ok := w.waiters[ev.Name]; ok && ev.Has(fsnotify.Create) {
			close(ch)
			delete(w.waiters, ev.Name)
		}
		w.mu.Unlock()
		return
	}
	if !w.inRoot(ev.Name) {
		return
	}
	switch {
	case ev.Has(fsnotify.Create):
		w.note(ev.Name, true)
		fi, err := os.Lstat(ev.Name)
		if err != nil {
			break // gone already: its removal is an event too
		}
		if fi.IsDir() && !skipDir(fi.Name()) {
			w.addDir(ev.Name)
		}
	case ev.Has(fsnotify.Write):
		w.note(ev.Name, false)
	case ev.Has(fsnotify.Remove), ev.Has(fsnotify.Rename):
		w.note(ev.Name, false)
		w.dropDir(ev.Name)
	}
}

// addDir watches a new directory and reports what is already in it.
func (w *watcher) addDir(dir string) {
	w.mu.Lock()
	full := len(w.dirs) >= MaxWatchedDirs
	w.mu.Unlock()
	if full {
		return
	}
	if err := w.fsw.Add(dir); err != nil {
		w.addFailed(dir, err)
		return
	}
	w.mu.Lock()
	w.dirs[dir] = true
	w.mu.Unlock()
	w.addTree(dir, true)
}

// dropDir forgets a removed or moved directory and the directories under
// it (a moved directory's subdirectories keep watches on their old paths).
func (w *watcher) dropDir(dir string) {
	w.mu.Lock()
	var gone []string
	if w.dirs[dir] {
		prefix := dir + string(filepath.Separator)
		for d := range w.dirs {
			if d == dir || strings.HasPrefix(d, prefix) {
				gone = append(gone, d)
				delete(w.dirs, d)
			}
		}
	}
	w.mu.Unlock()
	for _, d := range gone {
		_ = w.fsw.Remove(d)
	}
}

// inRoot reports whether p is under the root and outside every skipped
// directory.
func (w *watcher) inRoot(p string) bool {
	rel, err := filepath.Rel(w.root, p)
	if err != nil || !filepath.IsLocal(rel) {
		return false
	}
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if skipDir(part) {
			return false
		}
	}
	return true
}

// take returns and clears the changes collected so far; all is set when
// events were lost.
func (w *watcher) take() (changes map[string]bool, all bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	changes, all = w.pending, w.rescan
	w.pending, w.rescan = map[string]bool{}, false
	return changes, all
}

// failure is why the watcher stopped working (its loop ended, or changes
// may have been missed), or nil.
func (w *watcher) failure() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return cmp.Or(w.err, w.broken)
}

// status says why some changes may be missed, or "".
func (w *watcher) status() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.broken != nil {
		return "the disk watcher failed: " + w.broken.Error() + "; it is started again at the next request"
	}
	return w.problem
}
