package capabilities

// This file defines [Trees]: a set's store of staged trees, the copies of
// the workspace content that drivers reading a tree (an external command
// with input "staged") run in.

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/devbroker/devbroker/engine/text"
)

// DefaultTreeBudget bounds the bytes of the staged trees a store keeps
// when no driver uses them.
const DefaultTreeBudget = 64 << 20

// Trees keeps staged trees under one temporary directory, made on first
// use. A shared tree is keyed by its content, so the drivers of one
// request that stage the same workspace share one copy; a tree nobody
// uses stays for the next request while the store is within its budget,
// the least recently used leaving first. Close removes every tree and the
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
	ready chan struct{} // closed once written (err says how)
	err   error
}

// NewTrees returns an empty store that keeps up to budget bytes of unused
// trees (DefaultTreeBudget when budget is not positive). It creates no
// file.
func NewTrees(budget int64) *Trees {
	if budget <= 0 {
		budget = DefaultTreeBudget
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
		tr.dir, tr.size, tr.err = t.write(all)
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
	dir, _, err = t.write(all)
	if err != nil {
		return "", nil, err
	}
	var once sync.Once
	return dir, func() { once.Do(func() { os.RemoveAll(dir) }) }, nil
}

// release lets go of tr and evicts unused trees beyond the budget.
func (t *Trees) release(tr *tree) {
	t.mu.Lock()
	defer t.mu.Unlock()
	tr.refs--
	if tr.refs == 0 && tr.err == nil && t.trees[tr.key] == tr {
		// A command may have written into the tree (a cache, a build
		// directory): count what is there now.
		n := diskSize(tr.dir)
		t.size += n - tr.size
		tr.size = n
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

// write stages all in a new directory of the store.
func (t *Trees) write(all map[string]*text.Doc) (string, int64, error) {
	base, err := t.base()
	if err != nil {
		return "", 0, err
	}
	dir, err := os.MkdirTemp(base, "t-")
	if err != nil {
		return "", 0, fmt.Errorf("making a staged tree: %w", err)
	}
	var size int64
	for p, doc := range all {
		if err := WriteAt(dir, p, doc); err != nil {
			os.RemoveAll(dir)
			return "", 0, err
		}
		size += int64(doc.Size())
	}
	return dir, size, nil
}

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
	dir, err := os.MkdirTemp("", "devbroker-trees-")
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

// diskSize is the bytes of the regular files under dir.
func diskSize(dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				n += info.Size()
			}
		}
		return nil
	})
	return n
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
