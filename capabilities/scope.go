package capabilities

// This file defines [Set.Scope]: the files of the root the project's own
// configuration leaves out of what a kind's drivers look at, for a walk
// of the whole root (engine.Scoper).

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/devbroker/devbroker/capabilities/projscope"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
)

var _ engine.Scoper = (*Set)(nil)

// langScope is the project scope a language's drivers share for a kind.
type langScope struct {
	name   string // the project_scope ("pyright", "tsconfig")
	driver string // the first driver that has it, named in notes
	// markers are the driver's project_markers when it starts a server
	// per project: each file is narrowed by its own project's scope (the
	// nearest directory above it that holds one), as that server reads
	// it. Empty: the root's scope narrows every file.
	markers []string
}

// Scope implements engine.Scoper. A language's files are narrowed by
// the project scope (configs.Driver.ProjectScope) that every driver its
// list for kind names has (all alternatives of all slots): a driver
// without one would look at every file, so nothing is narrowed. With a
// server per project (server_root "project" and project_markers), each
// file is narrowed by the scope of its project, the nearest directory
// above it that holds one of the markers (the root when none does):
// tools/pyproject.toml's include narrows tools' files, and the root's
// include narrows only the root's own. The project files are read as
// the walk meets their projects, through the root (a file that links out
// of it is not read), and each that cannot be used is a warning note of
// kind config that names the driver. The test is nil when no language is
// narrowed.
func (s *Set) Scope(kind engine.Kind) (func(path string) (engine.Scope, bool), func() []engine.Note) {
	scoped := map[string]langScope{}
	for _, l := range s.langs {
		ls, ok := langScope{}, len(l.byKind[kind]) > 0
		for _, slot := range l.byKind[kind] {
			for _, dn := range slot.Drivers() {
				ps := s.projScope[dn]
				if ps == "" || (ls.name != "" && ps != ls.name) {
					ok = false
				}
				if ls.name == "" {
					ls = langScope{ps, dn, s.projMarkers[dn]}
				}
			}
		}
		if ok && ls.name != "" {
			scoped[l.name] = ls
		}
	}
	if len(scoped) == 0 {
		return nil, nil
	}
	fsys, err := rootfs.New(s.root)
	if err != nil {
		return nil, nil
	}
	// The driver a scope's warnings name: the first language's, by name.
	driverOf := map[string]string{}
	for _, ln := range slices.Sorted(maps.Keys(scoped)) {
		if _, ok := driverOf[scoped[ln].name]; !ok {
			driverOf[scoped[ln].name] = scoped[ln].driver
		}
	}
	ps := &projectScopes{fsys: fsys, driverOf: driverOf, scopes: map[[2]string]*projscope.Scope{}, owner: map[string]map[string]string{}}
	// The root's project files are read now, so that their warnings come
	// whatever the walk meets.
	for _, name := range slices.Sorted(maps.Keys(driverOf)) {
		ps.scope(name, ".")
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
		why, out := ps.scope(ls.name, ps.projectOf(ls.markers, p)).Leaves(p)
		if !out {
			return engine.Scope{}, false
		}
		return engine.Scope{Language: l.name, Driver: ls.driver, Config: why}, true
	}, ps.warnings
}

// projectScopes are the scopes of the projects a walk meets, read once
// each, and the warnings their files gave.
type projectScopes struct {
	fsys     *rootfs.FS
	driverOf map[string]string // scope name → the driver its warnings name

	mu     sync.Mutex
	scopes map[[2]string]*projscope.Scope // by scope name and project directory
	owner  map[string]map[string]string   // by markers, then directory: its project's directory
	notes  []engine.Note
}

// projectOf is the project of the file p: the nearest directory above it
// that holds one of markers as a regular file, "." when none does.
func (ps *projectScopes) projectOf(markers []string, p string) string {
	if len(markers) == 0 {
		return "."
	}
	key := strings.Join(markers, "/")
	ps.mu.Lock()
	defer ps.mu.Unlock()
	owner := ps.owner[key]
	if owner == nil {
		owner = map[string]string{}
		ps.owner[key] = owner
	}
	return ProjectFinder(owner, func(dir string) bool {
		return slices.ContainsFunc(markers, func(m string) bool {
			fi, err := ps.fsys.Stat(path.Join(dir, m))
			return err == nil && fi.Mode().IsRegular()
		})
	})(path.Dir(p))
}

// scope is the scope name of the project in the directory dir, read the
// first time it is asked for.
func (ps *projectScopes) scope(name, dir string) *projscope.Scope {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	if sc, ok := ps.scopes[[2]string{name, dir}]; ok {
		return sc
	}
	read := func(rel string) ([]byte, error) {
		data, _, err := ps.fsys.ReadFileMax(rel, projscope.MaxFileBytes)
		return data, err
	}
	var sc *projscope.Scope
	var warnings []string
	switch name {
	case "pyright":
		sc, warnings = projscope.Pyright(read, dir)
	case "tsconfig":
		sc, warnings = projscope.TSConfig(read, dir)
	}
	driver := ps.driverOf[name]
	for _, w := range warnings {
		ps.notes = append(ps.notes, engine.Note{Kind: engine.NoteConfig, Driver: driver, Message: fmt.Sprintf("warning: %s (the project scope of %s)", w, driver)})
	}
	ps.scopes[[2]string{name, dir}] = sc
	return sc
}

// warnings are the notes on the project files read so far.
func (ps *projectScopes) warnings() []engine.Note {
	ps.mu.Lock()
	defer ps.mu.Unlock()
	return slices.Clone(ps.notes)
}
