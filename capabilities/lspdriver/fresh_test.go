package lspdriver_test

// A verdict is fresh or it is not ok: for each change on disk that breaks
// `go build ./...` (a replace directory outside the root, an embedded
// file, cgo sources and headers, vendor/modules.txt, a go.work in a parent
// directory, a package under node_modules, hard links, writes without an
// event, symlink aliases), a check by a long-running gopls that answered
// clean before must not answer clean after. Each runs with the disk
// watcher and without it (the portable mode of every platform but
// Linux): the verification does not depend on events.

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// freshScenario is a tree under a base directory (the root is base/m),
// and a change that breaks its build.
type freshScenario struct {
	name  string
	files map[string]string // relative to the base
	setup func(t *testing.T, base string)
	// change breaks the build; it returns the paths (relative to the
	// base) devbroker itself wrote, told as a DiskObserver is told.
	change func(t *testing.T, base string) []string
	cgo    bool
	// unverified: gopls cannot see the break; the answer must say it
	// is not verified rather than show an error.
	unverified bool
	// restarts: gopls cannot be told, its process is replaced; any
	// other change is told to the running process.
	restarts bool
}

// goMod is the root module's go.mod.
const goMod = "module example.com/m\n\ngo 1.22\n"

func put(t *testing.T, base, p, content string) { t.Helper(); testtree.Put(t, base, p, content) }

// writeInPlace rewrites the file at p without replacing it (the same
// inode: what an editor saving in place, or a write through a hard link,
// does).
func writeInPlace(t *testing.T, p, content string) {
	t.Helper()
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// replaceByRename writes content to p by a rename over it (an atomic
// write, as devbroker's own writes are).
func replaceByRename(t *testing.T, p, content string) {
	t.Helper()
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, p); err != nil {
		t.Fatal(err)
	}
}

// aliasFiles is a module whose pkg2/dep.go is a symlink to dep/dep.go:
// package pkg2 is package dep again, and main uses it only as pkg2.
var aliasFiles = map[string]string{
	"m/go.mod":     goMod,
	"m/dep/dep.go": "package dep\n\nfunc F() int { return 1 }\n",
	"m/main.go":    "package main\n\nimport dep2 \"example.com/m/pkg2\"\n\nfunc main() { println(dep2.F()) }\n",
}

func aliasSetup(t *testing.T, base string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(base, "m/pkg2"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../dep/dep.go", filepath.Join(base, "m/pkg2/dep.go")); err != nil {
		t.Fatal(err)
	}
}

const depG = "package dep\n\nfunc G() int { return 1 }\n"

var freshScenarios = []freshScenario{
	{
		name: "replace directory outside the root",
		files: map[string]string{
			"m/go.mod":   goMod + "\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
			"m/main.go":  "package main\n\nimport \"example.com/dep\"\n\nfunc main() { println(dep.F()) }\n",
			"dep/go.mod": "module example.com/dep\n\ngo 1.22\n",
			"dep/dep.go": "package dep\n\nfunc F() int { return 1 }\n",
		},
		change: func(t *testing.T, base string) []string {
			writeInPlace(t, filepath.Join(base, "dep/dep.go"), depG)
			return nil
		},
	},
	{
		name:       "replace directory outside the root removed",
		unverified: true,
		files: map[string]string{
			"m/go.mod":   goMod + "\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
			"m/main.go":  "package main\n\nimport \"example.com/dep\"\n\nfunc main() { println(dep.F()) }\n",
			"dep/go.mod": "module example.com/dep\n\ngo 1.22\n",
			"dep/dep.go": "package dep\n\nfunc F() int { return 1 }\n",
		},
		change: func(t *testing.T, base string) []string {
			if err := os.RemoveAll(filepath.Join(base, "dep")); err != nil {
				t.Fatal(err)
			}
			return nil
		},
	},
	{
		name: "embedded file deleted",
		files: map[string]string{
			"m/go.mod":   goMod,
			"m/main.go":  "package main\n\nimport _ \"embed\"\n\n//go:embed data.txt\nvar data string\n\nfunc main() { println(data) }\n",
			"m/data.txt": "hello\n",
		},
		change: func(t *testing.T, base string) []string {
			if err := os.Remove(filepath.Join(base, "m/data.txt")); err != nil {
				t.Fatal(err)
			}
			return nil
		},
	},
	{
		name: "cgo header breaks the preamble",
		cgo:  true,
		files: map[string]string{
			"m/go.mod":     goMod,
			"m/dep/x.h":    "static int f(void) { return 1; }\n",
			"m/dep/dep.go": "package dep\n\n// #include \"x.h\"\nimport \"C\"\n\nfunc F() int { return int(C.f()) }\n",
			"m/main.go":    "package main\n\nimport \"example.com/m/dep\"\n\nfunc main() { println(dep.F()) }\n",
		},
		change: func(t *testing.T, base string) []string {
			writeInPlace(t, filepath.Join(base, "m/dep/x.h"), "static int g(void) { return 1; }\n")
			return nil
		},
	},
	{
		name: "cgo C file syntax error",
		cgo:  true,
		files: map[string]string{
			"m/go.mod":     goMod,
			"m/dep/c.c":    "int g(void) { return 2; }\n",
			"m/dep/dep.go": "package dep\n\n// int g(void);\nimport \"C\"\n\nfunc F() int { return int(C.g()) }\n",
			"m/main.go":    "package main\n\nimport \"example.com/m/dep\"\n\nfunc main() { println(dep.F()) }\n",
		},
		change: func(t *testing.T, base string) []string {
			writeInPlace(t, filepath.Join(base, "m/dep/c.c"), "int g(void) { return 2 }\n")
			return nil
		},
	},
	{
		name: "vendor/modules.txt loses a dependency",
		files: map[string]string{
			"m/go.mod":      goMod + "\nrequire example.com/v v0.0.0\n\nreplace example.com/v => ./vmod\n",
			"m/main.go":     "package main\n\nimport \"example.com/v\"\n\nfunc main() { println(v.F()) }\n",
			"m/vmod/go.mod": "module example.com/v\n\ngo 1.22\n",
			"m/vmod/v.go":   "package v\n\nfunc F() int { return 1 }\n",
		},
		setup: func(t *testing.T, base string) {
			cmd := exec.Command("go", "mod", "vendor")
			cmd.Dir = filepath.Join(base, "m")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("go mod vendor: %v\n%s", err, out)
			}
		},
		change: func(t *testing.T, base string) []string {
			writeInPlace(t, filepath.Join(base, "m/vendor/modules.txt"), "")
			return nil
		},
	},
	{
		name: "an assembly file's syntax error",
		files: map[string]string{
			"m/go.mod":          goMod,
			"m/dep/dep.go":      "package dep\n\n// Add is in assembly (add_amd64.s) or Go (add_other.go).\nfunc Add(a, b int) int\n",
			"m/dep/add_amd64.s": addAsm,
			"m/main.go":         "package main\n\nimport \"example.com/m/dep\"\n\nfunc main() { println(dep.Add(1, 2)) }\n",
		},
		setup:  amd64Only,
		change: breakAsm("m/dep/add_amd64.s"),
	},
	{
		name:       "an assembly file's syntax error in a replace directory outside the root",
		unverified: true,
		files: map[string]string{
			"m/go.mod":        goMod + "\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
			"m/main.go":       "package main\n\nimport \"example.com/dep\"\n\nfunc main() { println(dep.Add(1, 2)) }\n",
			"dep/go.mod":      "module example.com/dep\n\ngo 1.22\n",
			"dep/dep.go":      "package dep\n\n// Add is in assembly.\nfunc Add(a, b int) int\n",
			"dep/add_amd64.s": addAsm,
		},
		setup:  amd64Only,
		change: breakAsm("dep/add_amd64.s"),
	},
	{
		name:       "go.work appears in the parent directory",
		unverified: true,
		files: map[string]string{
			"m/go.mod":       goMod,
			"m/main.go":      "package main\n\nfunc main() {}\n",
			"other/go.mod":   "module example.com/other\n\ngo 1.22\n",
			"other/other.go": "package other\n",
		},
		change: func(t *testing.T, base string) []string {
			put(t, base, "go.work", "go 1.22\n\nuse ./other\n")
			return nil
		},
	},
	{
		name: "a package under node_modules",
		files: map[string]string{
			"m/go.mod":                  goMod,
			"m/main.go":                 "package main\n\nimport \"example.com/m/node_modules/foo\"\n\nfunc main() { println(foo.F()) }\n",
			"m/node_modules/foo/foo.go": "package foo\n\nfunc F() int { return 1 }\n",
		},
		change: func(t *testing.T, base string) []string {
			writeInPlace(t, filepath.Join(base, "m/node_modules/foo/foo.go"), "package foo\n\nfunc G() int { return 1 }\n")
			return nil
		},
	},
	{
		name: "a write through a hard link outside the root",
		files: map[string]string{
			"m/go.mod":  goMod,
			"m/a/a.go":  "package a\n\nfunc F() int { return 1 }\n",
			"m/main.go": "package main\n\nimport \"example.com/m/a\"\n\nfunc main() { println(a.F()) }\n",
		},
		setup: func(t *testing.T, base string) {
			if err := os.MkdirAll(filepath.Join(base, "elsewhere"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(base, "m/a/a.go"), filepath.Join(base, "elsewhere/a.go")); err != nil {
				t.Skipf("no hard links here: %v", err)
			}
		},
		change: func(t *testing.T, base string) []string {
			writeInPlace(t, filepath.Join(base, "elsewhere/a.go"), "package a\n\nfunc G() int { return 1 }\n")
			return nil
		},
	},
	{
		name:     "a Go file rewritten in place with its modification time put back",
		restarts: true,
		files: map[string]string{
			"m/go.mod":  goMod,
			"m/a/a.go":  "package a\n\nfunc F() int { return 1 }\n",
			"m/main.go": "package main\n\nimport \"example.com/m/a\"\n\nfunc main() { println(a.F()) }\n",
		},
		setup: func(t *testing.T, base string) {
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(filepath.Join(base, "m/a/a.go"), old, old); err != nil {
				t.Fatal(err)
			}
		},
		change: func(t *testing.T, base string) []string {
			p := filepath.Join(base, "m/a/a.go")
			fi, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			writeInPlace(t, p, "package a\n\nfunc G() int { return 1 }\n")
			if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
				t.Fatal(err)
			}
			return nil
		},
	},
	{
		name:  "symlink alias: the target written in place",
		files: aliasFiles, setup: aliasSetup,
		change: func(t *testing.T, base string) []string {
			writeInPlace(t, filepath.Join(base, "m/dep/dep.go"), depG)
			return nil
		},
	},
	{
		name:  "symlink alias: written through the link",
		files: aliasFiles, setup: aliasSetup,
		change: func(t *testing.T, base string) []string {
			writeInPlace(t, filepath.Join(base, "m/pkg2/dep.go"), depG)
			return nil
		},
	},
	{
		name:  "symlink alias: the target replaced by devbroker (told)",
		files: aliasFiles, setup: aliasSetup,
		change: func(t *testing.T, base string) []string {
			replaceByRename(t, filepath.Join(base, "m/dep/dep.go"), depG)
			return []string{"m/dep/dep.go"}
		},
	},
	{
		name:  "symlink alias: the target renamed away by devbroker (told)",
		files: aliasFiles, setup: aliasSetup,
		change: func(t *testing.T, base string) []string {
			if err := os.Rename(filepath.Join(base, "m/dep/dep.go"), filepath.Join(base, "m/dep/dep3.go")); err != nil {
				t.Fatal(err)
			}
			return []string{"m/dep/dep.go", "m/dep/dep3.go"}
		},
	},
}

// TestFreshAfterBuildInputsChange runs every scenario with and without
// the disk watcher.
func TestFreshAfterBuildInputsChange(t *testing.T) {
	gopls := goplsPath(t)
	for _, sc := range append(freshScenarios, platformScenarios...) {
		for _, noWatch := range []bool{false, true} {
			mode := "watcher"
			if noWatch {
				mode = "portable"
			}
			t.Run(sc.name+"/"+mode, func(t *testing.T) {
				lspdriver.SetNoWatch(noWatch)
				t.Cleanup(func() { lspdriver.SetNoWatch(false) })
				runFresh(t, gopls, sc)
			})
		}
	}
}

func runFresh(t *testing.T, gopls string, sc freshScenario) {
	if sc.cgo {
		if _, err := exec.LookPath("gcc"); err != nil {
			t.Skip("no C compiler for cgo")
		}
	}
	base, _ := filepath.EvalSymlinks(t.TempDir())
	// A go.work above the test's temporary directory would be one more
	// input; none is expected there.
	testtree.Write(t, base, sc.files)
	if sc.setup != nil {
		sc.setup(t, base)
	}
	root := filepath.Join(base, "m")
	t.Setenv("GOFLAGS", "")
	t.Setenv("GOWORK", "")
	if sc.cgo {
		t.Setenv("CGO_ENABLED", "1")
	}
	if out, ok := goBuild(t, root); !ok {
		t.Fatalf("before the change, go build ./... fails:\n%s", out)
	}
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{gopls}, Settings: goplsSettings(t), Timeout: configs.Duration{Duration: 5 * time.Minute}}, root)
	ctx := context.Background()
	res := checkRoot(ctx, t, d, root)
	if res.Status != engine.StatusOK || len(errorsOf(res)) > 0 {
		t.Fatalf("before the change: status %s (%s), errors %v; want ok and clean", res.Status, res.Message, errorsOf(res))
	}
	told := sc.change(t, base)
	if len(told) > 0 {
		var abs []string
		for _, p := range told {
			abs = append(abs, filepath.Join(base, p))
		}
		d.(engine.DiskObserver).DiskChanged(abs)
	}
	out, ok := goBuild(t, root)
	if ok {
		t.Fatal("after the change, go build ./... still builds: the scenario breaks nothing")
	}
	res = checkRoot(ctx, t, d, root)
	errs := errorsOf(res)
	t.Logf("go build ./...: %s", oneLine(out))
	t.Logf("check: status %s (%s), errors %v", res.Status, res.Message, errs)
	if res.Status == engine.StatusOK && len(errs) == 0 {
		t.Fatalf("after the change, check answered clean while go build ./... fails:\n%s", out)
	}
	if sc.unverified && (res.Status == engine.StatusOK || res.Message == "") {
		t.Errorf("status %s (%q): want not ok, with the reason", res.Status, res.Message)
	}
	if starts, want := d.(*lspdriver.Driver).Server(root).Starts(), map[bool]int{false: 1, true: 2}[sc.restarts]; starts != want {
		t.Errorf("gopls started %d times, want %d", starts, want)
	}
}

// goBuild runs go build ./... in root.
func goBuild(t *testing.T, root string) (string, bool) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", os.DevNull, "./...")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	return string(out), err == nil
}

// checkRoot checks main.go, the package that depends on what changed, as
// an agent checks the code it works on; the workspace holds every file of
// the root at its disk content.
func checkRoot(ctx context.Context, t *testing.T, d capabilities.Driver, root string) *capabilities.Result {
	t.Helper()
	all := map[string]*text.Doc{}
	_ = filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if de.IsDir() && (de.Name() == "vendor" || de.Name() == "testdata" || de.Name() == ".git") {
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if de.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		all[rel] = text.FromString(string(data))
		return nil
	})
	files := []string{"main.go"}
	return d.Run(ctx, &capabilities.Request{Kind: engine.Check, Root: root, Files: files, All: all})
}

func errorsOf(res *capabilities.Result) []string {
	var out []string
	for _, dg := range res.Diagnostics {
		if dg.Severity == engine.SeverityError {
			out = append(out, dg.Path+": "+dg.Message)
		}
	}
	return out
}

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", " | ") }

// addAsm is dep.Add in amd64 assembly.
const addAsm = "#include \"textflag.h\"\n\nTEXT ·Add(SB), NOSPLIT, $0-24\n\tMOVQ a+0(FP), AX\n\tMOVQ b+8(FP), BX\n\tADDQ BX, AX\n\tMOVQ AX, ret+16(FP)\n\tRET\n"

// amd64Only skips a scenario whose assembly is amd64's elsewhere.
func amd64Only(t *testing.T, _ string) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the assembly is amd64's")
	}
}

// breakAsm is a change that puts a syntax error in the assembly file rel
// (in place, as an editor would).
func breakAsm(rel string) func(*testing.T, string) []string {
	return func(t *testing.T, base string) []string {
		p := filepath.Join(base, rel)
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		writeInPlace(t, p, strings.Replace(string(data), "MOVQ a+0(FP), AX", "MOVQ a+0(FP) AX", 1))
		return nil
	}
}
