package main

// This file is the module's dependency policy, in one table, as go/build's
// deps_test.go writes the standard library's: which of the module's
// directories each may import, which third-party packages only some may
// import, and which packages are for tests only. ARCHITECTURE.md's code
// map states the same rules in words ("must not import").

import (
	"bufio"
	"bytes"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// layers says, for a directory of the module and everything under it,
// which of the module's directories its packages may import besides their
// own. The longest matching dir applies; "*" allows everything.
var layers = []struct {
	dir string
	may []string
	why string
}{
	{"internal", nil, "internal/ holds what every layer shares (process groups, private temporary directories) and depends on none"},
	{"engine", nil, "the engine starts no process and speaks no protocol: it reaches drivers only through the Capabilities interface it defines"},
	{"configs", nil, "the configuration is read by every layer and depends on none"},
	{"lsp", []string{"internal"}, "the language-server client knows no driver model and no surface"},
	{"capabilities", []string{"engine", "configs", "lsp", "internal"}, "drivers serve the engine and know no surface"},
	{"broker", []string{"engine", "configs", "lsp", "capabilities", "internal"}, "the surfaces sit above the drivers"},
	{"broker/wire", []string{"engine", "capabilities"}, "broker/wire is what both surfaces share: result types and their mapping, tied to neither MCP nor the editor protocol"},
	{"cmd", []string{"*"}, "the command sees everything"},
	{"bench", []string{"*"}, "a harness, not part of the product"},
}

// onlyIn lists third-party packages (a path and what is under it) that
// only some of the module's directories may import, directly or through
// other third-party packages.
var onlyIn = []struct {
	dep string
	in  []string
	why string
}{
	{"github.com/modelcontextprotocol/go-sdk", []string{"broker/mcp", "cmd", "bench"}, "only broker/mcp speaks MCP"},
	{"go.lsp.dev", []string{"lsp", "broker/editor", "cmd", "bench"}, "the editor endpoint speaks LSP with its types (the language-server client may too); nothing else speaks a protocol"},
	{"golang.org/x/tools/go/packages", []string{"capabilities/staticcheck", "cmd", "bench"}, "it runs the go command: only staticcheck's driver loads packages (see TestWhoStartsProcesses)"},
}

// testOnly are the module's packages that only tests may import.
var testOnly = []string{"engine/testtree", "configs/configtest", "lsp/lsptest"}

// rel is a package's directory relative to the module ("engine/rootfs"),
// or "" for a package outside the module.
func rel(pkg string) string {
	r, ok := strings.CutPrefix(pkg, modulePath)
	if !ok && pkg+"/" != modulePath {
		return ""
	}
	return r
}

// layerOf is the entry of layers that applies to dir.
func layerOf(dir string) (own string, may []string, why string, ok bool) {
	for _, l := range layers {
		if under(dir, l.dir) && len(l.dir) > len(own) {
			own, may, why, ok = l.dir, l.may, l.why, true
		}
	}
	return own, may, why, ok
}

// TestDependencies checks every import of every non-test package of the
// module against layers, onlyIn and testOnly, with go list's view of the
// build (the default build context).
func TestDependencies(t *testing.T) {
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		imports[f[0]] = f[1:]
	}
	// thirdParty is what a third-party package depends on, itself
	// included, transitively up to the module's own packages.
	memo := map[string]map[string]bool{}
	var thirdParty func(pkg string) map[string]bool
	thirdParty = func(pkg string) map[string]bool {
		if d, ok := memo[pkg]; ok {
			return d
		}
		d := map[string]bool{pkg: true}
		memo[pkg] = d // a cycle ends here
		for _, im := range imports[pkg] {
			if rel(im) == "" {
				for dep := range thirdParty(im) {
					d[dep] = true
				}
			}
		}
		return d
	}
	seen := map[string]bool{}
	for pkg, ims := range imports {
		dir := rel(pkg)
		if dir == "" || dir == "examples" || under(dir, "examples") {
			continue
		}
		own, may, why, ok := layerOf(dir)
		if !ok {
			t.Errorf("%s is in no entry of layers: give its directory a place in the dependency policy (and in ARCHITECTURE.md)", dir)
			continue
		}
		seen[own] = true
		for _, im := range ims {
			if d := rel(im); d != "" {
				for _, test := range testOnly {
					if under(d, test) && !under(dir, test) {
						t.Errorf("%s imports %s, which is for tests only", dir, d)
					}
				}
				if !under(d, own) && !slices.Contains(may, "*") && !slices.ContainsFunc(may, func(m string) bool { return under(d, m) }) {
					t.Errorf("%s imports %s: %s/ may import only %v of the module (%s)", dir, d, own, may, why)
				}
				continue
			}
			for dep := range thirdParty(im) {
				for _, r := range onlyIn {
					if (dep == r.dep || strings.HasPrefix(dep, r.dep+"/")) && !slices.ContainsFunc(r.in, func(in string) bool { return under(dir, in) }) {
						t.Errorf("%s depends on %s (importing %s): only %v may (%s)", dir, dep, im, r.in, r.why)
					}
				}
			}
		}
	}
	// The check must see the layers it guards, or it proves nothing.
	for _, must := range []string{"engine", "configs", "lsp", "capabilities", "broker", "broker/wire", "internal", "cmd"} {
		if !seen[must] {
			t.Errorf("go list listed no package of %s/", must)
		}
	}
}
