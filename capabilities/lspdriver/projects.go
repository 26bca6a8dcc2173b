package lspdriver

// This file routes a request's files to their projects: each file belongs
// to the nearest directory above it, up to the root, that holds one of the
// driver's project markers (configs.Driver.ProjectMarkers), and is
// answered by the server of that project (server_root "project": pyright,
// tsserver, rust-analyzer, clangd read their project from their root) or
// by the server of the root (gopls, which handles several modules).

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/gitignore"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
)

// project is the files of a request that one server answers for.
type project struct {
	server string   // the server's root, a workspace path ("." the root)
	files  []string // sorted
	// owned says which project each file belongs to.
	owned []engine.ProjectFiles
}

// perProject reports whether the driver starts a server per project.
func (d *Driver) perProject() bool {
	return d.cfg.ServerRoot == "project" && len(d.cfg.ProjectMarkers) > 0
}

// maxProjectServers is the most project servers the driver starts.
func (d *Driver) maxProjectServers() int {
	if d.cfg.MaxProjectServers > 0 {
		return d.cfg.MaxProjectServers
	}
	return configs.DefaultMaxProjectServers
}

// projects groups req's files by the server that answers for them, the
// root's first, and says which projects went past max_project_servers
// ("" when none did). Each group says which projects its files belong
// to. A request without files (a workspace symbol search) is one group at
// the root.
func (d *Driver) projects(req *capabilities.Request) ([]project, string) {
	if len(d.cfg.ProjectMarkers) == 0 || len(req.Files) == 0 {
		return []project{{server: ".", files: req.Files}}, ""
	}
	find := d.projectFinder(req)
	var owned []engine.ProjectFiles // by project, in the order of their first file
	at := map[string]int{}
	for _, p := range req.Files {
		dir := find(path.Dir(p))
		i, ok := at[dir]
		if !ok {
			i = len(owned)
			at[dir] = i
			owned = append(owned, engine.ProjectFiles{Root: dir, ServerRoot: "."})
		}
		owned[i].Files = append(owned[i].Files, p)
	}
	var over []string
	if d.perProject() {
		// The servers the driver holds already count against the bound.
		d.mu.Lock()
		held := map[string]bool{}
		for r := range d.servers {
			if filepath.Clean(r) != filepath.Clean(req.Root) {
				held[r] = true
			}
		}
		d.mu.Unlock()
		for i := range owned {
			dir := owned[i].Root
			if dir == "." {
				continue
			}
			abs := filepath.Join(req.Root, filepath.FromSlash(dir))
			if !held[abs] && len(held) >= d.maxProjectServers() {
				over = append(over, dir)
				continue
			}
			held[abs] = true
			owned[i].ServerRoot = dir
		}
	}
	// One group per server: the root's server answers for every project
	// it serves at once.
	out := []project{{server: "."}}
	for _, pf := range owned {
		i := 0
		if pf.ServerRoot != "." {
			i = len(out)
			out = append(out, project{server: pf.ServerRoot})
		}
		out[i].files = append(out[i].files, pf.Files...)
		out[i].owned = append(out[i].owned, pf)
	}
	if len(out[0].files) == 0 {
		out = out[1:]
	}
	for i := range out {
		slices.Sort(out[i].files)
	}
	if len(over) == 0 {
		return out, ""
	}
	return out, fmt.Sprintf("%s runs at most %d project servers (drivers.%s.max_project_servers): the files of %s were answered by its server of the root, which does not read their project's own configuration", d.name, d.maxProjectServers(), d.name, strings.Join(over, ", "))
}

// projectFinder returns the project of a directory (a workspace path):
// the nearest directory at or above it, up to the root, that holds one of
// the driver's project markers, "." when none does.
func (d *Driver) projectFinder(req *capabilities.Request) func(dir string) string {
	fsys, _ := rootfs.New(req.Root) // nil: the workspace's files alone
	return capabilities.ProjectFinder(map[string]string{}, func(dir string) bool { return d.marked(fsys, req, dir) })
}

// marked reports whether the directory dir (a workspace path) holds one of
// the driver's project markers: in the workspace, or on disk as a regular
// file inside the root.
func (d *Driver) marked(fsys *rootfs.FS, req *capabilities.Request, dir string) bool {
	for _, m := range d.cfg.ProjectMarkers {
		p := path.Join(dir, m)
		if req.All[p] != nil {
			return true
		}
		if slices.Contains(req.Deleted, p) || fsys == nil {
			continue
		}
		if fi, err := fsys.Stat(p); err == nil && fi.Mode().IsRegular() {
			return true
		}
	}
	return false
}

// forProject is req narrowed to a project whose server runs in the
// directory server (a workspace path): its files, and, for a server below
// the root, only the changed and deleted files under its root (a server
// sees its own project's files).
func forProject(req *capabilities.Request, pr project) *capabilities.Request {
	out := *req
	out.Files = pr.files
	if pr.server == "." {
		return &out
	}
	under := func(ps []string) []string {
		var in []string
		for _, p := range ps {
			if strings.HasPrefix(p, pr.server+"/") {
				in = append(in, p)
			}
		}
		return in
	}
	out.Changed, out.Deleted = under(req.Changed), under(req.Deleted)
	return &out
}

// projectTool is, in a trusted root, the project's own copy of the server
// (node_modules/.bin, .venv/bin or venv/bin in the project's directory
// dir, a workspace path), or "".
func (d *Driver) projectTool(root, dir string) string {
	if !d.cfg.ProjectTools || d.isGopls() || dir == "." {
		return ""
	}
	fsys, err := rootfs.New(root)
	if err != nil {
		return ""
	}
	name := filepath.Base(d.cfg.Command[0])
	for _, tools := range []string{"node_modules/.bin", ".venv/bin", "venv/bin"} {
		p := path.Join(dir, tools, name)
		if fi, err := fsys.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return filepath.Join(root, filepath.FromSlash(p))
		}
	}
	return ""
}

// merged is the answers of the projects of one request as one answer:
// every finding, edit and note; the first status that is not ok, its
// message naming the project; and every project with its server.
func merged(prs []project, results []*capabilities.Result, over string) *capabilities.Result {
	if len(results) == 1 {
		out := results[0]
		if over != "" {
			out.Message = strings.TrimPrefix(out.Message+"; "+over, "; ")
		}
		return out
	}
	out := &capabilities.Result{Status: engine.StatusOK}
	var msgs []string
	for i, r := range results {
		pr := prs[i]
		out.Diagnostics = append(out.Diagnostics, r.Diagnostics...)
		for p, doc := range r.Edits {
			if out.Edits == nil {
				out.Edits = map[string]*text.Doc{}
			}
			out.Edits[p] = doc
		}
		out.Coverage = append(out.Coverage, r.Coverage...)
		out.Formatted = append(out.Formatted, r.Formatted...)
		out.Withheld = out.Withheld || r.Withheld
		if r.Status != engine.StatusOK && out.Status == engine.StatusOK {
			out.Status = r.Status
		}
		if r.Message != "" {
			msg := r.Message
			if len(prs) > 1 {
				msg = "server in " + pr.server + ": " + msg
			}
			msgs = append(msgs, msg)
		}
		out.Projects = append(out.Projects, r.Projects...)
	}
	if over != "" {
		msgs = append(msgs, over)
	}
	out.Message = strings.Join(msgs, "; ")
	return out
}

// heldProjects lists the directories (workspace paths, sorted) of the
// project servers the driver holds below root: those an earlier request,
// or an early start, started.
func (d *Driver) heldProjects(root string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var out []string
	for r := range d.servers {
		rel, err := filepath.Rel(filepath.Clean(root), filepath.Clean(r))
		if err != nil || rel == "." || !filepath.IsLocal(rel) {
			continue
		}
		out = append(out, filepath.ToSlash(rel))
	}
	slices.Sort(out)
	return out
}

// workspaceSymbols answers a workspace symbol search with the server of
// the root and the server of every project below it, at once: every
// project server the driver holds, and those of the projects the
// workspace's files of the driver's language belong to, started as a
// request on those files would start them (within max_project_servers;
// the answer names the projects past it, whose files only the root's
// server searched). A project server knows its own project (tsserver
// searches the projects it has loaded, which the root's server has not),
// the root's the rest. A symbol in a file is taken from the server of the
// file's project when that server answered, so one found by two servers
// is listed once; the answer says which project each file belongs to and
// which server found it. Each server is shown files of its own, of the
// workspace or the disk (one per directory, at most maxShown), when there
// are some: tsserver searches only the
// projects of open files, and declines with none ("No Project"). A server
// that declines is left out when another answered. A server confined to
// the root (clangd in a root not trusted) is not started for a search:
// the answer names the projects whose server it did not ask. nil when
// there is no project below the root: the root's answers alone.
func (d *Driver) workspaceSymbols(ctx context.Context, req *capabilities.Request) *capabilities.Result {
	mine, cut := d.languageFiles(req)
	prs, over := d.projects(&capabilities.Request{Root: req.Root, All: req.All, Deleted: req.Deleted, Files: mine})
	if cut {
		over = strings.TrimPrefix(over+"; "+fmt.Sprintf("the search for %s's projects stopped after %d entries of the root: the servers of projects past them were not asked", d.name, maxProjectWalk), "; ")
	}
	servers := append([]string{"."}, d.heldProjects(req.Root)...)
	var unasked []string
	for _, pr := range prs {
		switch {
		case slices.Contains(servers, pr.server):
		case d.cfg.ConfineIncludes:
			// Not started for a search: a server shown a file of its
			// project could read outside the root through it.
			unasked = append(unasked, pr.server)
		default:
			servers = append(servers, pr.server)
		}
	}
	slices.Sort(servers[1:])
	if len(unasked) > 0 {
		over = strings.TrimPrefix(over+"; "+fmt.Sprintf("%s's servers of the projects %s were not asked: a workspace symbol search starts no server that could read outside the root; a request on their files starts them", d.name, strings.Join(unasked, ", ")), "; ")
	}
	if len(servers) == 1 && over == "" {
		return nil
	}
	serverOf := func(p string) string {
		best := "."
		for _, dir := range servers {
			if strings.HasPrefix(p, dir+"/") && len(dir) > len(best) {
				best = dir
			}
		}
		return best
	}
	// Each server is shown a file of each of its directories, the
	// shallowest first, up to maxShown: a project's configuration may
	// leave out some of its directories (tsserver loads, for a file
	// outside its tsconfig.json's include, a project of that file alone).
	byDepth := slices.Clone(mine)
	slices.SortStableFunc(byDepth, func(a, b string) int { return strings.Count(a, "/") - strings.Count(b, "/") })
	shown := map[string][]string{}
	for _, p := range byDepth {
		if s := serverOf(p); len(shown[s]) < maxShown {
			shown[s] = append(shown[s], p)
		}
	}
	for _, fs := range shown {
		slices.Sort(fs)
	}
	// A file shown that the workspace does not hold is shown as the disk
	// has it.
	all, cloned := req.All, false
	fsys, _ := rootfs.New(req.Root)
	for _, fs := range shown {
		for _, p := range fs {
			if all[p] != nil || fsys == nil {
				continue
			}
			data, _, err := fsys.ReadFileMax(p, maxShownBytes)
			doc, perr := text.Parse(data)
			if err != nil || perr != nil {
				continue
			}
			if !cloned {
				all, cloned = maps.Clone(req.All), true
				if all == nil {
					all = map[string]*text.Doc{}
				}
			}
			all[p] = doc
		}
	}
	results := make([]*capabilities.Result, len(servers))
	var wg sync.WaitGroup
	for i, dir := range servers {
		wg.Go(func() {
			r := forProject(req, project{server: dir, files: shown[dir]})
			r.All = all
			results[i] = d.runProject(ctx, r, dir)
		})
	}
	wg.Wait()
	out := mergeSymbols(servers, results, d.projectFinder(req))
	if over != "" {
		out.Message = strings.TrimPrefix(out.Message+"; "+over, "; ")
	}
	return out
}

// maxShown bounds the files shown to a server for a workspace symbol
// search.
const maxShown = 8

// maxShownBytes bounds a file of the disk shown to a server for a
// workspace symbol search.
const maxShownBytes = 1 << 20

// maxProjectWalk bounds the entries of the root that the search for a
// workspace symbol search's projects reads.
const maxProjectWalk = 20000

// languageFiles lists, for a workspace symbol search, a file of the
// driver's languages of each directory that holds one (workspace paths,
// sorted): the workspace's, and the disk's from a walk of the root that
// passes over version-control, installed-package and virtual-environment
// directories, the directories a check's walk skips (engine.WalkSkips)
// and what .gitignore files ignore. cut: the walk stopped at
// maxProjectWalk entries.
func (d *Driver) languageFiles(req *capabilities.Request) (files []string, cut bool) {
	byDir := map[string]string{}
	add := func(p string) {
		if dir := path.Dir(p); byDir[dir] == "" && d.languageOf(p) != "" {
			byDir[dir] = p
		}
	}
	for p := range req.All {
		add(p)
	}
	if fsys, err := rootfs.New(req.Root); err == nil {
		ignore := gitignore.NewTree(func(p string) ([]byte, bool) {
			data, _, err := fsys.ReadFileMax(p, gitignore.MaxFileBytes)
			return data, err == nil
		})
		visited := 0
		_ = fsys.Walk(func(rel string, e fs.DirEntry) error {
			if visited++; visited > maxProjectWalk {
				cut = true
				return fs.SkipAll
			}
			if e.IsDir() {
				if name := e.Name(); rootfs.SkipDir(name) || slices.Contains(engine.WalkSkips, name) || slices.Contains(installedDirs, name) || ignore.Ignored(rel, true) {
					return fs.SkipDir
				}
				return nil
			}
			if !slices.Contains(req.Deleted, rel) && !ignore.Ignored(rel, false) {
				add(rel)
			}
			return nil
		})
	}
	return slices.Sorted(maps.Values(byDir)), cut
}

// installedDirs are directories of installed or built files, not a
// project's own, that the search for projects passes over.
var installedDirs = []string{".venv", "venv", "__pycache__", ".tox", "target", "dist", "build", ".next", ".cache"}

// mergeSymbols merges the workspace symbol answers of the servers in the
// directories servers ("." the root's first), in that order. find gives
// a directory's project.
func mergeSymbols(servers []string, results []*capabilities.Result, find func(dir string) string) *capabilities.Result {
	// answeredBy is the server that answers for a workspace path: the
	// deepest that answered whose directory holds it.
	answeredBy := func(p string) string {
		best := "."
		for i, dir := range servers {
			if dir != "." && results[i].Status == engine.StatusOK && strings.HasPrefix(p, dir+"/") && len(dir) > len(best) {
				best = dir
			}
		}
		return best
	}
	out := &capabilities.Result{Status: engine.StatusOK}
	answered := slices.ContainsFunc(results, func(r *capabilities.Result) bool { return r.Status == engine.StatusOK })
	// Only a server's refusal is left out: any other failure (a request
	// not offered, a timeout, a crash) keeps its status and says so.
	var msgs []string
	seen := map[engine.Symbol]bool{}
	files := map[[2]string][]string{} // by project and server: the files
	var keys [][2]string
	for i, r := range results {
		dir := servers[i]
		if r.Declined && answered {
			continue // declined ("No Project"): the others answered
		}
		if r.Status != engine.StatusOK && out.Status == engine.StatusOK {
			out.Status = r.Status
		}
		if r.Message != "" {
			msgs = append(msgs, "server in "+dir+": "+r.Message)
		}
		out.ServerLimit = max(out.ServerLimit, r.ServerLimit)
		out.Coverage = append(out.Coverage, r.Coverage...)
		for _, s := range r.Symbols {
			abs := filepath.IsAbs(s.Path)
			if (!abs && answeredBy(s.Path) != dir) || seen[s] {
				continue
			}
			seen[s] = true
			out.Symbols = append(out.Symbols, s)
			if abs {
				continue
			}
			k := [2]string{find(path.Dir(s.Path)), dir}
			if _, ok := files[k]; !ok {
				keys = append(keys, k)
			}
			if !slices.Contains(files[k], s.Path) {
				files[k] = append(files[k], s.Path)
			}
		}
	}
	// The root's files first, each server's ranking kept.
	sort.SliceStable(out.Symbols, func(i, j int) bool {
		return !filepath.IsAbs(out.Symbols[i].Path) && filepath.IsAbs(out.Symbols[j].Path)
	})
	for _, k := range keys {
		fs := files[k]
		slices.Sort(fs)
		out.Projects = append(out.Projects, engine.ProjectFiles{Root: k[0], ServerRoot: k[1], Files: fs})
	}
	out.Message = strings.Join(msgs, "; ")
	return out
}
