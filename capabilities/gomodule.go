package capabilities

// This file defines the one rule for where a Go driver's module lookup
// stops ([GoModule]). gofumpt (its -lang and -modpath) and staticcheck
// (the module it stages and loads) both follow it, so a root inside a
// module is one module to both, as it is to gopls and the go command.
//
// The rule: the lookup walks up from the root to the nearest directory
// holding a go.mod or a go.work, past the root when the root has none,
// up to the filesystem root. The module that encloses the root is its
// build context, not content: its go.mod (and go.work) decides versions
// and module paths, but no file above the root is shown to a tool as a
// workspace file, and diagnostics of files above the root are dropped
// ("nothing from outside the root reaches an answer" is about files and
// their text, which stay out).

import (
	"os"
	"path/filepath"
)

// GoModule is the module context of a root: the nearest directory at or
// above root (an absolute, clean path) that holds a go.mod or a go.work,
// and which of the two it holds. dir is "" when there is none up to the
// filesystem root. Only regular files count (a symlink is followed).
func GoModule(root string) (dir string, gomod, gowork bool) {
	for d := root; ; {
		gomod, gowork = regularFile(filepath.Join(d, "go.mod")), regularFile(filepath.Join(d, "go.work"))
		if gomod || gowork {
			return d, gomod, gowork
		}
		parent := filepath.Dir(d)
		if parent == d {
			return "", false, false
		}
		d = parent
	}
}

func regularFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}
