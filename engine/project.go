package engine

// This file defines [Project]: in an answer about files of projects below
// the root (a monorepo), which project each file belongs to and which
// language servers answered for it, from what root.

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Project is one project whose files an answer covers: the directory of
// the nearest project file above them (go.mod, package.json, tsconfig.json,
// pyproject.toml, ...), and the servers that answered for them. A file
// belongs to the nearest listed project above it.
type Project struct {
	// Root is the project's directory, a workspace path ("." for the
	// root).
	Root string
	// Files counts the files of the request that belong to it; Paths
	// names a few of them (at most [NotePaths]), sorted.
	Files int
	Paths []string
	// Servers are the language servers that answered for its files,
	// sorted by driver.
	Servers []ProjectServer
}

// ProjectServer is a language server that answered for a project's files.
type ProjectServer struct {
	// Driver is the server's driver name ("pyright").
	Driver string
	// Root is the directory the server runs in and was told is its
	// workspace, a workspace path: the project's, or "." for a server of
	// the whole root (gopls, or a project past the driver's
	// max_project_servers). For a command, the directory it ran in.
	Root string
	// Command says the driver is a command run in Root for the project's
	// files (go build, go vet), not a language server.
	Command bool
}

// ProjectFiles is, for one driver, the files of one project it answered
// for and the root of the server that answered.
type ProjectFiles struct {
	Root       string
	ServerRoot string
	Files      []string
	// Command: the driver is a command that ran in ServerRoot.
	Command bool
}

// MergeProjects merges what drivers said of the projects of their files
// into one list, by project root, sorted: each project with its files
// (counted once) and every server. It returns nil when every file is the
// root's and every server the root's: the answer of a single project says
// nothing of projects.
func MergeProjects(byDriver map[string][]ProjectFiles) []Project {
	type acc struct {
		files   map[string]bool
		servers []ProjectServer
	}
	all := map[string]*acc{}
	below := false
	for dn, pfs := range byDriver {
		for _, pf := range pfs {
			if pf.Root != "." || pf.ServerRoot != "." {
				below = true
			}
			a := all[pf.Root]
			if a == nil {
				a = &acc{files: map[string]bool{}}
				all[pf.Root] = a
			}
			for _, f := range pf.Files {
				a.files[f] = true
			}
			s := ProjectServer{Driver: dn, Root: pf.ServerRoot, Command: pf.Command}
			if !slices.Contains(a.servers, s) {
				a.servers = append(a.servers, s)
			}
		}
	}
	if !below {
		return nil
	}
	out := make([]Project, 0, len(all))
	for root, a := range all {
		files := make([]string, 0, len(a.files))
		for f := range a.files {
			files = append(files, f)
		}
		sort.Strings(files)
		sort.Slice(a.servers, func(i, j int) bool {
			if a.servers[i].Driver != a.servers[j].Driver {
				return a.servers[i].Driver < a.servers[j].Driver
			}
			return a.servers[i].Root < a.servers[j].Root
		})
		out = append(out, Project{Root: root, Files: len(files), Paths: FewPaths(files), Servers: a.servers})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Root < out[j].Root })
	return out
}

// String is the project as one line of text, as the text surfaces print
// it: "project services/api: 2 files (a.go, b.go): gopls (server in .)",
// or, for a command, "go-build (run in services/api)".
func (p Project) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "project %s: %d file", p.Root, p.Files)
	if p.Files != 1 {
		b.WriteString("s")
	}
	if len(p.Paths) > 0 {
		fmt.Fprintf(&b, " (%s", strings.Join(p.Paths, ", "))
		if p.Files > len(p.Paths) {
			b.WriteString(", ...")
		}
		b.WriteString(")")
	}
	b.WriteString(": ")
	for i, s := range p.Servers {
		if i > 0 {
			b.WriteString(", ")
		}
		where := "server in"
		if s.Command {
			where = "run in"
		}
		fmt.Fprintf(&b, "%s (%s %s)", s.Driver, where, s.Root)
	}
	return b.String()
}
