package external

// This file defines the lookup of tools a project installs itself
// (node_modules/.bin, a Python virtual environment, Go's tool directives),
// which come before PATH in a trusted root.

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/internal/gomod"
)

// localDirs are the directories under the root where a project installs
// its own tools, searched in this order.
var localDirs = []string{"node_modules/.bin", ".venv/bin", "venv/bin"}

// UseProjectTools points each external driver of cfg whose program is a
// bare name at the project's own copy of it under root, when there is
// one: an executable file in node_modules/.bin, .venv/bin or venv/bin,
// or else a tool that root's go.mod declares with a tool directive (run
// as go tool NAME). A language server other than gopls is looked up in
// the same directories; gopls may be the one the go.mod declares
// (configs.Driver.ProjectTools). These are binaries the repository
// controls: call it only for a root the user trusts.
func UseProjectTools(cfg *configs.Config, root string) {
	tools := goTools(root)
	for _, d := range cfg.Drivers {
		if d.Type == "lsp" {
			d.ProjectTools = true // gopls: the module's tool directive (lsp.FindServer)
			if len(d.Command) > 0 && d.Command[0] != "gopls" {
				d.Command = projectTool(root, nil, d.Command)
				d.VersionCommand = projectTool(root, nil, d.VersionCommand)
			}
			continue
		}
		if d.Type != "external" && d.Type != "pytest" && d.Type != "vitest" && d.Type != "junit" {
			continue
		}
		for _, argv := range []*[]string{&d.Command, &d.FixCommand, &d.VersionCommand} {
			*argv = projectTool(root, tools, *argv)
		}
	}
}

// projectTool returns argv with its program resolved against the
// project's tool directories (see [UseProjectTools]); argv itself when
// the program is not a bare name or the project has no copy of it.
func projectTool(root string, goTools map[string]bool, argv []string) []string {
	if len(argv) == 0 || argv[0] == "" || strings.ContainsAny(argv[0], `/\`) {
		return argv
	}
	for _, dir := range localDirs {
		p, err := filepath.Abs(filepath.Join(root, filepath.FromSlash(dir), argv[0]))
		if err != nil {
			return argv
		}
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return append([]string{p}, argv[1:]...)
		}
	}
	if goTools[argv[0]] {
		return append([]string{"go", "tool", argv[0]}, argv[1:]...)
	}
	return argv
}

// goTools are the names `go tool NAME` runs for the tool directives of
// root's go.mod (none without one, or when it does not parse).
func goTools(root string) map[string]bool {
	f, err := gomod.Read(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil
	}
	return toolNames(f)
}

// majorSuffix is a module path's major version element ("v2").
var majorSuffix = regexp.MustCompile(`^v[0-9]+$`)

// toolNames parses a go.mod's tool directives into the names go tool
// accepts: a package path's last element, or the one before a major
// version element (mvdan.cc/sh/v3/cmd/shfmt is shfmt, example.com/x/v2
// is x).
func toolNames(f *modfile.File) map[string]bool {
	names := map[string]bool{}
	for _, t := range f.Tool {
		p := strings.TrimSuffix(t.Path, "/")
		name := path.Base(p)
		if majorSuffix.MatchString(name) && path.Dir(p) != "." {
			name = path.Base(path.Dir(p))
		}
		if name != "" && name != "." && name != "/" {
			names[name] = true
		}
	}
	return names
}
