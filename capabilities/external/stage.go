package external

// This file defines how a command sees the workspace: nothing to prepare
// for standard input, a staged copy of the workspace in a temporary tree,
// or a Go overlay file that maps changed files to temporary copies.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// view is the tree a command runs in, and how to undo it.
type view struct {
	// tree is what {root} names: the root, or the staged tree.
	tree string
	// overlay is the Go overlay file ({overlay}); "" unless input overlay.
	overlay string
	// temp is the temporary directory, removed by close; "" if none.
	temp string
	// copies maps the temporary copy of each overlaid file to its
	// workspace path.
	copies map[string]string
}

// close removes the view's temporary files.
func (v *view) close() {
	if v.temp != "" {
		os.RemoveAll(v.temp)
	}
}

// stage writes every file of all into a new temporary tree, at its
// workspace path.
func stage(all map[string]*text.Doc) (*view, error) {
	dir, err := tempDir("devbroker-staged-")
	if err != nil {
		return nil, err
	}
	v := &view{tree: dir, temp: dir}
	for p, doc := range all {
		if err := writeAt(dir, p, doc); err != nil {
			v.close()
			return nil, err
		}
	}
	return v, nil
}

// overlay writes the changed files to temporary copies and a Go overlay
// file that replaces their disk paths under root with the copies, and
// maps deleted files to "" (deleted). Every symlink under the root that
// leads outside it is mapped to "" too, so that the Go command never reads
// its target (a symlinked directory cannot be: go ./... patterns do not
// enter it, and only an import of it would).
func overlay(root string, all map[string]*text.Doc, changed, deleted []string) (*view, error) {
	dir, err := tempDir("devbroker-overlay-")
	if err != nil {
		return nil, err
	}
	v := &view{tree: root, temp: dir, overlay: filepath.Join(dir, "overlay.json"), copies: map[string]string{}}
	replace := map[string]string{}
	for _, p := range changed {
		doc, ok := all[p]
		if !ok {
			continue
		}
		files := filepath.Join(dir, "files")
		if err := writeAt(files, p, doc); err != nil {
			v.close()
			return nil, err
		}
		copyPath := filepath.Join(files, filepath.FromSlash(p))
		replace[filepath.Join(root, filepath.FromSlash(p))] = copyPath
		v.copies[copyPath] = p
	}
	for _, p := range deleted {
		if _, ok := all[p]; !ok {
			replace[filepath.Join(root, filepath.FromSlash(p))] = ""
		}
	}
	if fsys, err := rootfs.New(root); err == nil {
		for _, p := range fsys.OutsideLinks(rootfs.SkipDir) {
			replace[filepath.Join(root, filepath.FromSlash(p))] = ""
		}
	}
	data, err := json.Marshal(struct{ Replace map[string]string }{replace})
	if err == nil {
		err = os.WriteFile(v.overlay, data, 0o600)
	}
	if err != nil {
		v.close()
		return nil, fmt.Errorf("writing the overlay file: %w", err)
	}
	return v, nil
}

// tempDir makes a temporary directory and returns its real path (so that
// paths a command prints through symlinks still match).
func tempDir(prefix string) (string, error) {
	dir, err := os.MkdirTemp("", prefix+"*")
	if err != nil {
		return "", fmt.Errorf("making a temporary directory: %w", err)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir, nil
}

// writeAt writes doc at workspace path p under dir.
func writeAt(dir, p string, doc *text.Doc) error {
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

// sortedKeys returns m's keys, sorted.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
