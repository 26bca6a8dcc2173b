package staticcheck

// This file defines [stage]: the staged tree, a copy of the module on disk
// with the workspace's content laid over it, that staticcheck's runner
// loads. The runner reads sources from disk (go list, then os.Open in its
// loader), so an overlay cannot reach it; a real tree can.
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
// Invariant: staged files are written by rename of a new file, never in
// place, and never linked to the originals: nothing done in the stage
// (go may rewrite go.sum with -mod=mod) reaches the user's files.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/rogpeppe/go-internal/lockedfile"
	"golang.org/x/mod/modfile"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
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
	return nil, fmt.Errorf("the stage %s kept being removed while devbroker waited for its lock (another devbroker closing); run the request again", s.dir)
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

// source is what one staged file is made from: a disk file, or content.
type source struct {
	disk    string // absolute path on disk, or ""
	info    fs.FileInfo
	content []byte // workspace content, when disk is ""
}

// sync makes the stage hold base's files from disk, with the workspace
// files of all laid over them and deleted left out. It returns how many
// files it wrote or removed.
//
// A symlink that leaves the workspace root is not staged (see
// [stage.linkLeaves]): staticcheck never reads what it leads to.
func (s *stage) sync(all map[string]*text.Doc, deleted []string) (int, error) {
	want := map[string]source{} // base-relative, slash-separated
	leaves := s.linkLeaves()
	err := filepath.WalkDir(s.base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == s.base {
				return err
			}
			return nil // unreadable: staticcheck would not see it either
		}
		if d.IsDir() {
			if p != s.base && skipDir(d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if !info.Mode().IsRegular() && info.Mode()&fs.ModeSymlink == 0 {
			return nil
		}
		if info.Mode()&fs.ModeSymlink != 0 && leaves(p) {
			return nil
		}
		rel, _ := filepath.Rel(s.base, p)
		want[filepath.ToSlash(rel)] = source{disk: p, info: info}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("reading the module at %s: %w", s.base, err)
	}
	for _, p := range deleted {
		delete(want, path.Join(s.rootRel, p))
	}
	for p, doc := range all {
		want[path.Join(s.rootRel, p)] = source{content: []byte(doc.String())}
	}
	if src, ok := want["go.mod"]; ok {
		want["go.mod"] = s.absoluteReplaces(src)
	}
	n := 0
	for rel, src := range want {
		wrote, err := s.put(filepath.Join(s.tree, filepath.FromSlash(rel)), src)
		if err != nil {
			return n, err
		}
		if wrote {
			n++
		}
	}
	removed, err := s.prune(want)
	n += removed
	if err != nil {
		return n, err
	}
	m, err := s.syncConfigsAbove()
	return n + m, err
}

// linkLeaves returns the test for a symlink at p (absolute, under base)
// that must not be staged: under the workspace root, one that leads
// outside it (rootfs's rule); above it, in a module whose root is above
// the workspace's, one that leads outside the module.
func (s *stage) linkLeaves() func(p string) bool {
	root := filepath.Join(s.base, filepath.FromSlash(s.rootRel))
	fsys, err := rootfs.New(root)
	return func(p string) bool {
		if rel, err2 := filepath.Rel(root, p); err == nil && err2 == nil && filepath.IsLocal(rel) {
			return fsys.Leaves(filepath.ToSlash(rel))
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return true
		}
		rel, err := filepath.Rel(s.base, real)
		return err != nil || !filepath.IsLocal(rel)
	}
}

// put makes the staged file dst hold src, and reports whether it had to
// write.
func (s *stage) put(dst string, src source) (bool, error) {
	cur, curErr := os.Lstat(dst)
	if src.disk != "" && src.info.Mode()&fs.ModeSymlink != 0 {
		target, err := os.Readlink(src.disk)
		if err != nil {
			return false, nil
		}
		if curErr == nil && cur.Mode()&fs.ModeSymlink != 0 {
			if t, _ := os.Readlink(dst); t == target {
				return false, nil
			}
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
			return false, err
		}
		os.RemoveAll(dst)
		return true, os.Symlink(target, dst)
	}
	if curErr == nil && cur.Mode().IsRegular() {
		if src.disk != "" {
			if cur.Size() == src.info.Size() && cur.ModTime().Equal(src.info.ModTime()) {
				return false, nil
			}
		} else if cur.Size() == int64(len(src.content)) {
			if old, err := os.ReadFile(dst); err == nil && bytes.Equal(old, src.content) {
				return false, nil
			}
		}
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
		return false, err
	}
	if curErr == nil && cur.IsDir() {
		if err := os.RemoveAll(dst); err != nil {
			return false, err
		}
	}
	if src.disk != "" {
		return true, copyFile(dst, src.disk, src.info)
	}
	return true, writeFile(dst, src.content, 0o666, nil)
}

// copyFile copies the disk file src to dst, with its mode and
// modification time (which the next sync compares).
func copyFile(dst, src string, info fs.FileInfo) error {
	f, err := os.Open(src)
	if err != nil {
		return err
	}
	defer f.Close()
	return writeFile(dst, f, info.Mode().Perm()|0o200, info)
}

// writeFile writes data (a []byte or an io.Reader) to a new file next to
// dst and renames it over dst.
func writeFile(dst string, data any, perm fs.FileMode, info fs.FileInfo) error {
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".stage-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	switch d := data.(type) {
	case []byte:
		_, err = tmp.Write(d)
	case io.Reader:
		_, err = io.Copy(tmp, d)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), perm)
	}
	if err == nil && info != nil {
		err = os.Chtimes(tmp.Name(), info.ModTime(), info.ModTime())
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	return err
}

// prune removes staged files and directories that want does not hold.
func (s *stage) prune(want map[string]source) (int, error) {
	dirs := map[string]bool{".": true}
	for rel := range want {
		for d := path.Dir(rel); !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	n := 0
	err := filepath.WalkDir(s.tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		rel, _ := filepath.Rel(s.tree, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if !dirs[rel] {
				n++
				if err := os.RemoveAll(p); err != nil {
					return err
				}
				return filepath.SkipDir
			}
			return nil
		}
		if _, ok := want[rel]; !ok {
			n++
			return os.Remove(p)
		}
		return nil
	})
	return n, err
}

// syncConfigsAbove copies the staticcheck.conf files of base's ancestors
// to the same places above the staged tree: staticcheck merges every
// staticcheck.conf from a package's directory up to the file system root.
func (s *stage) syncConfigsAbove() (int, error) {
	n := 0
	top := filepath.Join(s.dir, "tree")
	for dir := filepath.Dir(s.base); ; dir = filepath.Dir(dir) {
		src := filepath.Join(dir, "staticcheck.conf")
		dst := filepath.Join(top, dir, "staticcheck.conf")
		if info, err := os.Stat(src); err == nil && info.Mode().IsRegular() {
			wrote, err := s.put(dst, source{disk: src, info: info})
			if err != nil {
				return n, err
			}
			if wrote {
				n++
			}
		} else if _, err := os.Lstat(dst); err == nil {
			n++
			if err := os.Remove(dst); err != nil {
				return n, err
			}
		}
		if filepath.Dir(dir) == dir {
			return n, nil
		}
	}
}

// absoluteReplaces rewrites the relative directory replacements of base's
// go.mod ("=> ../fork") to absolute paths of the originals, which the
// staged module cannot reach relatively. Other go.mod files are staged as
// they are.
func (s *stage) absoluteReplaces(src source) source {
	data := src.content
	if src.disk != "" {
		var err error
		if data, err = os.ReadFile(src.disk); err != nil {
			return src
		}
	}
	f, err := modfile.Parse("go.mod", data, nil)
	if err != nil {
		return src // go list reports the error
	}
	changed := false
	for _, r := range f.Replace {
		if r.New.Version != "" || !modfile.IsDirectoryPath(r.New.Path) || filepath.IsAbs(r.New.Path) {
			continue
		}
		abs := filepath.Join(s.base, filepath.FromSlash(r.New.Path))
		if err := f.AddReplace(r.Old.Path, r.Old.Version, abs, ""); err != nil {
			return src
		}
		changed = true
	}
	if !changed {
		return src
	}
	out, err := f.Format()
	if err != nil {
		return src
	}
	return source{content: out}
}
