package engine

// This file defines which files of the root a format, lint or check works
// on when it is not told which: [Select], the walk the command line and a
// step without paths share (docs/verdicts.md, "No paths: the whole
// root"), and what it says about the files it passed over.

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/engine/gitignore"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/workspace"
)

// Coverage is what a [Capabilities] may also tell: whether a configured
// language covers a file. A step without paths works on the files of the
// root it covers; without it, on every file.
type Coverage interface {
	Covers(path string) bool
}

// Scoper is what a [Capabilities] may also tell: which files of the root
// the project's own configuration leaves out of what a kind's drivers
// look at (pyright's include and exclude, tsconfig.json's files, include
// and exclude). A walk of the whole root passes over them and says so in
// a note ([NoteOutOfScope]); a file named, or changed in the workspace,
// is worked on whatever the project says.
type Scoper interface {
	// Scope returns, for kind, the test of a path against the project's
	// scope (ok true: the project leaves it out, and why), and the
	// warnings about project files that could not be read, as notes of
	// kind [NoteConfig] whose Driver is the driver whose project file it
	// is, each naming the file and saying what was not used. The project
	// files of projects below the root are read as the test meets their
	// files, so warnings is called after the walk; it may be nil.
	Scope(kind Kind) (out func(path string) (Scope, bool), warnings func() []Note)
}

// Scope is why the project's own configuration leaves a file out of an
// answer: which driver's configuration, and what in it.
type Scope struct {
	// Language is the file's language ("python").
	Language string
	// Driver is the driver whose project configuration it is ("pyright").
	Driver string
	// Config names the file and the setting that leave the file out:
	// `pyproject.toml [tool.pyright] include = ["src/requests"]`.
	Config string
}

// WalkSkips are the directories a walk of the root passes over unless a
// selector names them: test fixtures and vendored code, which are not the
// project's sources (gofumpt -w . and the go command's ./... pass over
// them too).
var WalkSkips = []string{"testdata", "vendor"}

// Walk says how [Select] walks the root.
type Walk struct {
	// Covers keeps the files a configured language covers (nil: every
	// file).
	Covers func(path string) bool
	// Scope, for a walk of the whole root (no selector, or "."), passes
	// over the files the project's own configuration leaves out (nil:
	// none); see [Scoper].
	Scope func(path string) (Scope, bool)
	// Read reads an ignore file, a slash path relative to the root (nil:
	// from the disk, at most [gitignore.MaxFileBytes]).
	Read func(path string) ([]byte, bool)
}

// Selection is what [Select] found.
type Selection struct {
	// Paths are the files, sorted.
	Paths []string
	// Swept are the files of Paths that a walk (a directory or a glob)
	// swept in rather than a selector named literally, sorted: the
	// command line's [Plan.Swept].
	Swept []string
	// Notes say what the walk of the whole root passed over because the
	// project's own configuration leaves it out ([NoteOutOfScope]).
	Notes []Note

	scoped *scoped // what Notes say, for a step to add to
}

// Select expands selectors (files, directories or globs, relative to the
// root or absolute under it; none: the whole root) to the files they
// name, sorted. A file named literally is kept whatever it is; a
// directory or a glob is walked once (rootfs.FS.GlobSkip), passing over
// version control, the WalkSkips directories it does not name and what
// .gitignore files ignore (nested ones and .git/info/exclude too, as git
// reads them: gitignore.Tree) below what it names, and keeps the files
// w.Covers accepts; a walk of the whole root also passes over what
// w.Scope leaves out, and notes it. The command line's format, lint and
// check and a step without paths use it.
func Select(fsys *rootfs.FS, w Walk, selectors []string) (Selection, error) {
	if len(selectors) == 0 {
		selectors = []string{"."}
	}
	read := w.Read
	if read == nil {
		read = func(p string) ([]byte, bool) {
			data, _, err := fsys.ReadFileMax(p, gitignore.MaxFileBytes)
			return data, err == nil
		}
	}
	seen := map[string]bool{}
	named := map[string]bool{}
	var out []string
	scoped := newScoped()
	add := func(p string, explicit, whole bool) {
		if explicit {
			named[p] = true
			scoped.drop(p) // named by another selector too: looked at
		}
		if seen[p] || (!explicit && (workspace.InVCS(p) || (w.Covers != nil && !w.Covers(p)))) {
			return
		}
		if !explicit && whole && w.Scope != nil {
			if sc, left := w.Scope(p); left {
				scoped.add(sc, p)
				return
			}
		}
		seen[p] = true
		out = append(out, p)
	}
	walk := func(pattern string, whole bool) error {
		// The walk starts at the pattern's literal base, which was
		// asked for: below it, .gitignore decides (node_modules/** is
		// walked, node_modules is not entered by **).
		tree := gitignore.NewTree(read)
		segs := strings.Split(pattern, "/")
		m, err := fsys.GlobSkip(pattern, func(rel string, dir bool) bool {
			if dir && slices.Contains(WalkSkips, path.Base(rel)) && !slices.Contains(segs, path.Base(rel)) {
				return true
			}
			return tree.Ignored(rel, dir)
		})
		for _, p := range m {
			add(p, false, whole)
		}
		return err
	}
	for _, a := range selectors {
		if filepath.IsAbs(a) {
			rel, err := fsys.Rel(a)
			if err != nil {
				return Selection{}, err
			}
			a = rel
		}
		a = strings.TrimSuffix(path.Clean(strings.TrimPrefix(a, "./")), "/")
		if a == "." {
			a = ""
		}
		if rootfs.IsGlob(a) {
			if err := walk(a, false); err != nil {
				return Selection{}, err
			}
			continue
		}
		pattern := "**"
		if a != "" {
			st, err := fsys.Stat(a)
			if err != nil {
				return Selection{}, err
			}
			if !st.IsDir() {
				add(a, true, false)
				continue
			}
			pattern = a + "/**"
		}
		if err := walk(pattern, a == ""); err != nil {
			return Selection{}, err
		}
	}
	sort.Strings(out)
	sel := Selection{Paths: out, scoped: scoped}
	for _, p := range out {
		if !named[p] {
			sel.Swept = append(sel.Swept, p)
		}
	}
	sel.Notes = scoped.notes("the walk of the root")
	return sel, nil
}

// scoped gathers the files a walk passed over because the project's
// configuration leaves them out, by the reason.
type scoped struct {
	order []Scope
	files map[Scope][]string
}

func newScoped() *scoped { return &scoped{files: map[Scope][]string{}} }

func (s *scoped) add(sc Scope, p string) {
	if _, ok := s.files[sc]; !ok {
		s.order = append(s.order, sc)
	}
	if !slices.Contains(s.files[sc], p) {
		s.files[sc] = append(s.files[sc], p)
	}
}

// drop takes p out: it was looked at after all.
func (s *scoped) drop(p string) {
	for sc, fs := range s.files {
		s.files[sc] = slices.DeleteFunc(fs, func(f string) bool { return f == p })
	}
}

// notes is one [NoteOutOfScope] per reason, in the order met: "12
// python files outside the project's own scope for pyright, passed over
// by the walk of the root (tests/a.py, ...): pyproject.toml
// [tool.pyright] include = ["src"]; name a file to look at it anyway".
// by says what passed over them.
func (s *scoped) notes(by string) []Note {
	var out []Note
	for _, sc := range s.order {
		fs := s.files[sc]
		if len(fs) == 0 {
			continue
		}
		slices.Sort(fs)
		noun := "file"
		if sc.Language != "" {
			noun = sc.Language + " file"
		}
		out = append(out, Note{
			Kind: NoteOutOfScope, Language: sc.Language, Driver: sc.Driver, Files: len(fs), Paths: FewPaths(fs),
			Message: fmt.Sprintf("%s outside the project's own scope for %s, passed over by %s (%s): %s; name a file to look at it anyway",
				counted(len(fs), noun), sc.Driver, by, fewNamed(fs), sc.Config),
		})
	}
	return out
}

// skippedNote is the [NoteSkipped] of the files a walk met that the
// workspace could not hold by themselves, or nil when there are none.
func skippedNote(passed []workspace.Passed) []Note {
	if len(passed) == 0 {
		return nil
	}
	slices.SortFunc(passed, func(a, b workspace.Passed) int { return strings.Compare(a.Path, b.Path) })
	var paths, named []string
	for i, p := range passed {
		paths = append(paths, p.Path)
		if i < NotePaths {
			named = append(named, p.Path+": "+p.Why)
		}
	}
	list := strings.Join(named, "; ")
	if n := len(passed) - NotePaths; n > 0 {
		list += fmt.Sprintf("; and %d more", n)
	}
	return []Note{{
		Kind: NoteSkipped, Files: len(passed), Paths: FewPaths(paths),
		Message: fmt.Sprintf("%s a walk met skipped, not looked at (%s): a file a walk sweeps in is read only when it fits limits.max_file_bytes and is text; name it in .gitignore to stop meeting it, or raise the limit",
			counted(len(passed), "file"), list),
	}}
}

// counted is "1 NOUN" or "n NOUNs".
func counted(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// fewNamed names the first few of paths, and counts the rest: "a, b, c
// and 2 more".
func fewNamed(paths []string) string {
	list := strings.Join(FewPaths(paths), ", ")
	if n := len(paths) - NotePaths; n > 0 {
		list += fmt.Sprintf(" and %d more", n)
	}
	return list
}
