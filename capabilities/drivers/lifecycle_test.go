package drivers

// This file enforces the driver lifecycle of capabilities' package doc
// over every registered type, and a set's disk budget.

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// TestMain keeps staticcheck's cache of these tests apart from the
// user's (the disk budget test measures it).
func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "devbroker-drivers-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("DEVBROKER_STATICCHECK_CACHE", filepath.Join(tmp, "staticcheck"))
	// No driver runs under its default timeout (configs/configtest).
	code := configtest.Run(m)
	os.RemoveAll(tmp)
	os.Exit(code)
}

// catDriver is an external driver that reads every requested file from a
// staged tree (cat prints it; nothing in it is a finding).
func catDriver() *configs.Driver {
	return configtest.Driver(&configs.Driver{Type: "external", Command: []string{"cat", "{file}"}, Input: "staged", Errorformat: []string{"%f:%l:%c: %m"}})
}

// lifecycleConfigs is a configuration for each registered type.
func lifecycleConfigs(t *testing.T) map[string]*configs.Driver {
	t.Helper()
	def, err := configtest.Default()
	if err != nil {
		t.Fatal(err)
	}
	return map[string]*configs.Driver{
		"gofumpt":     def.Drivers["gofumpt"],
		"staticcheck": def.Drivers["staticcheck"],
		"lsp":         def.Drivers["gopls"],
		"external":    catDriver(),
		"gotest":      def.Drivers["go-test"],
		"pytest":      def.Drivers["pytest"],
		"vitest":      vitestDriver(t),
		"junit":       configtest.Driver(&configs.Driver{Type: "junit", Command: []string{"pytest", "-q", "-p", "no:cacheprovider", "--junitxml={report}", "test_a.py"}}),
	}
}

// children counts this process's child processes (Linux).
func children(t *testing.T) int {
	t.Helper()
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	n := 0
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		n += len(strings.Fields(string(b)))
	}
	return n
}

// treeBytes is the number of entries and the bytes of the regular files
// under dir.
func treeBytes(t *testing.T, dir string) (entries int, bytes int64) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return nil
		}
		entries++
		if info, err := d.Info(); err == nil && info.Mode().IsRegular() {
			bytes += info.Size()
		}
		return nil
	})
	return entries, bytes
}

// goModule writes a one-package module with a test and returns its root and its
// workspace content.
func goModule(t *testing.T) (string, map[string]*text.Doc) {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a.go":   "package m\n\nfunc F(s string) int {\n\tx := len(s)\n\tx = 2\n\treturn x\n}\n",
		// Tests, so that go-test and pytest have one to run.
		"a_test.go":  "package m\n\nimport \"testing\"\n\nfunc TestF(t *testing.T) { F(\"\") }\n",
		"test_a.py":  "def test_a():\n    pass\n",
		"a.test.mjs": "import { test } from 'vitest'\n\ntest('a', () => {})\n",
	}
	all := map[string]*text.Doc{}
	for p, c := range files {
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
		all[p] = text.FromString(c)
	}
	return root, all
}

// TestDriverLifecycle holds every registered driver type to the
// lifecycle: New starts no process and creates no file; Run answers;
// Close waits for a running Run (which either finished before Close
// returned or was refused); Close twice is fine; Run after Close says
// clearly that the driver was closed.
func TestDriverLifecycle(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("counts child processes through /proc")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	cfgs := lifecycleConfigs(t)
	for _, typ := range Types {
		t.Run(typ.Name, func(t *testing.T) {
			cfg, ok := cfgs[typ.Name]
			if !ok {
				t.Fatalf("the lifecycle test has no configuration for the registered type %q: add one", typ.Name)
			}
			root, all := goModule(t)
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			procs := children(t)
			d, err := typ.New(typ.Name, cfg, capabilities.Env{Root: root, Language: "go"})
			if err != nil {
				t.Fatal(err)
			}
			if n := children(t); n != procs {
				t.Errorf("New started %d processes", n-procs)
			}
			if n, _ := treeBytes(t, tmp); n != 0 {
				t.Errorf("New created %d files in the temporary directory", n)
			}
			kind := d.Spec().Kinds[0]
			file := map[string]string{"pytest": "test_a.py", "vitest": "a.test.mjs"}[typ.Name]
			if file == "" {
				file = "a.go"
			}
			if typ.Name == "vitest" {
				if err := os.Symlink(filepath.Dir(filepath.Dir(cfg.Command[0])), filepath.Join(root, "node_modules")); err != nil {
					t.Fatal(err)
				}
			}
			req := &capabilities.Request{Kind: kind, Root: root, Files: []string{file}, All: all}
			if r := d.Run(context.Background(), req); r.Status != engine.StatusOK {
				t.Fatalf("Run: %s: %s", r.Status, r.Message)
			}
			done := make(chan *capabilities.Result, 1)
			go func() { done <- d.Run(context.Background(), req) }()
			if err := d.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			select {
			case r := <-done:
				if r.Status != engine.StatusOK && !strings.Contains(r.Message, "was closed") {
					t.Errorf("a Run racing Close: %s: %s", r.Status, r.Message)
				}
			default:
				if r := <-done; !strings.Contains(r.Message, "was closed") {
					t.Errorf("Close returned while a Run was still running (it answered %s: %s)", r.Status, r.Message)
				}
			}
			if err := d.Close(); err != nil {
				t.Errorf("second Close: %v", err)
			}
			r := d.Run(context.Background(), req)
			if r.Status != engine.StatusCrashed || !strings.Contains(r.Message, typ.Name+" was closed") {
				t.Errorf("Run after Close: %s: %q, want crashed saying %s was closed", r.Status, r.Message, typ.Name)
			}
			if n, _ := treeBytes(t, tmp); n != 0 {
				t.Errorf("Close left %d entries in the temporary directory", n)
			}
		})
	}
}

// TestDiskBudget runs 100 lints through a set with staticcheck and two
// external drivers that read a staged tree: the temporary directory
// returns to empty after Close, and staticcheck's cache stops growing
// once every content has been seen.
func TestDiskBudget(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	if _, err := exec.LookPath("cat"); err != nil {
		t.Skip("needs cat")
	}
	root, all := goModule(t)
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cfg := &configs.Config{
		Languages: map[string]*configs.Language{"go": {FileTypes: []string{"*.go"}, Lint: []string{"staticcheck", "cat-a", "cat-b"}}},
		Drivers:   map[string]*configs.Driver{"staticcheck": configtest.Driver(&configs.Driver{Type: "staticcheck"}), "cat-a": catDriver(), "cat-b": catDriver()},
	}
	set, err := capabilities.NewSet(cfg, Types, root)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	set.Probe(ctx)
	variants := []string{"x = 2", "x = 3", "x = 4"}
	lint := func(i int) {
		t.Helper()
		files := map[string]*text.Doc{"go.mod": all["go.mod"], "a.go": text.FromString(strings.Replace(all["a.go"].String(), "x = 2", variants[i%len(variants)], 1))}
		resp, err := set.Run(ctx, engine.Request{Kind: engine.Lint, Root: root, Files: files, Changed: []string{"a.go"}, Paths: []string{"a.go"}})
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range resp.Drivers {
			if d.Status != engine.StatusOK {
				t.Fatalf("lint %d: %s: %s: %s", i, d.Driver, d.Status, d.Message)
			}
		}
	}
	cache := os.Getenv("DEVBROKER_STATICCHECK_CACHE")
	for i := range variants {
		lint(i)
	}
	_, warm := treeBytes(t, cache)
	_, staged := treeBytes(t, tmp)
	for i := range 100 {
		lint(i)
	}
	_, during := treeBytes(t, tmp)
	if err := set.Close(); err != nil {
		t.Fatal(err)
	}
	if err := set.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	n, left := treeBytes(t, tmp)
	// trim.txt is the trim's own record (when it last ran), which Close
	// writes: the entries are what must not grow.
	trimmed, err := os.ReadFile(filepath.Join(cache, "trim.txt"))
	if err != nil {
		t.Errorf("Close did not trim staticcheck's cache: %v", err)
	}
	_, cached := treeBytes(t, cache)
	cached -= int64(len(trimmed))
	t.Logf("temporary directory: %d bytes after the first runs, %d after 100 more, %d entries (%d bytes) after Close; staticcheck cache: %d bytes warm, %d after", staged, during, n, left, warm, cached)
	if n != 0 {
		t.Errorf("the temporary directory holds %d entries (%d bytes) after Close, want none", n, left)
	}
	if cached > warm {
		t.Errorf("staticcheck's cache grew from %d to %d bytes over runs of content it had seen", warm, cached)
	}
}

// vitestDriver is the default vitest driver, running the vitest that
// .ci/install-tools installs for capabilities/vitest's tests.
func vitestDriver(t *testing.T) *configs.Driver {
	t.Helper()
	def, err := configtest.Default()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := filepath.Abs("../vitest/testdata/runner/node_modules/.bin/vitest")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(bin); err != nil {
		t.Skip("vitest is not installed in capabilities/vitest/testdata/runner (.ci/install-tools installs it)")
	}
	d := *def.Drivers["vitest"]
	d.Command = []string{bin}
	return &d
}
