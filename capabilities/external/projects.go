package external

// This file groups a run's files by their project: with project_markers
// (configs.Driver.ProjectMarkers), each file belongs to the nearest
// directory above it, up to the root, that holds one of the markers (the
// root when none does), and the command runs once per project in that
// directory. So go build and go vet, whose markers are go.work and go.mod,
// build each module below the root as its own: run in a root without a
// go.mod, they would find no module for services/api's files.

import (
	"path"
	"slices"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// projectFiles is the files of one project: dir is its directory, a
// workspace path ("." for the root).
type projectFiles struct {
	dir   string
	files []string
}

// projectsOf groups files by their project, in the order of their first
// file; without project markers, every file is the root's. has reports
// whether a workspace path names a file the command sees.
func (d *Driver) projectsOf(has func(p string) bool, files []string) []projectFiles {
	if len(d.cfg.ProjectMarkers) == 0 {
		return []projectFiles{{dir: ".", files: files}}
	}
	find := capabilities.ProjectFinder(map[string]string{}, func(dir string) bool {
		return slices.ContainsFunc(d.cfg.ProjectMarkers, func(m string) bool { return has(path.Join(dir, m)) })
	})
	var out []projectFiles
	at := map[string]int{}
	for _, p := range files {
		dir := find(path.Dir(p))
		i, ok := at[dir]
		if !ok {
			i = len(out)
			at[dir] = i
			out = append(out, projectFiles{dir: dir})
		}
		out[i].files = append(out[i].files, p)
	}
	return out
}

// ranIn records that the command ran about files of the project in the
// directory project, in the directory dir (the project's, or the
// configured dir under it).
func (v *view) ranIn(project, dir string, files []string) {
	i := slices.IndexFunc(v.projects, func(pf engine.ProjectFiles) bool { return pf.Root == project })
	if i < 0 {
		i = len(v.projects)
		v.projects = append(v.projects, engine.ProjectFiles{Root: project, ServerRoot: dir, Command: true})
	}
	for _, f := range files {
		if !slices.Contains(v.projects[i].Files, f) {
			v.projects[i].Files = append(v.projects[i].Files, f)
		}
	}
}
