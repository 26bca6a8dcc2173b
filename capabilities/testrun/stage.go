package testrun

// This file stages the project for a test run: a private copy of the
// root's files with the workspace's changes applied, so that the tests
// see the unwritten content and what they write never reaches the root.

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine/text"
)

// linkDirs are the directories the copy links to instead of copying: the
// project's environments, which tests read and do not change. Version
// control is left out.
var linkDirs = map[string]bool{".venv": true, "venv": true}

// cacheDirs are the entries of a node_modules directory that tools write
// their caches into (vite's and vitest's .vite, the .cache of others):
// the copy's node_modules starts without them, so that a run's caches
// stay in the copy and never reach the root.
var cacheDirs = map[string]bool{".vite": true, ".vite-temp": true, ".vitest": true, ".cache": true}

// Stage copies root into dst (which exists) and applies the workspace:
// the changed files of all are written, the deleted ones removed. A
// symlink whose target lies in the root points to the same place in the
// copy, and a changed file replaces the link at its path, so that
// neither the staging nor a test writes into the root through a link.
// The copy stops when ctx ends (a run past its timeout), with ctx's error.
func Stage(ctx context.Context, dst, root string, all map[string]*text.Doc, changed, deleted []string) error {
	roots := []string{filepath.Clean(root)}
	if real, err := filepath.EvalSymlinks(root); err == nil && real != roots[0] {
		roots = append(roots, real)
	}
	// retarget is a link's target in the copy: the same place in the copy
	// when it lies in the root, else the place itself, absolute.
	retarget := func(p, target string) string {
		abs := target
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(filepath.Dir(p), target)
		}
		for _, r := range roots {
			if rel, err := filepath.Rel(r, abs); err == nil && (rel == "." || filepath.IsLocal(rel)) {
				return filepath.Join(dst, rel)
			}
		}
		return filepath.Clean(abs)
	}
	err := filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || rel == "." {
			return err
		}
		to := filepath.Join(dst, rel)
		switch {
		case e.IsDir() && (e.Name() == ".git" || e.Name() == "__pycache__" || e.Name() == ".pytest_cache"):
			return filepath.SkipDir
		case e.Name() == "node_modules" && (e.IsDir() || isDirLink(p)):
			// A directory of its own, each package linked: what
			// the runner writes there (a cache) stays in the copy.
			if err := linkEntries(p, to); err != nil || !e.IsDir() {
				return err
			}
			return filepath.SkipDir
		case e.IsDir() && linkDirs[e.Name()]:
			if err := os.Symlink(p, to); err != nil {
				return err
			}
			return filepath.SkipDir
		case e.IsDir():
			return os.Mkdir(to, 0o700)
		case e.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(retarget(p, target), to)
		case e.Type().IsRegular():
			return copyFile(p, to)
		}
		return nil // sockets, devices: not the project's
	})
	if err != nil {
		return fmt.Errorf("staging the project for its tests: %w", err)
	}
	for _, p := range changed {
		if doc, ok := all[p]; ok {
			// A link at the path is replaced, not written through.
			full := filepath.Join(dst, filepath.FromSlash(p))
			if fi, err := os.Lstat(full); err == nil && filepath.IsLocal(filepath.FromSlash(p)) && fi.Mode()&fs.ModeSymlink != 0 {
				if err := os.Remove(full); err != nil {
					return fmt.Errorf("staging the project for its tests: %w", err)
				}
			}
			if err := capabilities.WriteAt(dst, p, doc); err != nil {
				return err
			}
		}
	}
	for _, p := range deleted {
		if _, ok := all[p]; !ok {
			if err := os.Remove(filepath.Join(dst, filepath.FromSlash(p))); err != nil && !os.IsNotExist(err) {
				return fmt.Errorf("staging the project for its tests: %w", err)
			}
		}
	}
	return nil
}

// isDirLink reports whether p is a symbolic link to a directory.
func isDirLink(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// linkEntries makes to a directory holding a link to each entry of the
// directory from but its caches.
func linkEntries(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.Mkdir(to, 0o700); err != nil {
		return err
	}
	for _, e := range entries {
		if cacheDirs[e.Name()] {
			continue
		}
		if err := os.Symlink(filepath.Join(from, e.Name()), filepath.Join(to, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies a regular file, keeping its permission bits.
func copyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	fi, err := in.Stat()
	if err != nil {
		return err
	}
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, fi.Mode().Perm()|0o200)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, in)
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}
