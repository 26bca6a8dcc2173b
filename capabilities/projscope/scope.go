// Package projscope reads the scope a project states for its own tools:
// which files pyright checks (include, exclude and ignore in
// pyrightconfig.json or pyproject.toml's [tool.pyright]) and which files
// TypeScript's project holds (files, include and exclude in tsconfig.json
// or jsconfig.json, with extends and references). A walk of the whole
// root passes over the files a project leaves out, as the project's own
// run of the tool would; a file named is checked whatever the project
// says.
//
// Each reader takes the project's files through a read function
// (confined to the root by the caller) and answers a [Scope], nil when
// the project states none, and warnings: a file that cannot be read or
// parsed, or a setting that cannot be used, is a warning naming it, and
// what it would have narrowed is not narrowed.
package projscope

import (
	"fmt"
	"path"
	"strings"
)

// MaxFileBytes is the largest project file read.
const MaxFileBytes = 1 << 20

// ReadFunc reads a file of the project by its slash path relative to the
// root; it reports an error wrapping fs.ErrNotExist when there is none.
type ReadFunc func(rel string) ([]byte, error)

// Scope is the files a project's configuration takes in.
type Scope struct {
	// File is the configuration file the scope is read from
	// ("pyproject.toml", "tsconfig.json").
	File string
	// test says, for a file's slash path relative to the root, why the
	// project leaves it out ("" when it takes it in).
	test func(rel string) string
}

// Leaves reports whether the project leaves the file rel (a slash path
// relative to the root) out of its scope, and why: the file and setting
// that say so (`pyproject.toml [tool.pyright] include = ["src"]`).
func (s *Scope) Leaves(rel string) (why string, out bool) {
	if s == nil {
		return "", false
	}
	why = s.test(rel)
	return why, why != ""
}

// quoteList writes specs as a TOML or JSON array: ["a", "b"].
func quoteList(specs []string) string {
	q := make([]string, len(specs))
	for i, s := range specs {
		q[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// relSpec turns a path spec written in a configuration file in the
// directory dir (a slash path relative to the root, "" for the root) into
// a slash path relative to the root, cleaned; ok is false for a spec that
// is absolute or leads out of the root, which this package cannot place.
func relSpec(dir, spec string) (string, bool) {
	spec = strings.ReplaceAll(spec, "\\", "/")
	if spec == "" || strings.HasPrefix(spec, "/") || (len(spec) > 1 && spec[1] == ':') {
		return "", false
	}
	p := path.Clean(path.Join(dir, spec))
	if p == ".." || strings.HasPrefix(p, "../") {
		return "", false
	}
	if p == "." {
		p = ""
	}
	return p, true
}
