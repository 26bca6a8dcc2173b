package capabilities

// This file defines [Set.Scope]: the files of the root the project's own
// configuration leaves out of what a kind's drivers look at, for a walk
// of the whole root (engine.Scoper).

import (
	"fmt"
	"maps"
	"slices"

	"github.com/devbroker/devbroker/capabilities/projscope"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
)

var _ engine.Scoper = (*Set)(nil)

// langScope is the project scope a language's drivers share for a kind.
type langScope struct {
	name   string // the project_scope ("pyright", "tsconfig")
	driver string // the first driver that has it, named in notes
}

// Scope implements engine.Scoper. A language's files are narrowed by
// the project scope (configs.Driver.ProjectScope) that every driver its
// list for kind names has (all alternatives of all slots): a driver
// without one would look at every file, so nothing is narrowed. The
// project files are read now, through the root (a file that links out of
// it is not read), and each that cannot be used is a warning note of
// kind config that names the driver. The test is nil when no language is
// narrowed.
func (s *Set) Scope(kind engine.Kind) (func(path string) (engine.Scope, bool), []engine.Note) {
	scoped := map[string]langScope{}
	var names []string
	for _, l := range s.langs {
		ls, ok := langScope{}, len(l.byKind[kind]) > 0
		for _, slot := range l.byKind[kind] {
			for _, dn := range slot.Drivers() {
				ps := s.projScope[dn]
				if ps == "" || (ls.name != "" && ps != ls.name) {
					ok = false
				}
				if ls.name == "" {
					ls = langScope{ps, dn}
				}
			}
		}
		if ok && ls.name != "" {
			scoped[l.name] = ls
			if !slices.Contains(names, ls.name) {
				names = append(names, ls.name)
			}
		}
	}
	if len(scoped) == 0 {
		return nil, nil
	}
	fsys, err := rootfs.New(s.root)
	if err != nil {
		return nil, nil
	}
	read := func(rel string) ([]byte, error) {
		data, _, err := fsys.ReadFileMax(rel, projscope.MaxFileBytes)
		return data, err
	}
	slices.Sort(names)
	scopes := map[string]*projscope.Scope{}
	var notes []engine.Note
	for _, name := range names {
		var sc *projscope.Scope
		var warnings []string
		switch name {
		case "pyright":
			sc, warnings = projscope.Pyright(read)
		case "tsconfig":
			sc, warnings = projscope.TSConfig(read)
		}
		driver := ""
		for _, ln := range slices.Sorted(maps.Keys(scoped)) {
			if scoped[ln].name == name {
				driver = scoped[ln].driver
				break
			}
		}
		for _, w := range warnings {
			notes = append(notes, engine.Note{Kind: engine.NoteConfig, Driver: driver, Message: fmt.Sprintf("warning: %s (the project scope of %s)", w, driver)})
		}
		scopes[name] = sc
	}
	return func(p string) (engine.Scope, bool) {
		l := s.languageOf(p)
		if l == nil {
			return engine.Scope{}, false
		}
		ls, ok := scoped[l.name]
		if !ok {
			return engine.Scope{}, false
		}
		why, out := scopes[ls.name].Leaves(p)
		if !out {
			return engine.Scope{}, false
		}
		return engine.Scope{Language: l.name, Driver: ls.driver, Config: why}, true
	}, notes
}
