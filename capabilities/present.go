package capabilities

// This file finds the languages present under a root: a bounded walk
// (rootfs's, which follows no symlink) that skips version control,
// installed packages, build output, the test fixtures and vendored code
// the check walk passes over (engine.WalkSkips) and what .gitignore
// ignores (gitignore.Tree: nested files and .git/info/exclude too), and
// stops once every configured language was seen.

import (
	"io/fs"
	"slices"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/gitignore"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// maxPresentEntries bounds the walk that finds the languages present under
// a root: a huge tree is not walked to its end at start-up (a language
// found later is probed when a request first needs it).
const maxPresentEntries = 20000

// skippedDirs are directories that hold installed or generated files, not
// the project's own, beside version control's ([rootfs.SkipDir]).
var skippedDirs = map[string]bool{
	"vendor": true, "third_party": true, ".venv": true, "venv": true, "__pycache__": true,
	".tox": true, ".mypy_cache": true, ".pytest_cache": true, "target": true, "dist": true,
	"build": true, ".next": true, ".cache": true, ".idea": true, ".vscode": true,
}

// Present lists the configured languages that have a file under the root,
// in configuration order, from a walk of at most maxPresentEntries
// entries that skips version-control and vendor-like directories, the
// testdata and vendor directories a check's walk passes over
// (engine.WalkSkips: two C files in a testdata directory start no C
// server for the root), and what .gitignore files ignore, as git reads
// them (engine/gitignore).
func (s *Set) Present() []string {
	found := map[string]bool{}
	fsys, err := rootfs.New(s.root)
	if err != nil {
		return nil
	}
	ignore := gitignore.NewTree(func(p string) ([]byte, bool) {
		data, _, err := fsys.ReadFileMax(p, gitignore.MaxFileBytes)
		return data, err == nil
	})
	visited := 0
	_ = fsys.Walk(func(rel string, d fs.DirEntry) error {
		if visited++; visited > maxPresentEntries || len(found) == len(s.langs) {
			return fs.SkipAll
		}
		if d.IsDir() {
			if rootfs.SkipDir(d.Name()) || skippedDirs[d.Name()] || slices.Contains(engine.WalkSkips, d.Name()) || ignore.Ignored(rel, true) {
				return fs.SkipDir
			}
			return nil
		}
		if ignore.Ignored(rel, false) {
			return nil
		}
		if l := s.languageOf(rel); l != nil {
			found[l.name] = true
		}
		return nil
	})
	var out []string
	for i := range s.langs {
		if found[s.langs[i].name] {
			out = append(out, s.langs[i].name)
		}
	}
	return out
}

// presentLangs is [Set.Present] walked once per set: what ProbeRoot,
// Expect and a workspace symbol search take as the root's languages.
func (s *Set) presentLangs() []string {
	s.presentOnce.Do(func() { s.present = s.Present() })
	return s.present
}
