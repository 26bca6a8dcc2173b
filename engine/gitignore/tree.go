package gitignore

// This file defines [Tree]: the ignore rules a walk of a tree meets, read
// as the walk reaches each directory. Every walk of the root that honours
// .gitignore (search, the walk of format, lint and check, the walk that
// finds the root's languages) asks a Tree.

import (
	"path"
	"strings"
)

// MaxFileBytes is the largest ignore file read; a larger one ignores
// nothing.
const MaxFileBytes = 1 << 20

// ExcludeFile is the repository's own ignore file, which git reads under
// every .gitignore: what its patterns ignore, a .gitignore may re-include.
const ExcludeFile = ".git/info/exclude"

// Tree is the ignore rules of a tree as a walk meets them: the
// repository's [ExcludeFile] (patterns anchored at the root, weaker than
// any .gitignore) and each directory's .gitignore, read the first time a
// path in the directory is asked about. A walk that does not enter the
// directories it is told are ignored then skips what git would (a file
// under an ignored directory is never asked about: git cannot re-include
// it). The user's own core.excludesFile is not read: it is not the
// project's.
//
// A Tree is for one walk, by one goroutine.
type Tree struct {
	read  func(p string) ([]byte, bool)
	dirs  []string // the directories whose .gitignore was read, the root's first: a chain from the root down
	stack Stack    // the files of dirs that hold patterns, over the exclude file
}

// NewTree returns the rules of the tree whose files read returns: read
// gets a slash path relative to the root (".gitignore", "a/.gitignore",
// [ExcludeFile]) and reports false when there is no such file to read (or
// it is over [MaxFileBytes], or leaves the root).
func NewTree(read func(p string) ([]byte, bool)) *Tree {
	t := &Tree{read: read}
	if data, ok := read(ExcludeFile); ok {
		t.stack = t.stack.Push(Parse("", data))
	}
	return t
}

// Ignored reports whether rel (a slash path relative to the root; a
// directory when dir) is ignored by its own name, reading first the
// .gitignore files of its directory and of those above it that were not
// read yet. Paths may come in any order; a walk in path order reads each
// directory's .gitignore once.
func (t *Tree) Ignored(rel string, dir bool) bool {
	parent := path.Dir(rel)
	if parent == "." {
		parent = ""
	}
	t.moveTo(parent)
	return t.stack.Ignored(rel, dir)
}

// moveTo makes the rules those of the directory dir: the directories
// read that are not dir or above it are dropped, and those from the
// deepest one kept down to dir are read.
func (t *Tree) moveTo(dir string) {
	n := len(t.dirs)
	for n > 0 && !within(dir, t.dirs[n-1]) {
		n--
	}
	if n == len(t.dirs) && n > 0 && t.dirs[n-1] == dir {
		return
	}
	t.dirs = t.dirs[:n]
	next := "" // the root, read first (the stack holds the exclude file alone)
	if n > 0 {
		// The root is above every directory: n is 0 only before the
		// first question.
		t.stack = t.stack.At(t.dirs[n-1])
		if t.dirs[n-1] == dir {
			return
		}
		next = below(t.dirs[n-1], dir)
	}
	for {
		t.dirs = append(t.dirs, next)
		if data, ok := t.read(path.Join(next, ".gitignore")); ok {
			t.stack = t.stack.Push(Parse(next, data))
		}
		if next == dir {
			return
		}
		next = below(next, dir)
	}
}

// below is the directory one level below from on the way to dir (from is
// above dir; "" is the root).
func below(from, dir string) string {
	rest := dir
	if from != "" {
		rest = dir[len(from)+1:]
	}
	seg, _, _ := strings.Cut(rest, "/")
	if from == "" {
		return seg
	}
	return from + "/" + seg
}
