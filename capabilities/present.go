package capabilities

// This file finds the languages present under a root: a bounded walk
// (rootfs's, which follows no symlink) that skips version control,
// installed packages, build output and what the root's .gitignore
// ignores, and stops once every configured language was seen.

import (
	"bufio"
	"bytes"
	"io/fs"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/devbroker/devbroker/engine/rootfs"
)

// MaxPresentEntries bounds the walk that finds the languages present under
// a root: a huge tree is not walked to its end at start-up (a language
// found later is probed when a request first needs it).
const MaxPresentEntries = 20000

// skippedDirs are directories that hold installed or generated files, not
// the project's own, beside version control's ([rootfs.SkipDir]).
var skippedDirs = map[string]bool{
	"vendor": true, "third_party": true, ".venv": true, "venv": true, "__pycache__": true,
	".tox": true, ".mypy_cache": true, ".pytest_cache": true, "target": true, "dist": true,
	"build": true, ".next": true, ".cache": true, ".idea": true, ".vscode": true,
}

// Present lists the configured languages that have a file under the root,
// in configuration order, from a walk of at most [MaxPresentEntries]
// entries that skips version-control and vendor-like directories and what
// the root's .gitignore ignores (its simple patterns: negations and
// nested .gitignore files are not read).
func (s *Set) Present() []string {
	found := map[string]bool{}
	fsys, err := rootfs.New(s.root)
	if err != nil {
		return nil
	}
	ignore := readGitignore(fsys)
	visited := 0
	_ = fsys.Walk(func(rel string, d fs.DirEntry) error {
		if visited++; visited > MaxPresentEntries || len(found) == len(s.langs) {
			return fs.SkipAll
		}
		if d.IsDir() {
			if rootfs.SkipDir(d.Name()) || skippedDirs[d.Name()] || ignore.match(rel, true) {
				return fs.SkipDir
			}
			return nil
		}
		if ignore.match(rel, false) {
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

// gitignore is the simple patterns of a .gitignore file.
type gitignore []gitPattern

type gitPattern struct {
	glob     string // doublestar pattern over the slash path
	anchored bool   // it names a path from the root, not a name at any depth
	dirOnly  bool   // it ended with "/"
}

// readGitignore reads the patterns of the root's .gitignore through
// fsys (so a .gitignore that links out of the root is not read); a
// missing, unreadable or oversized file ignores nothing. Negations ("!keep") are not followed: the walk may then
// skip a file git tracks, which only delays its language's probe to first
// use.
func readGitignore(fsys *rootfs.FS) gitignore {
	data, _, err := fsys.ReadFileMax(".gitignore", 1<<20)
	if err != nil {
		return nil
	}
	return parseGitignore(bufio.NewScanner(bytes.NewReader(data)))
}

func parseGitignore(sc *bufio.Scanner) gitignore {
	var out gitignore
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "!") {
			continue
		}
		var p gitPattern
		if strings.HasSuffix(line, "/") {
			p.dirOnly, line = true, strings.TrimSuffix(line, "/")
		}
		if strings.Contains(line, "/") {
			p.anchored, line = true, strings.TrimPrefix(line, "/")
		}
		if line == "" || !doublestar.ValidatePattern(line) {
			continue
		}
		p.glob = line
		out = append(out, p)
	}
	return out
}

// match reports whether rel (a slash path from the root) is ignored.
func (g gitignore) match(rel string, dir bool) bool {
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	for _, p := range g {
		if p.dirOnly && !dir {
			continue
		}
		subject := base
		if p.anchored {
			subject = rel
		}
		if ok, _ := doublestar.Match(p.glob, subject); ok {
			return true
		}
	}
	return false
}
