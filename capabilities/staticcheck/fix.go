package staticcheck

// This file defines lint with fix: true: the first suggested fix of each
// finding is applied to the workspace content, skipping fixes that
// overlap one already taken, and the fixed content is linted again so the
// answer describes it.

import (
	"sort"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// applyFixes applies the first fix of each diagnostic (in order) to the
// workspace content, and returns the new content of the files it changed.
func applyFixes(root string, all map[string]*text.Doc, ds []engine.Diagnostic) map[string]*text.Doc {
	docs := map[string]*text.Doc{}
	fsys, _ := rootfs.New(root) // nil: files not in the workspace are not fixed
	doc := func(p string) *text.Doc {
		if d, ok := docs[p]; ok {
			return d
		}
		d := all[p]
		if d == nil && fsys != nil {
			if data, _, err := fsys.ReadFile(p); err == nil {
				d, _ = text.Parse(data)
			}
		}
		docs[p] = d
		return d
	}
	mappers := map[string]*text.Mapper{}
	taken := map[string][]text.Edit{}
	for _, dg := range ds {
		if len(dg.Fixes) == 0 {
			continue
		}
		var edits = map[string][]text.Edit{}
		ok := true
		for _, fe := range dg.Fixes[0].Edits {
			d := doc(fe.Path)
			if d == nil {
				ok = false
				break
			}
			m := mappers[fe.Path]
			if m == nil {
				m = text.NewMapper(d.Content())
				mappers[fe.Path] = m
			}
			e := text.Edit{
				Start: m.Offset(fe.Line-1, fe.Column-1, text.Chars),
				End:   m.Offset(fe.EndLine-1, fe.EndColumn-1, text.Chars),
				New:   fe.New,
			}
			if overlaps(taken[fe.Path], e) || overlaps(edits[fe.Path], e) {
				ok = false
				break
			}
			edits[fe.Path] = append(edits[fe.Path], e)
		}
		if !ok {
			continue
		}
		for p, es := range edits {
			taken[p] = append(taken[p], es...)
		}
	}
	out := map[string]*text.Doc{}
	paths := make([]string, 0, len(taken))
	for p := range taken {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		d := docs[p]
		s, err := text.Apply(d.Content(), taken[p])
		if err != nil || s == d.Content() {
			continue
		}
		if d.BOM() {
			s = text.BOM + s
		}
		out[p] = text.FromString(s)
	}
	return out
}

// overlaps reports whether e overlaps one of es. Insertions at the same
// offset overlap too: their order would be a guess.
func overlaps(es []text.Edit, e text.Edit) bool {
	for _, o := range es {
		if e.Start < o.End && o.Start < e.End || e.Start == o.Start {
			return true
		}
	}
	return false
}
