package engine

import "github.com/devbroker/devbroker/engine/rootfs"

// SelectFiles is [Select] of the files covers accepts (nil: every file):
// the paths alone.
func SelectFiles(fsys *rootfs.FS, covers func(string) bool, selectors []string) ([]string, error) {
	sel, err := Select(fsys, Walk{Covers: covers}, selectors)
	return sel.Paths, err
}
