package main

// This file compares the two sides' answers: places (definition,
// references) and renamed trees.

import (
	"bytes"
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// place is a location: a slash path relative to the root, a 1-based line
// and a 1-based column in characters.
type place struct {
	path         string
	line, column int
}

func (p place) String() string { return fmt.Sprintf("%s:%d:%d", p.path, p.line, p.column) }

func comparePlaces(a, b place) int {
	return cmp.Or(strings.Compare(a.path, b.path), cmp.Compare(a.line, b.line), cmp.Compare(a.column, b.column))
}

// listing is one side's answer: the places listed (sorted) and how many
// more were found than listed.
type listing struct {
	places  []place
	omitted int
}

func newListing(ps []place, omitted int) listing {
	ps = slices.Clone(ps)
	slices.SortFunc(ps, comparePlaces)
	return listing{places: slices.CompactFunc(ps, func(a, b place) bool { return comparePlaces(a, b) == 0 })}.with(omitted)
}

func (l listing) with(omitted int) listing { l.omitted = omitted; return l }

func (l listing) count() int { return len(l.places) + l.omitted }

// sameAs says whether devbroker's listing d agrees with gopls's g: the
// same count, and d's places are g's first ones (d lists a sorted prefix
// when it caps its answer); why says how they differ.
func (d listing) sameAs(g listing) (ok bool, why string) {
	if d.count() != g.count() {
		return false, fmt.Sprintf("%d places (%d listed, %d more counted), gopls %d", d.count(), len(d.places), d.omitted, g.count())
	}
	if len(d.places) > len(g.places) {
		return false, fmt.Sprintf("%d places listed, gopls %d", len(d.places), len(g.places))
	}
	for i, p := range d.places {
		if comparePlaces(p, g.places[i]) != 0 {
			return false, fmt.Sprintf("place %d is %s, gopls's is %s", i+1, p, g.places[i])
		}
	}
	return true, ""
}

// diffTrees lists the files (slash paths) whose bytes differ between two
// trees, or that only one has; Go's build output and go.sum are left out.
func diffTrees(a, b string) ([]string, error) {
	fa, err := treeFiles(a)
	if err != nil {
		return nil, err
	}
	fb, err := treeFiles(b)
	if err != nil {
		return nil, err
	}
	var diff []string
	for p, da := range fa {
		if db, ok := fb[p]; !ok || !bytes.Equal(da, db) {
			diff = append(diff, p)
		}
	}
	for p := range fb {
		if _, ok := fa[p]; !ok {
			diff = append(diff, p)
		}
	}
	slices.Sort(diff)
	return diff, nil
}

// treeFiles reads every regular file under root but go.mod and go.sum
// (which the go command may tidy), by slash path.
func treeFiles(root string) (map[string][]byte, error) {
	files := map[string][]byte{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "go.sum" || rel == "go.mod" {
			return nil
		}
		data, err := os.ReadFile(p)
		files[rel] = data
		return err
	})
	return files, err
}
