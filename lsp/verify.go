package lsp

// This file defines the verification of a server's inputs by metadata:
// before every request, what changed on disk since the server last saw it
// is found by comparing each input's metadata with the last scan's, not
// by waiting for events. Events (the disk watcher, [Server.FilesChanged])
// are hints: a write through a hard link elsewhere, a write through
// mmap, a lost event or a directory no watcher covers still changes
// the metadata.
//
// The inputs are every file under the root (but VCS metadata) and, for a
// server whose [Inputs] say so, the files outside the root its answers
// depend on (for gopls see goinputs.go). Each file's stamp is what git's
// index keeps: size, modification and change times in nanoseconds, inode
// and device, and mode; for a symlink also the stamp of what it resolves
// to, so that a change of the target is reported for the link's path too.
// A directory whose own stamp did not change has the same entries as
// before (adding, removing or renaming an entry changes it), so only
// changed directories are listed again; every file is stat'ed. What a
// scan keeps is shared with the next for as long as it stays the same
// (a directory's listing and its files' states; the whole scan when
// nothing changed), so that a scan finding nothing changed costs little
// beyond its stat calls.
//
// A stamp taken within racyWindow of a change is "racy", as git calls it:
// a second write in the same timestamp tick, of the same size, would
// leave it equal. A racy file's content is hashed (the hash only decides
// "changed"; content outside the root never reaches an answer), and a
// racy directory is listed again at the next scan, until the stamps are
// older than the window.

import (
	"errors"
	"fmt"
	"hash/maphash"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// MaxInputs bounds the files and directories one scan checks. Beyond it
// the answer cannot be verified: the driver's status says so.
const MaxInputs = 200000

// cacheTrust is how old a modification time must be for gopls to cache a
// file's content by it (cache/fs_memoized.go): a change that keeps a more
// recent mtime cannot hide behind a cached copy.
const cacheTrust = 2 * time.Second

// racyWindow is how recent a stamp must be for a write in the same
// timestamp tick to be possible: coarse kernel clocks tick every few
// milliseconds, some file systems (FAT, HFS+) every second or two.
const racyWindow = 3 * time.Second

// maxHashed bounds the size of a racy file whose content is hashed; a
// larger racy file counts as changed until its stamps settle.
const maxHashed = 4 << 20

// stamp is what a scan compares of one file or directory.
type stamp struct {
	mode  fs.FileMode
	size  int64
	mtime int64 // ns
	ctime int64 // ns; 0 where the platform gives none
	ino   uint64
	dev   uint64
}

// stampOf is the stamp of a file whose fs.FileInfo was taken (statStamp
// takes one without).
func stampOf(fi fs.FileInfo) stamp {
	st := stamp{mode: fi.Mode(), size: fi.Size(), mtime: fi.ModTime().UnixNano()}
	sysStamp(&st, fi)
	return st
}

// racy reports whether a write in the same tick as the stamp's could
// leave it unchanged: a time at or after since.
func (st stamp) racy(since int64) bool { return st.mtime >= since || st.ctime >= since }

// fileState is one input file as the last scan saw it.
type fileState struct {
	self   stamp
	target stamp  // a symlink's resolved stamp; zero for other files or a dangling link
	sum    uint64 // the content's hash while racy; unknownSum when too large to hash; 0 once settled
}

// unknownSum marks a racy file too large to hash.
const unknownSum = ^uint64(0)

// dirEnt is one entry of a directory listing and, for a file, its state
// as the last scan saw it.
type dirEnt struct {
	name string
	dir  bool
	path string // the directory's path joined with name
	// found says the file was there when the scan stat'ed it (it may
	// have gone since the listing); state is then what it found.
	found bool
	state fileState
}

// dirState is one directory as the last scan saw it. Its entries are
// shared with the scans before for as long as nothing in them changes:
// a scan that finds a directory and all its files as they were keeps its
// dirState, and one that finds nothing changed keeps the scanState.
type dirState struct {
	st      stamp
	settled bool // st is not racy: an equal stamp means equal entries
	mixed   bool // it holds Go files and blind sources (see noteBlind)
	ents    []dirEnt
}

// single is a file outside the root stat'ed alone (goinputs.go).
type single struct {
	path  string
	state fileState
}

// scanState is one complete scan.
type scanState struct {
	dirs    map[string]*dirState
	singles []single
	links   []string // the symlinks under the root, sorted
}

// Inputs says what a server's answers depend on besides the files under
// its root, and how it learns about a changed one.
type Inputs struct {
	// Go adds the go command's inputs outside the root (goinputs.go):
	// go.work and go.mod in every parent directory, $GOWORK and the go
	// env file, and the files of the local directories that the go.mod
	// and go.work files in effect name in replace and use directives.
	Go bool
	// ActsOn, when set, lists the files (doublestar globs on the
	// slash-separated absolute path) the server acts on when told they
	// changed. Every change is then sent, whatever the server registered
	// to watch, and a change to any other file is followed by a change
	// to Reload. Unset: changes are sent as the server's registered
	// watchers ask, under the root only.
	ActsOn []string
	// Reload is a file whose reported change makes the server load its
	// workspace again (gopls's workspaceFiles setting matches it); "" when
	// the server has none.
	Reload string
	// MtimeCache says the server keeps a file's content while its inode
	// and modification time stay the same (gopls does), whatever it is
	// told: a change to a file it acts on that keeps both (a rewrite in
	// place with the mtime put back) restarts the server's process.
	MtimeCache bool
}

// tracker scans a server's inputs and keeps the last scan. It is safe for
// concurrent use; one scan runs at a time.
type tracker struct {
	root   string
	inputs Inputs
	env    []string // the server's environment additions
	max    int
	window time.Duration // racyWindow, but in tests

	mu    sync.Mutex
	state *scanState // nil before the first scan
	whole bool       // state is a complete scan (none went over the cap)
	began time.Time  // when the latest scan began
	// problem says why the latest scan does not verify the answer, or "".
	problem string
	// sameMu guards sameTime, the changed files that kept their inode
	// and mtime (see sameTime), until taken: its own lock, so that a
	// request checked alongside (alongside.go) never waits for the scan.
	sameMu   sync.Mutex
	sameTime map[string]bool
	// gen counts the scans that found changes or could not see every
	// input: a scan that starts at generation g compares the disk with a
	// state whose changes all reached the changes for the next request
	// (scanInto's sink) once gen reached g. Written under mu, read
	// without it.
	gen atomic.Uint64
	// blind are the package directories holding sources a Go server does
	// not compile (see BlindSources), sorted; blindGen changes whenever
	// they or a file in them changes.
	blind    []string
	blindGen uint64
	golist   goState // the go command's inputs (goinputs.go)
	// handles are kept on the inputs for the next scan (handles.go);
	// nil where none can be.
	handles *handles
}

func newTracker(cfg *Config) *tracker {
	return &tracker{root: cfg.Root, inputs: cfg.Inputs, env: cfg.Env, max: MaxInputs, window: racyWindow, handles: newHandles()}
}

// dropHandles closes the handles kept on the inputs; when final, none is
// kept again.
func (t *tracker) dropHandles(final bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.handles.close(final)
}

// scan compares the inputs with the last scan and returns what changed
// (true: created; a removed file is reported as changed, its absence is
// for the caller to see), and why the answer cannot be verified ("" when
// it can). The first scan is the baseline: it reports nothing.
func (t *tracker) scan() (map[string]bool, string) {
	changes, problem, _ := t.scanInto(nil)
	return changes, problem
}

// scanInto is scan, and also hands what changed to sink (when not nil)
// before the scan ends, then moves gen on: whoever reads gen and then
// takes what sink collected has every change of the scans up to that
// generation. prev is the generation the scan began at.
func (t *tracker) scanInto(sink func(map[string]bool)) (changes map[string]bool, problem string, prev uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	prev = t.gen.Load()
	changes, problem = t.scanLocked()
	if len(changes) > 0 || !t.whole {
		if sink != nil && len(changes) > 0 {
			sink(changes)
		}
		t.gen.Add(1)
	}
	return changes, problem, prev
}

// scanLocked is scan, called with t.mu held.
func (t *tracker) scanLocked() (map[string]bool, string) {
	began := time.Now()
	t.began = began
	w := newWalk(t.state, began.Add(-t.window).UnixNano(), t.max)
	w.trusted = began.Add(-cacheTrust).UnixNano()
	w.h, w.fresh = t.handles, t.handles.begin(t.root)
	root := t.root
	w.tree(root, "", true)
	w.wait()
	var problems []string
	trees := t.golist.trees
	if t.inputs.Go {
		problems = t.golist.update(t, w)
		for _, dir := range t.golist.trees {
			w.tree(dir, root, false)
		}
		w.wait()
	}
	t.handles.sweep()
	problems = append(w.problems, problems...)
	changes := map[string]bool{}
	switch {
	case w.over.Load():
		// Not every input was seen: nothing is known to be gone. The
		// state stays the last complete one (an empty one when there is
		// none: no baseline either), marked incomplete, so the scan that
		// completes again reports every file.
		if t.state == nil {
			t.state = &scanState{}
		}
		t.whole = false
		problems = append([]string{fmt.Sprintf("the root and the inputs outside it hold more than %d files and directories, more than devbroker checks before each answer; serve a smaller root (a subdirectory that is a module or project of its own)", t.max)}, problems...)
		t.problem = strings.Join(problems, "; ")
		return changes, t.problem
	case t.state == nil:
	case !t.whole:
		w.state().eachFile(func(p string) { changes[p] = false })
		t.state.eachFile(func(p string) { changes[p] = false })
	default:
		changes = w.changes
		w.removedFrom(changes)
	}
	prev := t.state
	w.links(root)
	// A first scan is kept even when it found nothing (a root that
	// cannot be read): it is the baseline the next scan reports against.
	if t.state == nil || w.changed() {
		t.state = w.state()
	}
	t.whole = true
	t.problem = strings.Join(problems, "; ")
	aliases(changes, w.dirLinks)
	if t.inputs.Go {
		// The blind directories follow from the listings and the
		// trees outside the root: found again only when either changed.
		t.noteBlind(changes, t.state != prev || !slices.Equal(trees, t.golist.trees))
	}
	t.sameMu.Lock()
	if len(w.sameTime) > 0 && t.sameTime == nil {
		t.sameTime = map[string]bool{}
	}
	for _, p := range w.sameTime {
		t.sameTime[p] = true
	}
	t.sameMu.Unlock()
	return changes, t.problem
}

// BlindSources are the extensions of the go command's inputs that gopls
// never compiles, started afresh or told: assembly, C++, Objective-C,
// Fortran and their headers, SWIG, and linked objects. (C files and
// headers are compiled by cgo when gopls loads a package, so a reload
// shows their errors.) A package that holds one is also built by the go
// command (capabilities/lspdriver).
var BlindSources = []string{".s", ".S", ".sx", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx", ".m", ".f", ".F", ".for", ".f90", ".swig", ".swigcxx", ".syso"}

// noteBlind finds the package directories holding blind sources in the
// latest scan (when again, else they are the ones found before), and
// moves blindGen on when they or their files changed, or a file their
// build may read elsewhere (see buildShared). Called with t.mu held.
func (t *tracker) noteBlind(changes map[string]bool, again bool) {
	dirs := t.blind
	if again {
		dirs = nil
		for dir, ds := range t.state.dirs {
			if ds.mixed && !ignoredByGo(t.relDir(dir)) {
				dirs = append(dirs, dir)
			}
		}
		slices.Sort(dirs)
	}
	moved := !slices.Equal(dirs, t.blind)
	for p := range changes {
		if _, ok := slices.BinarySearch(dirs, filepath.Dir(p)); ok || buildShared(p) {
			moved = true
			break
		}
	}
	if moved {
		t.blind = dirs
		t.blindGen++
	}
}

// mixed reports whether a listing holds Go files and blind sources.
func mixed(ents []dirEnt) bool {
	goFile, blind := false, false
	for _, e := range ents {
		if e.dir {
			continue
		}
		ext := filepath.Ext(e.name)
		goFile = goFile || ext == ".go"
		blind = blind || slices.Contains(BlindSources, ext)
	}
	return goFile && blind
}

// buildShared reports whether the go build of a package may read the file
// at p though it lies in another directory: a C, C++ or assembly header or
// source (an #include, cgo's -I), or a module file.
func buildShared(p string) bool {
	ext := filepath.Ext(p)
	switch {
	case ext == ".h" || ext == ".c" || slices.Contains(BlindSources, ext):
		return true
	case isModFile(p):
		return true
	}
	switch filepath.Base(p) {
	case "go.sum", "go.work.sum", "modules.txt":
		return true
	}
	return false
}

// relDir is dir relative to the root, or to the outside directory tree
// holding it. Called with t.mu held.
func (t *tracker) relDir(dir string) string {
	for _, top := range append([]string{t.root}, t.golist.trees...) {
		if rel, err := filepath.Rel(top, dir); err == nil && (rel == "." || filepath.IsLocal(rel)) {
			return rel
		}
	}
	return "."
}

// ignoredByGo reports whether the go command ignores the directory at the
// relative path rel: it, or a directory above it, is named testdata or
// begins with "." or "_".
func ignoredByGo(rel string) bool {
	for _, part := range strings.Split(filepath.ToSlash(rel), "/") {
		if part == "testdata" || strings.HasPrefix(part, ".") && part != "." || strings.HasPrefix(part, "_") {
			return true
		}
	}
	return false
}

// blindDirs returns the package directories holding blind sources, and a
// generation that changes whenever they or a file in them change, or a
// file their build may read elsewhere (see buildShared).
func (t *tracker) blindDirs() ([]string, uint64) {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.blind, t.blindGen
}

// takeSameTime returns and forgets the changed files that kept their
// inode and mtime.
func (t *tracker) takeSameTime() map[string]bool {
	t.sameMu.Lock()
	defer t.sameMu.Unlock()
	out := t.sameTime
	t.sameTime = nil
	return out
}

// verified reports whether the latest scan verified every input.
func (t *tracker) verified() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state != nil && t.whole && t.problem == ""
}

// status is the latest scan's problem, or "".
func (t *tracker) status() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.problem
}

// since reports whether a scan began at or after at.
func (t *tracker) since(at time.Time) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state != nil && !t.began.Before(at)
}

// completeLinks returns the symlinks under the root the latest scan
// found, and whether that scan verified every input.
func (t *tracker) completeLinks() ([]string, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == nil || !t.whole || t.problem != "" {
		return nil, false
	}
	return t.state.links, true
}

// symlinks returns the symlinks under the root the latest scan found.
func (t *tracker) symlinks() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state == nil {
		return nil
	}
	return t.state.links
}

// aliases adds, for every change under the target of a directory symlink
// inside the root, the same change under the link's path: the server
// knows the file by both.
func aliases(changes map[string]bool, dirLinks map[string]string) {
	if len(dirLinks) == 0 || len(changes) == 0 {
		return
	}
	sep := string(filepath.Separator)
	for p, created := range maps.Clone(changes) {
		for link, target := range dirLinks {
			if strings.HasPrefix(p, target+sep) {
				alias := link + p[len(target):]
				changes[alias] = changes[alias] || created
			}
		}
	}
}

// walk is one scan in progress.
type walk struct {
	prev    *scanState
	since   int64 // racy from this time on (ns)
	trusted int64 // a cache may trust an mtime before this (ns)
	max     int64
	seed    maphash.Seed

	// h are the tracker's handles (handles.go), nil when none are kept;
	// fresh says the mount table did not change since the last scan.
	h     *handles
	fresh bool

	sem   chan struct{}
	wg    sync.WaitGroup
	count atomic.Int64
	over  atomic.Bool

	mu       sync.Mutex
	dirs     []walked
	kept     int // the directories of dirs the last scan had
	moved    bool
	singles  []single
	changes  map[string]bool
	removed  []string // files gone from directories the last scan had
	problems []string
	dirLinks map[string]string // directory symlinks under the root → their resolved targets inside it
	sameTime []string          // changed files whose inode and modification time did not change
	linkSet  []string          // symlinks under the root (absolute)
	linkList []string          // the same, relative and sorted (see links)
}

// walked is one directory a walk scanned.
type walked struct {
	path string
	ds   *dirState
}

// hashSeed is the process's seed for content hashes.
var hashSeed = maphash.MakeSeed()

func newWalk(prev *scanState, since int64, max int) *walk {
	if prev == nil {
		prev = &scanState{}
	}
	n := min(4*runtime.GOMAXPROCS(0), 32)
	return &walk{
		prev: prev, since: since, max: int64(max), seed: hashSeed, sem: make(chan struct{}, n),
		dirs: make([]walked, 0, len(prev.dirs)), changes: map[string]bool{}, dirLinks: map[string]string{},
	}
}

func (w *walk) wait() { w.wg.Wait() }

func (w *walk) problem(format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.problems) < 5 {
		w.problems = append(w.problems, fmt.Sprintf(format, args...))
	}
}

// changed reports whether the walk found anything other than the last
// scan's state: a directory or a file's state, a directory or a single
// file found or gone. Called once the walk is over.
func (w *walk) changed() bool {
	return w.moved || w.kept != len(w.prev.dirs) || len(w.dirs) != len(w.prev.dirs) || !slices.Equal(w.singles, w.prev.singles)
}

// state is the scan the walk found. Called once the walk is over.
func (w *walk) state() *scanState {
	dirs := make(map[string]*dirState, len(w.dirs))
	for _, d := range w.dirs {
		dirs[d.path] = d.ds
	}
	return &scanState{dirs: dirs, singles: w.singles, links: w.linkList}
}

// eachFile calls f with the path of every file the scan found.
func (s *scanState) eachFile(f func(p string)) {
	for _, ds := range s.dirs {
		ds.eachFile(f)
	}
	for _, s := range s.singles {
		f(s.path)
	}
}

// eachFile calls f with the path of every file of the directory the scan
// found.
func (ds *dirState) eachFile(f func(p string)) {
	for _, e := range ds.ents {
		if e.found {
			f(e.path)
		}
	}
}

// removedFrom adds to changes the files of the last scan the walk did not
// find: gone from a directory listed again (or from a listing kept, when
// it went after), in a directory gone, or a single file gone. Called once
// the walk is over.
func (w *walk) removedFrom(changes map[string]bool) {
	for _, p := range w.removed {
		changes[p] = false
	}
	if w.kept != len(w.prev.dirs) {
		found := make(map[string]bool, len(w.dirs))
		for _, d := range w.dirs {
			found[d.path] = true
		}
		for dir, ds := range w.prev.dirs {
			if !found[dir] {
				ds.eachFile(func(p string) { changes[p] = false })
			}
		}
	}
	for _, old := range w.prev.singles {
		if !slices.ContainsFunc(w.singles, func(s single) bool { return s.path == old.path }) {
			changes[old.path] = false
		}
	}
}

// vcsDir reports whether a directory is version-control metadata, which
// no build reads.
func vcsDir(name string) bool {
	switch name {
	case ".git", ".hg", ".svn", ".jj", ".bzr":
		return true
	}
	return false
}

// tree scans the directory tree at dir (skipping the subtree at skip, when
// set). inRoot says dir is the root: its symlinks are recorded. Scanning
// runs in the background; wait for it.
func (w *walk) tree(dir, skip string, inRoot bool) {
	// The paths below are joined without Clean; clean, the trees and the
	// root skipped are disjoint, so a walk scans a directory once.
	dir = filepath.Clean(dir)
	if skip != "" {
		skip = filepath.Clean(skip)
	}
	st, err := statStamp(dir, true)
	switch {
	case !inRoot && (err != nil || !st.mode.IsDir()):
		return // the caller says why (goinputs.go)
	case err != nil:
		w.problem("the root %s cannot be read: %v", dir, err)
		return
	case !st.mode.IsDir():
		w.problem("the root %s is not a directory", dir)
		return
	}
	w.spawn(dir, skip, inRoot, reach{keep: inRoot, at: noHandle})
}

// reach is what the scan of a directory's parent tells it of handles
// (handles.go): whether it may keep some (keep: under the root, not
// under a mount point below it, the parent keeping its own), whether its
// handle reaches what its path does (fresh), and the parent's handle and
// device (noHandle and 0 for a tree's top, opened by path).
type reach struct {
	keep, fresh bool
	at          handle
	dev         uint64
}

// spawn scans dir on another goroutine when one is free, else on this
// one.
func (w *walk) spawn(dir, skip string, inRoot bool, up reach) {
	select {
	case w.sem <- struct{}{}:
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			defer func() { <-w.sem }()
			w.dir(dir, skip, inRoot, up)
		}()
	default:
		w.dir(dir, skip, inRoot, up)
	}
}

// counted counts n more inputs and reports whether the cap still holds.
func (w *walk) counted(n int) bool {
	if w.count.Add(int64(n)) > w.max {
		w.over.Store(true)
		return false
	}
	return true
}

// seen is what a directory's scan found of one of its files, besides its
// state: kept for the walk when there is something to keep.
type seen struct {
	path     string
	changed  int // 1 changed, 2 created
	sameTime bool
	link     bool
	dirLink  string
}

// dir scans one directory: its entries (listed again only when its stamp
// changed or was racy), each file's stamp, and its subdirectories. The
// last scan's entries are kept, shared, until one differs. Stamps are
// taken through the handles kept (handles.go) where they reach what the
// paths do: dir's own when up.fresh, its entries' when it was not listed
// again.
func (w *walk) dir(dir, skip string, inRoot bool, up reach) {
	if w.over.Load() || !w.counted(1) {
		return
	}
	old := w.prev.dirs[dir]
	var prior *stamp
	if old != nil {
		prior = &old.st
	}
	dh := w.h.dir(dir, up.keep)
	st, same, err := dh.stampOf(dir, up, prior)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.problem("the directory %s cannot be read (%v), so whether it changed cannot be checked: make it readable or remove it", dir, err)
		}
		return
	}
	var prevEnts []dirEnt
	if old != nil {
		prevEnts = old.ents
	}
	ents, listed := prevEnts, false
	if old == nil || !old.settled || old.st != st {
		if ents, err = listDir(dir); err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				w.problem("the directory %s cannot be listed (%v), so whether its files changed cannot be checked: make it readable or remove it", dir, err)
			}
			return
		}
		listed = true
		for i := range ents {
			ents[i].path = joinName(dir, ents[i].name)
		}
	}
	// The entries' handles reach what their paths do while dir holds the
	// entries it held when they were opened in its handle's inode (see
	// handles.go).
	kids := w.fresh && !listed && same
	if !kids && dh != nil {
		dh.dropFiles()
	}
	up = reach{at: noHandle, dev: st.dev}
	if dh != nil && dh.self != noHandle {
		up = reach{keep: true, fresh: kids, at: dh.self, dev: st.dev}
	}
	files := 0
	for i := range ents {
		if !ents[i].dir {
			files++
		}
	}
	if !w.counted(files) {
		return
	}
	// own says ents is this scan's, no longer the last scan's.
	own := listed
	var out []seen
	var removed []string
	var match matcher
	for i := range ents {
		e := &ents[i]
		if e.dir {
			if !vcsDir(e.name) && e.path != skip {
				w.spawn(e.path, skip, inRoot, up)
			}
			continue
		}
		// had and prior: the file as the last scan found it.
		had, prior, j := e.found, e.state, -1
		if listed {
			had, prior = false, fileState{}
			if j = match.find(prevEnts, e.name); j >= 0 && !prevEnts[j].dir && prevEnts[j].found {
				had, prior = true, prevEnts[j].state
			}
		}
		var was *stamp
		if had {
			was = &prior.self
		}
		cur, link, target, ok := w.fileIn(dh, e.name, e.path, kids, was)
		if listed || ok != had || cur != prior {
			if !own {
				ents, own = slices.Clone(ents), true
				e = &ents[i]
			}
			e.found, e.state = ok, cur
		}
		if !ok {
			if had && !listed {
				removed = append(removed, e.path)
			}
			continue
		}
		if had && listed {
			match.foundAgain(prevEnts, j)
		}
		s := seen{path: e.path, link: link && inRoot}
		if had {
			s.changed = w.compare(e.path, cur, prior)
		} else {
			s.changed = 2
		}
		s.sameTime = s.changed == 1 && sameTime(prior, cur) && cur.self.mtime < w.trusted
		if inRoot && target != "" {
			s.dirLink = target
		}
		if s.changed > 0 || s.link || s.dirLink != "" {
			out = append(out, s)
		}
	}
	if listed && old != nil {
		removed = append(removed, match.gone(prevEnts)...)
	}
	settled := !st.racy(w.since)
	ds := old
	if own || old.settled != settled {
		m := old != nil && old.mixed
		if listed {
			m = mixed(ents)
		}
		ds = &dirState{st: st, settled: settled, mixed: m, ents: ents}
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dirs = append(w.dirs, walked{dir, ds})
	if old != nil {
		w.kept++
	}
	w.moved = w.moved || ds != old || len(removed) > 0
	w.removed = append(w.removed, removed...)
	for _, s := range out {
		if s.changed > 0 {
			w.changes[s.path] = s.changed == 2
		}
		if s.sameTime {
			w.sameTime = append(w.sameTime, s.path)
		}
		if s.link {
			w.linkSet = append(w.linkSet, s.path)
		}
		if s.dirLink != "" {
			w.dirLinks[s.path] = s.dirLink
		}
	}
}

// joinName is filepath.Join(dir, name) for a clean dir and a name listed
// in it, without Join's Clean.
func joinName(dir, name string) string {
	if strings.HasSuffix(dir, string(filepath.Separator)) {
		return dir + name
	}
	return dir + string(filepath.Separator) + name
}

// matcher finds a directory's entries of the last scan by name, for a
// directory listed again: in the order of the last listing while the two
// agree (a listing is mostly in the same order), else by an index.
type matcher struct {
	next  int
	index map[string]int
	found []bool // which of the last scan's entries are files found again
}

// find returns the place of the last scan's entry named name in prev, or
// -1.
func (m *matcher) find(prev []dirEnt, name string) int {
	if m.next < len(prev) && prev[m.next].name == name {
		m.next++
		return m.next - 1
	}
	if len(prev) == 0 {
		return -1
	}
	if m.index == nil {
		m.index = make(map[string]int, len(prev))
		for k, e := range prev {
			m.index[e.name] = k
		}
	}
	j, ok := m.index[name]
	if !ok {
		return -1
	}
	m.next = j + 1
	return j
}

// foundAgain notes that the last scan's entry j is a file found again.
func (m *matcher) foundAgain(prev []dirEnt, j int) {
	if m.found == nil {
		m.found = make([]bool, len(prev))
	}
	m.found[j] = true
}

// gone returns the files of the last scan's entries not found again.
func (m *matcher) gone(prev []dirEnt) []string {
	var out []string
	for j := range prev {
		if prev[j].found && !prev[j].dir && (m.found == nil || !m.found[j]) {
			out = append(out, prev[j].path)
		}
	}
	return out
}

// file takes one file's state; for a symlink also its target's, and, for
// one that resolves to a directory under the root, that directory
// (dirTarget, symlinks resolved). ok is false when the file is gone.
func (w *walk) file(p string) (st fileState, link bool, dirTarget string, ok bool) {
	return w.fileIn(nil, "", p, false, nil)
}

// fileIn is file for the file name of a directory whose handles are dh
// (nil: by path), its own handle used when fresh and it shows the stamp
// the last scan found, prior.
func (w *walk) fileIn(dh *dirHandles, name, p string, fresh bool, prior *stamp) (st fileState, link bool, dirTarget string, ok bool) {
	self, err := dh.fileStamp(name, p, fresh, prior)
	if err != nil {
		return st, false, "", false
	}
	st.self = self
	racy := self.racy(w.since)
	if self.mode&fs.ModeSymlink != 0 {
		link = true
		if target, err := statStamp(p, true); err == nil {
			st.target = target
			racy = racy || target.racy(w.since)
			if target.mode.IsDir() {
				if real, err := filepath.EvalSymlinks(p); err == nil {
					dirTarget = real
				}
			}
		}
	}
	// Only regular files are read: opening a named pipe would block.
	if racy && (st.self.mode.IsRegular() || st.self.mode&fs.ModeSymlink != 0 && st.target.mode.IsRegular()) {
		st.sum = w.hash(p)
	}
	return st, link, dirTarget, true
}

// hash is the content hash of the file at p (followed if a symlink), or
// unknownSum when it is too large or cannot be read.
func (w *walk) hash(p string) uint64 {
	f, err := os.Open(p)
	if err != nil {
		return unknownSum
	}
	defer f.Close()
	var h maphash.Hash
	h.SetSeed(w.seed)
	n, err := io.Copy(&h, io.LimitReader(f, maxHashed+1))
	if err != nil || n > maxHashed {
		return unknownSum
	}
	if s := h.Sum64(); s != 0 && s != unknownSum {
		return s
	}
	return 1
}

// single takes the state of one file outside the root, which may not
// exist (then its appearance is a change).
func (w *walk) single(p string) {
	if !w.counted(1) {
		return
	}
	cur, _, _, ok := w.file(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	if !ok || slices.ContainsFunc(w.singles, func(s single) bool { return s.path == p }) {
		return
	}
	w.singles = append(w.singles, single{p, cur})
	k := slices.IndexFunc(w.prev.singles, func(s single) bool { return s.path == p })
	if k < 0 {
		w.changes[p] = true
		return
	}
	prior := w.prev.singles[k].state
	if w.compare(p, cur, prior) == 1 {
		w.changes[p] = false
		if sameTime(prior, cur) && cur.self.mtime < w.trusted {
			w.sameTime = append(w.sameTime, p)
		}
	}
}

// compare says whether the file at p, now cur and found by the last scan
// as old, is unchanged (0) or changed (1). Equal stamps are the same file
// unless the last scan found them racy: then the content decides (hashed
// again if this scan did not, the stamps having settled since).
func (w *walk) compare(p string, cur, old fileState) int {
	switch {
	case old.self != cur.self || old.target != cur.target:
		return 1
	case old.sum == 0:
		return 0
	case old.sum == unknownSum:
		return 1
	}
	sum := cur.sum
	if sum == 0 && (cur.self.mode.IsRegular() || cur.target.mode.IsRegular()) {
		sum = w.hash(p)
	}
	if sum != old.sum {
		return 1
	}
	return 0
}

// sameTime reports whether a file that changed kept its inode, device and
// modification time (and its target's, for a symlink): a rewrite in place
// whose mtime was put back, or a change of mode or links only. A server
// that caches files by inode and mtime ([Inputs.MtimeCache]) keeps its old
// copy of such a file whatever it is told.
func sameTime(old, cur fileState) bool {
	same := func(a, b stamp) bool { return a.ino == b.ino && a.dev == b.dev && a.mtime == b.mtime }
	return same(old.self, cur.self) && same(old.target, cur.target)
}

// links sorts the symlinks found under root, relative to it, and keeps
// only the directory links whose targets are under root.
func (w *walk) links(root string) {
	for _, p := range w.linkSet {
		if rel, err := filepath.Rel(root, p); err == nil && filepath.IsLocal(rel) {
			w.linkList = append(w.linkList, p)
		}
	}
	slices.Sort(w.linkList)
	for link, target := range w.dirLinks {
		if rel, err := filepath.Rel(root, target); err != nil || !filepath.IsLocal(rel) {
			delete(w.dirLinks, link)
		}
	}
}

// listDir lists a directory (readDir; tests inject failures).
var listDir = readDir

// readDir lists dir, unsorted.
func readDir(dir string) ([]dirEnt, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	des, err := f.ReadDir(-1)
	if err != nil {
		return nil, err
	}
	out := make([]dirEnt, len(des))
	for i, de := range des {
		out[i] = dirEnt{name: de.Name(), dir: de.IsDir()}
	}
	return out, nil
}
