package main

// This file checks ARCHITECTURE.md's structural invariants over the whole
// module's source (non-test files, parsed with go/parser; no build): who
// may start a process, and who may touch the disk other than through
// engine/rootfs. Which package may import which is deps_test.go's.

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const modulePath = "github.com/devbroker/devbroker/"

// source is the parsed non-test Go source of the module.
type source struct {
	fset  *token.FileSet
	files map[string]*ast.File // by slash path from the module root
}

func parseModule(t *testing.T) *source {
	t.Helper()
	src := &source{fset: token.NewFileSet(), files: map[string]*ast.File{}}
	err := filepath.WalkDir("../..", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != "../.." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(src.fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../..", p)
		src.files[filepath.ToSlash(rel)] = f
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The checks must see the code they guard, or they prove nothing.
	for _, must := range []string{"engine/rootfs/io.go", "lsp/instance.go", "capabilities/external/process.go", "configs/load.go"} {
		if src.files[must] == nil {
			t.Fatalf("the source walk did not find %s", must)
		}
	}
	return src
}

// pkgOf is a file's package directory ("engine/rootfs").
func pkgOf(file string) string { return filepath.ToSlash(filepath.Dir(file)) }

// under reports whether pkg is prefix or a package below it.
func under(pkg, prefix string) bool { return pkg == prefix || strings.HasPrefix(pkg, prefix+"/") }

// calls returns the file's calls of package-level functions of the
// imported package path, as "name" → positions.
func (s *source) calls(f *ast.File, pkgPath string) map[string][]token.Position {
	local := ""
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		if p != pkgPath {
			continue
		}
		local = pkgPath[strings.LastIndex(pkgPath, "/")+1:]
		if im.Name != nil {
			local = im.Name.Name
		}
	}
	out := map[string][]token.Position{}
	if local == "" {
		return out
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && id.Name == local {
				out[sel.Sel.Name] = append(out[sel.Sel.Name], s.fset.Position(call.Pos()))
			}
		}
		return true
	})
	return out
}

// starters are the packages that may start a process, and why.
var starters = map[string]string{
	"lsp":                     "language servers, and the go command that locates gopls (go env, go tool -n)",
	"capabilities/external":   "the configured commands, from argv lists",
	"capabilities/gitrev":     "git's plumbing (rev-parse, ls-tree, cat-file), read-only, for check, lint and format --since: a revision's content, never a repository's own command",
	"capabilities/confine":    "the real compiler behind the confinement wrapper, and the compiler's own search list (cc -E -v), in a root not trusted",
	"capabilities/gotest":     "the go command: go list of the module's graph and go test of the affected packages, in a trusted root only",
	"capabilities/testrun":    "a project's own test runner (pytest, vitest, a configured junit command) in a private staged copy, in a trusted root only",
	"lsp/lsptest":             "for tests only: the fake language server's proxy modes run the real server behind it, to slow its load or start",
	"bench/lspbench":          "the benchmark harness, not part of the product",
	"bench/internal/modcache": "the benchmarks' go mod download, not part of the product",
	"bench/startbench":        "the start-up benchmark, not part of the product",
	"bench/coldbench":         "the cold-start benchmark (devbroker, gopls check, staticcheck, go vet over empty caches), not part of the product",
	"bench/navbench":          "the language-step benchmark, not part of the product",
	"bench/internal/gobuild":  "the benchmarks' go build, not part of the product",
	"bench/peerbench":         "the benchmark against the peers, not part of the product",
	"bench/scalebench":        "the lint and format benchmark, not part of the product",
}

// TestWhoStartsProcesses: only lsp/ and capabilities/external start
// processes (os/exec's Command and CommandContext, os.StartProcess,
// syscall's exec calls); only capabilities/staticcheck imports
// golang.org/x/tools/go/packages, which runs `go list` (TestDependencies).
func TestWhoStartsProcesses(t *testing.T) {
	src := parseModule(t)
	seen := map[string]bool{}
	for file, f := range src.files {
		pkg := pkgOf(file)
		var sites []token.Position
		for _, c := range []struct{ path, fn string }{
			{"os/exec", "Command"}, {"os/exec", "CommandContext"},
			{"os", "StartProcess"}, {"syscall", "Exec"}, {"syscall", "ForkExec"}, {"syscall", "StartProcess"},
		} {
			sites = append(sites, src.calls(f, c.path)[c.fn]...)
		}
		if len(sites) > 0 {
			seen[pkg] = true
		}
		if _, ok := starters[pkg]; !ok {
			for _, s := range sites {
				t.Errorf("%s starts a process: only %v may (ARCHITECTURE.md, Processes)", s, slices.Sorted(maps.Keys(starters)))
			}
		}
	}
	if !seen["lsp"] || !seen["capabilities/external"] {
		t.Fatalf("the scan found no process start in lsp or capabilities/external (saw %v): it proves nothing", slices.Sorted(maps.Keys(seen)))
	}
}

// diskCalls are the os and path/filepath functions that read or change
// the disk's content (Stat and Lstat, which read metadata, are not).
var diskCalls = map[string][]string{
	"os": {"ReadFile", "Open", "OpenFile", "OpenRoot", "OpenInRoot", "WriteFile", "ReadDir", "Create", "CreateTemp",
		"MkdirTemp", "Mkdir", "MkdirAll", "Remove", "RemoveAll", "Rename", "Truncate", "Symlink", "Link", "Chmod", "DirFS", "CopyFS"},
	"path/filepath": {"Walk", "WalkDir", "Glob"},
}

// diskSites returns, per file, the positions of its direct disk calls.
func diskSites(src *source) map[string][]string {
	out := map[string][]string{}
	for file, f := range src.files {
		for pkgPath, fns := range diskCalls {
			calls := src.calls(f, pkgPath)
			for _, fn := range fns {
				for _, pos := range calls[fn] {
					out[file] = append(out[file], pkgPath[strings.LastIndex(pkgPath, "/")+1:]+"."+fn+" at line "+strconv.Itoa(pos.Line))
				}
			}
		}
	}
	return out
}

// diskDoors are the files that may touch the disk other than through
// engine/rootfs, and why. None reads or writes a file under the root
// except the configuration loader and staticcheck's stage (which copies
// the module the way rootfs allows, leaving out links that leave the root).
var diskDoors = map[string]string{
	"engine/rootfs/batch.go": "the door: writes several files under the root at once",
	"engine/rootfs/glob.go":  "the door: globs over the root",
	"engine/rootfs/io.go":    "the door: reads and writes under the root",
	"engine/rootfs/links.go": "the door: finds the symlinks that leave the root",

	"capabilities/overlay.go":                 "a Go overlay's copies and JSON in a private temporary directory",
	"capabilities/gotest/gotest.go":           "the run's private temporary directory (TMPDIR, GOTMPDIR and the overlay), removed after it",
	"capabilities/gotest/findings.go":         "reads a test file of a package the go command listed, to find where a failing test is declared (workspace content first)",
	"capabilities/pytest/select.go":           "walks the root's Python files to read their imports, as text, choosing the tests a change affects (trusted root only)",
	"capabilities/pytest/pytest.go":           "the run's private directory and the report pytest writes there; a file's imports read for the choice of tests",
	"capabilities/testrun/stage.go":           "copies the root into a private staged tree for a test run (trusted root only), links environments",
	"capabilities/vitest/vitest.go":           "the run's private directory and the report vitest writes there",
	"capabilities/junitrun/junitrun.go":       "the run's private directory and the report the configured runner writes there",
	"capabilities/trees.go":                   "the set's store of staged trees in the temp directory: writes workspace content, measures and removes its own trees",
	"capabilities/probecache.go":              "the probe cache in the user's cache directory, outside every root",
	"capabilities/external/stage.go":          "the driver's private staged tree and Go overlay in the temp directory",
	"capabilities/external/probe.go":          "the probe's private smoke-test tree",
	"capabilities/lspdriver/probe.go":         "the probe's private smoke-test tree",
	"capabilities/staticcheck/staticcheck.go": "the probe's smoke-test module and the stage's directory",
	"capabilities/staticcheck/stage.go":       "the stage's own directory: its lock file, and its removal on Close",
	"capabilities/staticcheck/stage_sync.go":  "the stage: copies the module into a private tree, leaving out links that leave the root (rootfs.Leaves)",
	"capabilities/staticcheck/direct.go":      "whether the module on disk holds the workspace (the stage's walk, leaving out links that leave the root), and the go command's env file",
	"capabilities/staticcheck/lint.go":        "staticcheck's cache directory and the executable's own hash",
	"capabilities/staticcheck/convert.go":     "staged copies, to map positions of files the workspace does not hold",
	"capabilities/confine/confine.go":         "the process's private directory of compiler wrappers (their specifications and links), and the go command's env file",
	"capabilities/confine/toolchain.go":       "the wrapper's record of the real compilers, in its private directory",
	"capabilities/confine/wrappers_unix.go":   "the links to the compiler wrapper, in the process's private directory",
	"capabilities/confine/cc.go":              "the compiler wrapper, run by the go command: the dependency file the compiler writes in the private directory (nothing read reaches an answer but the names it lists)",
	"capabilities/confine/asm.go":             "the assembler wrapper, run by the go command: reads the assembly it checks (under the root, GOROOT or the go command's work directory) for its #include names, which alone reach an answer",

	"configs/project.go":                      "the root's .devbroker.toml: configs depends on no other layer, and refuses a symlinked file",
	"configs/layers.go":                       "the user's own config.toml, outside every root",
	"configs/trust/store.go":                  "the user's trust store, outside every root",
	"configs/internal/configdoc/configdoc.go": "go generate: the configuration reference",

	"cmd/devbroker/run.go":        "the plan file named on the command line",
	"cmd/devbroker/serve_http.go": "the token file named on the command line",

	"engine/testtree/testtree.go":      "tests' file trees (imported by tests only)",
	"internal/proctest/gone_unix.go":   "tests' look at /proc for a process they started (imported by tests only)",
	"internal/proctest/proctest.go":    "tests' read of the process id a child they started wrote to a temporary file (imported by tests only)",
	"configs/configtest/configtest.go": "tests' user configuration layer, outside every root (imported by tests only)",

	"lsp/watch.go":                  "the watcher: lists the root's directories, keeps its barrier files in a private directory",
	"internal/gomod/gomod.go":       "go.mod and go.work files: the go command's (GOMOD, GOWORK and their replace and use directories, for lsp's check of a server's inputs), the root's module context above the root (gofumpt's options) and a trusted root's own go.mod (its tool directives); what they say reaches an answer, never their text",
	"internal/privtemp/privtemp.go": "makes the process's private directories in the temp directory, and removes those of processes that are gone",
	"lsp/lsptest/fake.go":           "a fake language server for tests: writes its process id to the file a test names",
	"lsp/verify.go":                 "the check of a server's inputs: lists directories and hashes a file whose stamp is racy, only to tell whether it changed (nothing read reaches an answer)",
	"lsp/disk.go":                   "whether a changed file is under a package that embeds files: the //go:embed lines of its Go files decide a gopls reload (nothing read reaches an answer)",
}

// rootReaders are the files of diskDoors that read under the root, each
// by its own rule; ARCHITECTURE.md names them (TestArchitectureMap).
var rootReaders = []string{
	"configs/project.go",
	"capabilities/staticcheck/stage_sync.go",
	"capabilities/staticcheck/direct.go",
	"lsp/verify.go",
	"lsp/watch.go",
	"lsp/disk.go",
	"internal/gomod/gomod.go",
	"capabilities/confine/asm.go",
	"capabilities/testrun/stage.go",
	"capabilities/gotest/findings.go",
	"capabilities/pytest/pytest.go",
	"capabilities/pytest/select.go",
}

// TestOneDoorToTheDisk: every read and write of the disk's content goes
// through engine/rootfs, except in the files of diskDoors, each for its
// stated reason. A new direct call elsewhere fails here; an entry whose
// file no longer calls the disk must go.
func TestOneDoorToTheDisk(t *testing.T) {
	sites := diskSites(parseModule(t))
	for file, calls := range sites {
		if _, ok := diskDoors[file]; ok || under(pkgOf(file), "bench") {
			continue
		}
		t.Errorf("%s touches the disk directly (%s): go through engine/rootfs, or add the file to diskDoors with the reason it is not under the root", file, strings.Join(calls, ", "))
	}
	for file := range diskDoors {
		if len(sites[file]) == 0 {
			t.Errorf("diskDoors lists %s, which no longer touches the disk directly: remove the entry", file)
		}
	}
	for _, file := range rootReaders {
		if _, ok := diskDoors[file]; !ok {
			t.Errorf("rootReaders lists %s, which diskDoors does not", file)
		}
	}
}
