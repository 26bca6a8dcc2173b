package capabilities

// This file writes a Go -overlay file: the go command then reads the
// workspace's content instead of the disk's, for the files that differ.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// GoOverlay is a written overlay: the file to pass as -overlay, and where
// each changed file's copy is.
type GoOverlay struct {
	// File is the overlay JSON file.
	File string
	// Copies maps each copy's path to the workspace path it stands for.
	Copies map[string]string
}

// WriteGoOverlay writes, under dir, the changed files' content and a Go
// overlay file that replaces their disk paths under root with the copies,
// and maps deleted files to "" (deleted). Every symlink under the root
// that leads outside it is mapped to "" too, so that the go command never
// reads its target (a symlinked directory cannot be: go ./... patterns do
// not enter it, and only an import of it would).
func WriteGoOverlay(dir, root string, all map[string]*text.Doc, changed, deleted []string) (*GoOverlay, error) {
	o := &GoOverlay{File: filepath.Join(dir, "overlay.json"), Copies: map[string]string{}}
	replace := map[string]string{}
	files := filepath.Join(dir, "files")
	for _, p := range changed {
		doc, ok := all[p]
		if !ok {
			continue
		}
		if err := WriteAt(files, p, doc); err != nil {
			return nil, err
		}
		copyPath := filepath.Join(files, filepath.FromSlash(p))
		replace[filepath.Join(root, filepath.FromSlash(p))] = copyPath
		o.Copies[copyPath] = p
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
		err = os.WriteFile(o.File, data, 0o600)
	}
	if err != nil {
		return nil, fmt.Errorf("writing the overlay file: %w", err)
	}
	return o, nil
}
