package external

// This file defines how a command sees the workspace: nothing to prepare
// for standard input, a staged copy of the workspace in a temporary tree,
// or a Go overlay file that maps changed files to temporary copies.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/internal/privtemp"
)

// view is the tree a command runs in, and how to undo it.
type view struct {
	// tree is what {root} names: the root, or the staged tree.
	tree string
	// overlay is the Go overlay file ({overlay}); "" unless input overlay.
	overlay string
	// temp is the temporary directory, removed by close; "" if none.
	temp string
	// release lets go of a staged tree; nil if none.
	release func()
	// copies maps the temporary copy of each overlaid file to its
	// workspace path.
	copies map[string]string
	// has reports whether a workspace path names a file in the tree.
	has func(p string) bool
	// unlooked lists the requested files of the runs that did not run
	// because {packages} found no package holding any of them.
	unlooked []string
	// projects are, with project_markers, the projects the command ran
	// in and the files each run was about.
	projects []engine.ProjectFiles
}

// close removes the view's temporary files and lets go of its tree.
func (v *view) close() {
	if v.release != nil {
		v.release()
	}
	if v.temp != "" {
		os.RemoveAll(v.temp)
	}
}

// stage returns a tree holding every file of all at its workspace path,
// from the set's store of staged trees: shared with the other drivers of
// the request when the command only reads it, a private copy when it
// rewrites it (a formatter with output "file", a fix command).
func (d *Driver) stage(all map[string]*text.Doc, private bool) (*view, error) {
	trees := d.trees()
	get := trees.Shared
	if private {
		get = trees.Private
	}
	dir, release, err := get(all)
	if err != nil {
		return nil, err
	}
	has := func(p string) bool { return all[p] != nil }
	return &view{tree: dir, release: release, has: has}, nil
}

// trees is the set's store of staged trees, or the driver's own.
func (d *Driver) trees() *capabilities.Trees {
	if d.env.Trees != nil {
		return d.env.Trees
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.own == nil {
		d.own = capabilities.NewTrees(0)
	}
	return d.own
}

// overlay writes the changed files to temporary copies and a Go overlay
// file for them (capabilities.WriteGoOverlay).
func overlay(root string, all map[string]*text.Doc, changed, deleted []string) (*view, error) {
	dir, err := tempDir("overlay")
	if err != nil {
		return nil, err
	}
	o, err := capabilities.WriteGoOverlay(dir, root, all, changed, deleted)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return &view{tree: root, temp: dir, overlay: o.File, copies: o.Copies}, nil
}

// tempDir makes a private temporary directory for what (privtemp.Dir) and
// returns its real path (so that paths a command prints through symlinks
// still match).
func tempDir(what string) (string, error) {
	dir, err := privtemp.Dir(what)
	if err != nil {
		return "", fmt.Errorf("making a temporary directory: %w", err)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir, nil
}

// readBack reads the files at paths from the staged tree and returns those
// whose content differs from all.
func readBack(tree string, paths []string, all map[string]*text.Doc) (map[string]*text.Doc, error) {
	out := map[string]*text.Doc{}
	for _, p := range paths {
		data, err := os.ReadFile(filepath.Join(tree, filepath.FromSlash(p)))
		if err != nil {
			return nil, fmt.Errorf("reading back %s: %w", p, err)
		}
		doc, err := text.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("reading back %s: %w", p, err)
		}
		if old := all[p]; old == nil || !old.Equal(doc) {
			out[p] = doc
		}
	}
	return out, nil
}

// stdinNames are what tools call standard input in their output.
var stdinNames = map[string]bool{"-": true, "<stdin>": true, "<standard input>": true, "stdin": true, "(stdin)": true}

// site says how to read the paths of one run's output.
type site struct {
	root string // the real root
	dir  string // the command's working directory
	view *view  // never nil
	file string // the workspace path of a per-file run, or ""
}

// workspacePath maps a path the command printed to a workspace path.
func (s *site) workspacePath(p string) (string, bool) {
	p = strings.TrimSpace(p)
	if p == "" || stdinNames[p] {
		return s.file, s.file != ""
	}
	abs := filepath.FromSlash(p)
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(s.dir, abs)
	}
	abs = filepath.Clean(abs)
	if s.view.copies != nil {
		if wp, ok := s.view.copies[abs]; ok {
			return wp, true
		}
		// Tools shorten paths in odd ways (go vet printed "._x.go" for a
		// copy whose directory shared a prefix with the root): find the
		// copy by its unique temporary directory.
		marker := filepath.Base(s.view.temp) + string(filepath.Separator) + "files" + string(filepath.Separator)
		if i := strings.Index(abs, marker); i >= 0 {
			return filepath.ToSlash(abs[i+len(marker):]), true
		}
	}
	for _, base := range []string{s.view.tree, s.root} {
		if rel, err := filepath.Rel(base, abs); err == nil && filepath.IsLocal(rel) {
			return filepath.ToSlash(rel), true
		}
	}
	return "", false
}
