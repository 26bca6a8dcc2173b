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
// changed directories are listed again; every file is stat'ed.
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

// dirEnt is one entry of a directory listing.
type dirEnt struct {
	name string
	dir  bool
}

// dirState is one directory as the last scan saw it.
type dirState struct {
	st      stamp
	settled bool // st is not racy: an equal stamp means equal entries
	ents    []dirEnt
}

// scanState is one complete scan.
type scanState struct {
	files map[string]fileState
	dirs  map[string]*dirState
	links []string // the symlinks under the root, sorted
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
}

func newTracker(cfg *Config) *tracker {
	return &tracker{root: cfg.Root, inputs: cfg.Inputs, env: cfg.Env, max: MaxInputs, window: racyWindow}
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
	root := t.root
	w.tree(root, "", true)
	w.wait()
	var problems []string
	if t.inputs.Go {
		problems = t.golist.update(t, w)
		for _, dir := range t.golist.trees {
			w.tree(dir, root, false)
		}
		w.wait()
	}
	problems = append(w.problems, problems...)
	changes := map[string]bool{}
	switch {
	case w.over.Load():
		// Not every input was seen: nothing is known to be gone. The
		// state stays the last complete one, marked incomplete, so the
		// scan that completes again reports every file.
		t.whole = false
		problems = append([]string{fmt.Sprintf("the root and the inputs outside it hold more than %d files and directories, more than devbroker checks before each answer; serve a smaller root (a subdirectory that is a module or project of its own)", t.max)}, problems...)
		t.problem = strings.Join(problems, "; ")
		return changes, t.problem
	case t.state == nil:
	case !t.whole:
		for p := range w.files {
			changes[p] = false
		}
		for p := range t.state.files {
			changes[p] = false
		}
	default:
		changes = w.changes
		for p := range t.state.files {
			if _, ok := w.files[p]; !ok {
				changes[p] = false
			}
		}
	}
	w.links(root)
	t.state, t.whole = &scanState{files: w.files, dirs: w.dirs, links: w.linkList}, true
	t.problem = strings.Join(problems, "; ")
	aliases(changes, w.dirLinks)
	if t.inputs.Go {
		t.noteBlind(changes)
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
// latest scan, and moves blindGen on when they or their files changed, or
// a file their build may read elsewhere (see buildShared). Called with
// t.mu held.
func (t *tracker) noteBlind(changes map[string]bool) {
	var dirs []string
	for dir, ds := range t.state.dirs {
		goFile, blind := false, false
		for _, e := range ds.ents {
			if e.dir {
				continue
			}
			ext := filepath.Ext(e.name)
			goFile = goFile || ext == ".go"
			blind = blind || slices.Contains(BlindSources, ext)
		}
		if goFile && blind && !ignoredByGo(t.relDir(dir)) {
			dirs = append(dirs, dir)
		}
	}
	slices.Sort(dirs)
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

	sem   chan struct{}
	wg    sync.WaitGroup
	count atomic.Int64
	over  atomic.Bool

	mu       sync.Mutex
	files    map[string]fileState
	dirs     map[string]*dirState
	changes  map[string]bool
	problems []string
	dirLinks map[string]string // directory symlinks under the root → their resolved targets inside it
	sameTime []string          // changed files whose inode and modification time did not change
	linkSet  []string          // symlinks under the root (absolute)
	linkList []string          // the same, relative and sorted (see links)
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
		files: make(map[string]fileState, len(prev.files)), dirs: make(map[string]*dirState, len(prev.dirs)),
		changes: map[string]bool{}, dirLinks: map[string]string{},
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
	fi, err := os.Stat(dir)
	switch {
	case !inRoot && (err != nil || !fi.IsDir()):
		return // the caller says why (goinputs.go)
	case err != nil:
		w.problem("the root %s cannot be read: %v", dir, err)
		return
	case !fi.IsDir():
		w.problem("the root %s is not a directory", dir)
		return
	}
	w.spawn(dir, skip, inRoot)
}

// spawn scans dir on another goroutine when one is free, else on this one.
func (w *walk) spawn(dir, skip string, inRoot bool) {
	select {
	case w.sem <- struct{}{}:
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			defer func() { <-w.sem }()
			w.dir(dir, skip, inRoot)
		}()
	default:
		w.dir(dir, skip, inRoot)
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

// dir scans one directory: its entries (listed again only when its stamp
// changed or was racy), each file's stamp, and its subdirectories.
func (w *walk) dir(dir, skip string, inRoot bool) {
	if w.over.Load() || !w.counted(1) {
		return
	}
	fi, err := os.Stat(dir)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.problem("the directory %s cannot be read (%v), so whether it changed cannot be checked: make it readable or remove it", dir, err)
		}
		return
	}
	st := stampOf(fi)
	old := w.prev.dirs[dir]
	var ents []dirEnt
	if old != nil && old.settled && old.st == st {
		ents = old.ents
	} else if ents, err = listDir(dir); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			w.problem("the directory %s cannot be listed (%v), so whether its files changed cannot be checked: make it readable or remove it", dir, err)
		}
		return
	}
	ds := &dirState{st: st, settled: !st.racy(w.since), ents: ents}
	type seen struct {
		path    string
		fs      fileState
		changed int // 0 no, 1 changed, 2 created
		link    bool
		dirLink string
	}
	var out []seen
	for _, e := range ents {
		p := filepath.Join(dir, e.name)
		if e.dir {
			if !vcsDir(e.name) && p != skip {
				w.spawn(p, skip, inRoot)
			}
			continue
		}
		if !w.counted(1) {
			return
		}
		fs, link, target, ok := w.file(p)
		if !ok {
			continue
		}
		s := seen{path: p, fs: fs, link: link && inRoot, changed: w.compare(p, fs)}
		if inRoot && target != "" {
			s.dirLink = target
		}
		out = append(out, s)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.dirs[dir] = ds
	for _, s := range out {
		w.files[s.path] = s.fs
		if s.changed > 0 {
			w.changes[s.path] = s.changed == 2
		}
		if s.changed == 1 && sameTime(w.prev.files[s.path], s.fs) && s.fs.self.mtime < w.trusted {
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

// file takes one file's state; for a symlink also its target's, and, for
// one that resolves to a directory under the root, that directory
// (dirTarget, symlinks resolved). ok is false when the file is gone.
func (w *walk) file(p string) (st fileState, link bool, dirTarget string, ok bool) {
	fi, err := os.Lstat(p)
	if err != nil {
		return st, false, "", false
	}
	st.self = stampOf(fi)
	racy := st.self.racy(w.since)
	if fi.Mode()&fs.ModeSymlink != 0 {
		link = true
		if ti, err := os.Stat(p); err == nil {
			st.target = stampOf(ti)
			racy = racy || st.target.racy(w.since)
			if ti.IsDir() {
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
	fs, _, _, ok := w.file(p)
	w.mu.Lock()
	defer w.mu.Unlock()
	if !ok {
		return
	}
	if _, dup := w.files[p]; dup {
		return
	}
	w.files[p] = fs
	switch w.compare(p, fs) {
	case 2:
		w.changes[p] = true
	case 1:
		w.changes[p] = false
		if sameTime(w.prev.files[p], fs) && fs.self.mtime < w.trusted {
			w.sameTime = append(w.sameTime, p)
		}
	}
}

// compare says whether the file at p, now fs, is unchanged since the last
// scan (0), changed (1) or new (2). Equal stamps are the same file unless
// the last scan found them racy: then the content decides (hashed again
// if this scan did not, the stamps having settled since).
func (w *walk) compare(p string, fs fileState) int {
	old, had := w.prev.files[p]
	switch {
	case !had:
		return 2
	case old.self != fs.self || old.target != fs.target:
		return 1
	case old.sum == 0:
		return 0
	case old.sum == unknownSum:
		return 1
	}
	sum := fs.sum
	if sum == 0 && (fs.self.mode.IsRegular() || fs.target.mode.IsRegular()) {
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
