package capabilities

import "path"

// ProjectFinder returns the project of a directory (a workspace path):
// the nearest directory at or above it, up to the root ("."), that marked
// says holds one of a driver's project markers; "." when none does. Each
// directory's answer is kept in owner (which must not be nil), so that
// the files of a walk ask marked once per directory.
func ProjectFinder(owner map[string]string, marked func(dir string) bool) func(dir string) string {
	var find func(dir string) string
	find = func(dir string) string {
		if o, ok := owner[dir]; ok {
			return o
		}
		o := "."
		switch {
		case marked(dir):
			o = dir
		case dir != "." && dir != "/" && dir != "":
			o = find(path.Dir(dir))
		}
		owner[dir] = o
		return o
	}
	return find
}
