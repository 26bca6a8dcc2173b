package capabilities

// This file defines [Trees]: a set's store of staged trees, the copies of
// the workspace content that drivers reading a tree (an external command
// with input "staged") run in.
//
// Invariant: a shared tree holds the workspace exactly when a holder gets
// it: a tree a command wrote into (a file changed, added or removed) is
// dropped when its last holder lets go, never handed to the next
// (TestTreesDropAWrittenTree).

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/internal/privtemp"
)

// defaultTreeBudget bounds the bytes of the staged trees a store keeps
// when no driver uses them.
const defaultTreeBudget = 64 << 20

// Trees keeps staged trees under one temporary directory, made on first
// use. A shared tree is keyed by its content, so the drivers of one
// request that stage the same workspace share one copy; a tree nobody
// uses stays for the next request while the store is within its budget,
// the least recently used leaving first, unless a command wrote into it. Close removes every tree and the
// directory. It is safe for concurrent use.
type Trees struct {
	budget int64

	mu     sync.Mutex
	dir    string
	trees  map[string]*tree // shared trees by content key
	size   int64            // bytes of the shared trees
	clock  int64
	closed bool
}

type tree struct {
	key   string
	dir   string
	size  int64
	refs  int
	used  int64
	files map[string]stamp // what was written, by slash path under dir
	ready chan struct{}    // closed once written (err says how)
	err   error
}

// stamp is what a staged file was when written.
type stamp struct {
	size int64
	mod  time.Time
}

// NewTrees returns an empty store that keeps up to budget bytes of unused
// trees (defaultTreeBudget when budget is not positive). It creates no
// file.
func NewTrees(budget int64) *Trees {
	if budget <= 0 {
		budget = defaultTreeBudget
	}
	return &Trees{budget: budget, trees: map[string]*tree{}}
}

var errTreesClosed = errors.New("the staged trees were removed (the drivers were closed); run the request again")

// Shared returns a tree holding every file of all at its workspace path,
// staged on first use, for commands that only read it; release lets go of
// it (it is idempotent).
func (t *Trees) Shared(all map[string]*text.Doc) (dir string, release func(), err error) {
	key := contentKey(all)
	t.mu.Lock()
	if t.closed {
		t.mu.Unlock()
		return "", nil, errTreesClosed
	}
	tr, ok := t.trees[key]
	if !ok {
		tr = &tree{key: key, ready: make(chan struct{})}
		t.trees[key] = tr
	}
	tr.refs++
	t.clock++
	tr.used = t.clock
	t.mu.Unlock()
	var once sync.Once
	release = func() { once.Do(func() { t.release(tr) }) }
	if !ok {
		tr.dir, tr.files, tr.size, tr.err = t.write(all)
		t.mu.Lock()
		t.size += tr.size
		t.mu.Unlock()
		close(tr.ready)
	}
	<-tr.ready
	if tr.err != nil {
		t.mu.Lock()
		if t.trees[key] == tr {
			delete(t.trees, key) // the next request tries again
		}
		t.mu.Unlock()
		release()
		return "", nil, tr.err
	}
	return tr.dir, release, nil
}

// Private returns a new tree holding all that only the caller uses (a
// formatter or a fix command rewrites it); release removes it.
func (t *Trees) Private(all map[string]*text.Doc) (dir string, release func(), err error) {
	dir, _, _, err = t.write(all)
	if err != nil {
		return "", nil, err
	}
	var once sync.Once
	return dir, func() { once.Do(func() { os.RemoveAll(dir) }) }, nil
}

// release lets go of tr, drops it when a command wrote into it, and
// evicts unused trees beyond the budget.
func (t *Trees) release(tr *tree) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tr.refs--
	if tr.refs == 0 && tr.err == nil && t.trees[tr.key] == tr && !intact(tr.dir, tr.files) {
		// A command wrote into the tree (a cache, a build directory, a
		// changed file): the next holder must see the workspace only.
		delete(t.trees, tr.key)
		t.size -= tr.size
		os.RemoveAll(tr.dir)
	}
	if t.size <= t.budget {
		return
	}
	var idle []string
	for k, x := range t.trees {
		if x.refs == 0 {
			idle = append(idle, k)
		}
	}
	slices.SortFunc(idle, func(a, b string) int { return cmp.Compare(t.trees[a].used, t.trees[b].used) })
	for _, k := range idle {
		if t.size <= t.budget {
			break
		}
		x := t.trees[k]
		delete(t.trees, k)
		t.size -= x.size
		os.RemoveAll(x.dir)
	}
}

// write stages all in a new directory of the store, and returns what it
// wrote.
func (t *Trees) write(all map[string]*text.Doc) (string, map[string]stamp, int64, error) {
	base, err := t.base()
	if err != nil {
		return "", nil, 0, err
	}
	dir, err := os.MkdirTemp(base, "t-")
	if err != nil {
		return "", nil, 0, fmt.Errorf("making a staged tree: %w", err)
	}
	files := make(map[string]stamp, len(all))
	var size int64
	for p, doc := range all {
		err := WriteAt(dir, p, doc)
		var fi fs.FileInfo
		if err == nil {
			fi, err = os.Lstat(filepath.Join(dir, filepath.FromSlash(p)))
		}
		if err != nil {
			os.RemoveAll(dir)
			return "", nil, 0, err
		}
		files[p] = stamp{fi.Size(), fi.ModTime()}
		size += fi.Size()
	}
	return dir, files, size, nil
}

// intact reports whether dir holds files exactly as written: no file
// changed, removed or added, and no other directory.
func intact(dir string, files map[string]stamp) bool {
	dirs := map[string]bool{}
	for p := range files {
		for d := path.Dir(p); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	seen := 0
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if !dirs[rel] {
				return errChanged
			}
			return nil
		}
		want, ok := files[rel]
		fi, err := d.Info()
		if !ok || err != nil || !fi.Mode().IsRegular() || fi.Size() != want.size || !fi.ModTime().Equal(want.mod) {
			return errChanged
		}
		seen++
		return nil
	})
	return err == nil && seen == len(files)
}

var errChanged = errors.New("the tree changed")

// base is the store's directory, made on first use, as its real path (so
// that paths a command prints through symlinks still match).
func (t *Trees) base() (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return "", errTreesClosed
	}
	if t.dir != "" {
		return t.dir, nil
	}
	dir, err := privtemp.Dir("trees")
	if err != nil {
		return "", fmt.Errorf("making the staged trees' directory: %w (set TMPDIR to a writable directory)", err)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	t.dir = dir
	return dir, nil
}

// Close removes every tree and the store's directory; later requests for
// a tree fail. It is idempotent. Trees still in use are removed too: a
// set closes its store only after its last request ended.
func (t *Trees) Close() error {
	t.mu.Lock()
	dir := t.dir
	t.closed = true
	t.trees = map[string]*tree{}
	t.size = 0
	t.mu.Unlock()
	if dir == "" {
		return nil
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("removing the staged trees at %s: %w", dir, err)
	}
	return nil
}

// WriteAt writes doc at workspace path p under dir, private to the user.
func WriteAt(dir, p string, doc *text.Doc) error {
	if !filepath.IsLocal(filepath.FromSlash(p)) {
		return fmt.Errorf("workspace path %q is not local", p)
	}
	full := filepath.Join(dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o700); err != nil {
		return fmt.Errorf("staging %s: %w", p, err)
	}
	if err := os.WriteFile(full, doc.Bytes(), 0o600); err != nil {
		return fmt.Errorf("staging %s: %w", p, err)
	}
	return nil
}

// contentKey identifies all's content: its paths and bytes.
func contentKey(all map[string]*text.Doc) string {
	paths := make([]string, 0, len(all))
	for p := range all {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	h := sha256.New()
	var n [8]byte
	for _, p := range paths {
		b := all[p].Bytes()
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
		binary.LittleEndian.PutUint64(n[:], uint64(len(b)))
		h.Write(n[:])
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}
