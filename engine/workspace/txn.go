package workspace

import (
	"errors"
	"io/fs"
	pathpkg "path"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// Txn is a copy-on-write change to a workspace: it records the files it
// touches (a nil entry is a deletion) over the workspace's current state and
// applies them all at once on [Txn.Commit]. Dropping a Txn discards it. A
// Txn costs what it touches, not what the workspace holds.
type Txn struct {
	w     *Workspace
	delta map[string]*file
	bytes int64
}

// Begin starts a transaction.
func (w *Workspace) Begin() *Txn {
	return &Txn{w: w, delta: make(map[string]*file), bytes: w.bytes}
}

func (t *Txn) get(path string) (*file, bool) {
	if f, ok := t.delta[path]; ok {
		return f, f != nil
	}
	f, ok := t.w.files[path]
	return f, ok
}

// Doc returns path's content as the transaction sees it.
func (t *Txn) Doc(path string) (*text.Doc, bool) {
	f, ok := t.get(path)
	if !ok {
		return nil, false
	}
	return f.doc, true
}

// put records f (nil: a deletion) at path. On error the transaction is
// unchanged.
func (t *Txn) put(path string, f *file) error {
	total := t.bytes
	if old, had := t.get(path); had {
		total -= int64(old.doc.Size())
	}
	if f != nil {
		size := int64(f.doc.Size())
		others := total
		if size <= t.w.limits.MaxFileBytes && total+size > t.w.limits.MaxTotalBytes {
			// Files with no unwritten change can leave on commit.
			_, room := t.w.room(t.keep(path))
			others -= room
		}
		if err := t.w.limits.checkSize(path, size, others); err != nil {
			return err
		}
		total += size
	}
	t.delta[path] = f
	t.bytes = total
	return nil
}

// Set replaces the content of an existing file.
func (t *Txn) Set(path string, doc *text.Doc) error {
	f, ok := t.get(path)
	if !ok {
		return t.w.notInWorkspace(path)
	}
	nf := *f
	nf.doc = doc
	return t.put(path, &nf)
}

// Add creates a file. The path must be free in the workspace and, unless
// the workspace already knows it (deleted or moved away), on disk.
func (t *Txn) Add(path string, doc *text.Doc) error {
	if err := t.free(path, "add"); err != nil {
		return err
	}
	if n := t.count() + 1; n > t.w.limits.MaxFiles {
		// Files with no unwritten change can leave on commit.
		if room, _ := t.w.room(t.keep(path)); n-room > t.w.limits.MaxFiles {
			return t.w.limits.tooMany(path, n-room)
		}
	}
	return t.put(path, &file{doc: doc})
}

// Delete removes a file from the workspace.
func (t *Txn) Delete(path string) error {
	if _, ok := t.get(path); !ok {
		return t.w.notInWorkspace(path)
	}
	return t.put(path, nil)
}

// Move moves a file to a free path, keeping its content and history.
func (t *Txn) Move(from, to string) error {
	f, ok := t.get(from)
	if !ok {
		return t.w.notInWorkspace(from)
	}
	if from == to {
		return nil
	}
	if err := t.free(to, "move onto"); err != nil {
		return err
	}
	if err := t.put(from, nil); err != nil {
		return err
	}
	return t.put(to, f)
}

// free checks that path can receive a new file.
func (t *Txn) free(path string, verb string) error {
	if err := rootfs.CheckNew(path); err != nil {
		return fault.Wrap(fault.BadArgument, err, "cannot %s this path", verb)
	}
	if _, err := t.w.fs.Abs(path); err != nil {
		return fault.Wrap(fault.BadArgument, err, "cannot %s %s", verb, path)
	}
	if _, ok := t.get(path); ok {
		return fault.New(fault.Conflict, "cannot %s %s: the file already exists in the workspace; update it instead, or delete it first", verb, path)
	}
	if err := t.dirClash(path, verb); err != nil {
		return err
	}
	if _, known := t.w.pers[path]; known {
		return nil // on disk, but deleted or moved away in the workspace
	}
	switch _, err := t.w.fs.Stat(path); {
	case err == nil:
		return fault.New(fault.Conflict, "cannot %s %s: the file already exists on disk; acquire it and update it instead", verb, path)
	case errors.Is(err, fs.ErrNotExist):
		return nil
	default:
		var pe *rootfs.PathError
		if errors.As(err, &pe) || errors.Is(err, rootfs.ErrOutsideRoot) {
			return fault.Wrap(fault.BadArgument, err, "cannot %s %s", verb, path)
		}
		return fault.Wrap(fault.IO, err, "cannot %s %s", verb, path)
	}
}

// dirClash refuses a path that would make a file and a directory share a
// path in the workspace: a file at one of its parent directories, or files
// under it. The disk is checked by the caller; this catches files that are
// only in the workspace, which write would otherwise fail on halfway.
func (t *Txn) dirClash(p, verb string) error {
	for d := pathpkg.Dir(p); d != "." && d != "/"; d = pathpkg.Dir(d) {
		if _, ok := t.get(d); ok {
			return fault.New(fault.BadArgument, "cannot %s %s: %q is a file in the workspace, so it cannot also be a directory; choose another path, or delete or move %s first", verb, p, d, d)
		}
	}
	prefix := p + "/"
	under := func(q string) bool {
		if !strings.HasPrefix(q, prefix) {
			return false
		}
		_, ok := t.get(q)
		return ok
	}
	for q := range t.delta {
		if under(q) {
			return fault.New(fault.BadArgument, "cannot %s %s: the workspace has files under that path (%q), so it is a directory; choose another path, or delete or move them first", verb, p, q)
		}
	}
	for q := range t.w.files {
		if under(q) {
			return fault.New(fault.BadArgument, "cannot %s %s: the workspace has files under that path (%q), so it is a directory; choose another path, or delete or move them first", verb, p, q)
		}
	}
	return nil
}

func (t *Txn) count() int {
	n := len(t.w.files)
	for p, f := range t.delta {
		_, was := t.w.files[p]
		switch {
		case was && f == nil:
			n--
		case !was && f != nil:
			n++
		}
	}
	return n
}

// keep reports the paths that cannot leave to make room for the
// transaction: those it touches, and path.
func (t *Txn) keep(path string) func(string) bool {
	return func(p string) bool {
		_, touched := t.delta[p]
		return touched || p == path
	}
}

// Touched returns the paths the transaction changed, in no order.
func (t *Txn) Touched() []string {
	out := make([]string, 0, len(t.delta))
	for p := range t.delta {
		out = append(out, p)
	}
	return out
}

// Commit applies the transaction to the workspace. Files with no unwritten
// change that it does not touch leave, least recently used first, when it
// needs their room. It cannot fail once the transaction's own operations
// have succeeded.
func (t *Txn) Commit() error {
	// Every file of one commit is used at the same time, so the order in
	// which they later leave does not depend on map order (ties go by
	// path).
	t.w.clock++
	for p, f := range t.delta {
		t.w.touched[p] = struct{}{}
		if f == nil {
			delete(t.w.files, p)
			t.w.forget(p)
		} else {
			t.w.files[p] = f
			t.w.used[p] = t.w.clock
		}
	}
	t.w.bytes = t.bytes
	t.w.evictFor(0, 0, t.keep(""))
	t.delta = nil
	return nil
}
