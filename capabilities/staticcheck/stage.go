package staticcheck

// This file defines [stage]: the staged tree, a copy of the module on disk
// with the workspace's content laid over it, that staticcheck's runner
// loads. The runner reads sources from disk (go list, then os.Open in its
// loader), so an overlay cannot reach it; a real tree can. A run whose
// workspace the module on disk already holds needs no stage (direct.go).
//
// The stage lives at a fixed place per module root, so that build IDs and
// staticcheck's cache keys (which include file paths) stay the same from
// one run to the next, in this process and the next. It is synchronized,
// not rebuilt: a file is copied only when its source changed (size or
// modification time for disk files, bytes for workspace content), and
// staged files that no longer have a source are removed.
//
// Invariant: the stage is never under os.UserCacheDir: staticcheck takes
// files there for Go build cache files and would not look for their
// staticcheck.conf.
//
// The stage belongs to the driver that made it and is removed by its
// Close ([stage.remove]), under the stage's lock file: other processes
// linting the same module wait, and find the stage gone (see
// [stage.lock]).
//
// Its content is synchronized in stage_sync.go.

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/lockedfile"

	"github.com/devbroker/devbroker/capabilities"
)

// stage is the staged tree of one module root.
type stage struct {
	// base is the module root on disk: the nearest directory at or above
	// the workspace root holding go.mod (or go.work).
	base string
	// rootRel is the workspace root relative to base, slash-separated,
	// "" when they are the same.
	rootRel string
	// dir is the stage's own directory (lock file, tree).
	dir string
	// tree is where base is staged: dir/tree/<base as an absolute path>,
	// so that staticcheck.conf files above base have a place too.
	tree string
	// work reports whether base holds a go.work file.
	work bool
}

// stageRoot is the directory under which stages live.
func stageRoot() (string, error) {
	dir := filepath.Join(os.TempDir(), fmt.Sprintf("devbroker-staticcheck-%d", os.Getuid()))
	if cache, err := os.UserCacheDir(); err == nil && strings.HasPrefix(dir, cache) {
		return "", fmt.Errorf("the temporary directory %s is inside the user cache directory %s, where staticcheck ignores staticcheck.conf; set TMPDIR elsewhere", dir, cache)
	}
	return dir, nil
}

// newStage returns the stage of the module that holds root. It creates no
// file.
func newStage(root string) (*stage, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	base, work := moduleBase(root)
	rel, err := filepath.Rel(base, root)
	if err != nil {
		return nil, err
	}
	if rel == "." {
		rel = ""
	}
	sr, err := stageRoot()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(base))
	dir := filepath.Join(sr, hex.EncodeToString(sum[:8]))
	return &stage{
		base:    base,
		rootRel: filepath.ToSlash(rel),
		dir:     dir,
		tree:    filepath.Join(dir, "tree", base),
		work:    work,
	}, nil
}

// lock takes the stage's lock file, making the stage's directory first.
// A lock taken on a file that a closing driver removed meanwhile is let go
// and taken again on the new one.
func (s *stage) lock() (unlock func(), err error) {
	name := filepath.Join(s.dir, "lock")
	for range 10 {
		if err := os.MkdirAll(s.dir, 0o777); err != nil {
			return nil, err
		}
		f, err := lockedfile.OpenFile(name, os.O_RDWR|os.O_CREATE, 0o666)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed between MkdirAll and the open
		}
		if err != nil {
			return nil, err
		}
		held, err1 := f.Stat()
		now, err2 := os.Stat(name)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return func() { f.Close() }, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("staticcheck's private copy of the module %s, kept at %s, was deleted each time devbroker took its lock (another devbroker process is closing and removing it); run the request again: a new copy will be made", s.base, s.dir)
}

// remove deletes the stage, under its lock, and the directory of stages
// when it is left empty.
func (s *stage) remove() error {
	if _, err := os.Stat(s.dir); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	unlock, err := s.lock()
	if err != nil {
		return err
	}
	defer unlock()
	if err := os.RemoveAll(s.dir); err != nil {
		return fmt.Errorf("removing the staged module at %s: %w", s.dir, err)
	}
	os.Remove(filepath.Dir(s.dir)) // only if empty: other stages stay
	return nil
}

// moduleBase is the module context of root by the Go drivers' one rule
// ([capabilities.GoModule]), and whether it has a go.work; root when
// there is none.
func moduleBase(root string) (string, bool) {
	if dir, _, work := capabilities.GoModule(root); dir != "" {
		return dir, work
	}
	return root, false
}

// workspacePath converts a file name in the stage (or on disk under base)
// back to a workspace path. ok is false for files outside the workspace
// root; p is then the original absolute path.
func (s *stage) workspacePath(name string) (p string, ok bool) {
	rel, err := filepath.Rel(s.tree, name)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return name, false
	}
	rel = filepath.ToSlash(rel)
	if s.rootRel != "" {
		if !strings.HasPrefix(rel, s.rootRel+"/") {
			return filepath.Join(s.base, filepath.FromSlash(rel)), false
		}
		rel = rel[len(s.rootRel)+1:]
	}
	return rel, true
}

// skipDir reports whether a directory of the module is left out of the
// stage: version control and tool directories (any name starting with a
// dot, which go ignores too) and node_modules.
func skipDir(name string) bool {
	return strings.HasPrefix(name, ".") || name == "node_modules"
}
