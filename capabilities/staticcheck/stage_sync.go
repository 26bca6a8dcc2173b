package staticcheck

// This file defines how a [stage] is synchronized with the module on disk
// and the workspace: which files it holds (sync, prune), how one is
// written (put), and the staticcheck.conf files above the module and the
// go.mod replacements it must see as the original does.
//
// Invariant: staged files are written by rename of a new file, never in
// place, and never linked to the originals: nothing done in the stage
// (go may rewrite go.sum with -mod=mod) reaches the user's files.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/internal/gomod"
)

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
	f, err := gomod.Parse("go.mod", data)
	if err != nil {
		return src // go list reports the error
	}
	changed := false
	for _, r := range gomod.LocalReplaces(f.Replace) {
		if filepath.IsAbs(r.New.Path) {
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
