package drivers

// This file tests the early start (capabilities.Set.StartEarly) with the
// real servers: the root's gopls starts beside its probe, is the one the
// first check uses, and is the only one left running; a server that runs
// the repository's code is not started on an untrusted root.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
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

// brokenGo is a module whose a.go has a type error.
var brokenGo = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"a.go":   "package m\n\nvar X int = \"not an int\"\n",
}

// generousTimeouts gives gopls and pyright, in the user's configuration
// (which applies in a root not trusted), a timeout no loaded machine
// reaches: an early start is bounded by the driver's timeout, which a
// test must not depend on. It checks that the configuration of root
// takes it.
func generousTimeouts(t *testing.T, root string) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	if err := os.MkdirAll(filepath.Join(dir, "devbroker"), 0o755); err != nil {
		t.Fatal(err)
	}
	const cfg = "[drivers.gopls]\ntimeout = \"10m\"\n\n[drivers.pyright]\ntimeout = \"10m\"\n"
	if err := os.WriteFile(configs.UserFile(), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := configs.LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"gopls", "pyright"} {
		if d := p.Untrusted.Drivers[name]; d == nil || d.Timeout.Duration != 10*time.Minute {
			t.Fatalf("%s's timeout is not the test's: %+v", name, d)
		}
	}
}

// needs skips the test without a Linux /proc (child processes are
// counted there) or without bin on PATH.
func needs(t *testing.T, bin string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("counts child processes through /proc")
	}
	if _, err := exec.LookPath(bin); err != nil {
		t.Skipf("no %s on PATH (make tools installs it)", bin)
	}
}

// TestStartEarly starts the root's gopls before the first check, both
// ways a command gets there: the server's probe of the languages present
// under the root (ProbeRoot), and a CLI command's probe of its files'
// languages (Prepare). The server is running and held before the check,
// the check answers from that same process (one start), and after probe
// and check exactly one gopls runs; Close stops it.
func TestStartEarly(t *testing.T) {
	needs(t, "gopls")
	isolateTrust(t)
	for name, begin := range map[string]func(*capabilities.Set, context.Context){
		"ProbeRoot": func(s *capabilities.Set, ctx context.Context) { s.ProbeRoot(ctx) },
		"Prepare":   func(s *capabilities.Set, _ context.Context) { s.Prepare(engine.Check, []string{"a.go"}) },
	} {
		t.Run(name, func(t *testing.T) {
			root := canonical(t, testtree.New(t, brokenGo))
			generousTimeouts(t, root)
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
			defer cancel()
			procs := children(t)
			set, _, err := LoadWith(ctx, root, Options{Probe: ProbeLazy})
			if err != nil {
				t.Fatal(err)
			}
			defer set.Close()
			set.StartEarly()
			begin(set, ctx)
			started, err := set.WaitStarts(ctx)
			if err != nil || !slices.Equal(started, []string{"gopls"}) {
				t.Fatalf("early starts: %v, %v; want gopls alone", started, err)
			}
			srv := set.Drivers()["gopls"].(*lspdriver.Driver).Server(root)
			if srv == nil || srv.PID() == 0 || srv.Starts() != 1 {
				t.Fatalf("before the first check, the root's gopls is not running: %v", srv)
			}
			pid := srv.PID()
			resp, err := set.Run(ctx, engine.Request{Kind: engine.Check, Root: root, Files: map[string]*text.Doc{"a.go": text.FromString(brokenGo["a.go"])}})
			if err != nil {
				t.Fatal(err)
			}
			if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusOK || len(resp.Diagnostics) != 1 || !strings.Contains(resp.Diagnostics[0].Message, "cannot use") {
				t.Fatalf("check: %+v %+v", resp.Drivers, resp.Diagnostics)
			}
			if srv.PID() != pid || srv.Starts() != 1 {
				t.Errorf("the check started another gopls: pid %d then %d, %d starts", pid, srv.PID(), srv.Starts())
			}
			if n := children(t) - procs; n != 1 {
				t.Errorf("after probe and check, %d child processes run; want the one gopls", n)
			}
			if err := set.Close(); err != nil {
				t.Fatal(err)
			}
			if n := children(t) - procs; n != 0 {
				t.Errorf("after Close, %d child processes run", n)
			}
		})
	}
}

// TestStartEarlyNeverRunsRepositoryCode: on an untrusted root, a server
// that runs the repository's code (typescript-language-server loads the
// project's own typescript) is neither probed nor started early; once
// the root is trusted, it starts beside its probe like any other.
func TestStartEarlyNeverRunsRepositoryCode(t *testing.T) {
	needs(t, "typescript-language-server")
	for _, trusted := range []bool{false, true} {
		root := canonical(t, testtree.New(t, map[string]string{"a.ts": "const x: number = \"one\";\n"}))
		isolateTrust(t)
		if trusted {
			trustRoot(t, root)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		procs := children(t)
		set, _, err := LoadWith(ctx, root, Options{Probe: ProbeLazy})
		if err != nil {
			t.Fatal(err)
		}
		set.StartEarly()
		rep := set.ProbeRoot(ctx)
		started, err := set.WaitStarts(ctx)
		if err != nil {
			t.Fatal(err)
		}
		srv := set.Drivers()["typescript-language-server"].(*lspdriver.Driver).Server(root)
		state := probeState(rep, "typescript-language-server")
		switch {
		case !trusted && (len(started) != 0 || srv != nil || children(t) != procs || state != capabilities.Untrusted):
			t.Errorf("untrusted root: started %v, server %v, %d child processes, probe %s", started, srv, children(t)-procs, state)
		case trusted && (!slices.Equal(started, []string{"typescript-language-server"}) || srv == nil || srv.PID() == 0):
			t.Errorf("trusted root: started %v, server %v (probe %s)", started, srv, state)
		}
		set.Close()
		cancel()
	}
}

// canonical is dir as requests spell it: symlinks resolved.
func canonical(t *testing.T, dir string) string {
	t.Helper()
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// probeState is the named driver's probe state in rep.
func probeState(rep *capabilities.Report, name string) capabilities.ProbeState {
	for _, d := range rep.Drivers {
		if d.Name == name {
			return d.State
		}
	}
	return ""
}

// TestStartEarlyProjects: a command that knows its files (Prepare) starts,
// beside the probe, the servers of their projects below the root (pyright
// in tools), which the request then uses; a project it does not name
// (lib) gets no server.
func TestStartEarlyProjects(t *testing.T) {
	needs(t, "pyright-langserver")
	isolateTrust(t)
	files := map[string]string{
		"tools/pyproject.toml": "[tool.pyright]\ntypeCheckingMode = \"strict\"\n",
		"tools/gen/scale.py":   "def scale(budget, factor: float) -> float:\n    return float(budget) * factor\n",
		"lib/pyproject.toml":   "[project]\nname = \"lib\"\n",
		"lib/util.py":          "X = 1\n",
	}
	root := canonical(t, testtree.New(t, files))
	generousTimeouts(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	set, _, err := LoadWith(ctx, root, Options{Probe: ProbeLazy})
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	set.StartEarly()
	set.Prepare(engine.Check, []string{"tools/gen/scale.py"})
	started, err := set.WaitStarts(ctx)
	if err != nil || !slices.Equal(started, []string{"pyright", "pyright (projects)"}) {
		t.Fatalf("early starts: %v, %v; want pyright's root and projects", started, err)
	}
	d := set.Drivers()["pyright"].(*lspdriver.Driver)
	srv := d.Server(filepath.Join(root, "tools"))
	if srv == nil || srv.PID() == 0 || srv.Starts() != 1 {
		t.Fatalf("before the first check, tools' pyright is not running: %v", srv)
	}
	if s := d.Server(filepath.Join(root, "lib")); s != nil {
		t.Errorf("lib, which no file named, has a server: %v", s)
	}
	pid := srv.PID()
	resp, err := set.Run(ctx, engine.Request{Kind: engine.Check, Root: root, Files: map[string]*text.Doc{"tools/gen/scale.py": text.FromString(files["tools/gen/scale.py"])}})
	if err != nil {
		t.Fatal(err)
	}
	strict := slices.ContainsFunc(resp.Diagnostics, func(dg engine.Diagnostic) bool {
		return strings.Contains(dg.Message, `Type annotation is missing for parameter "budget"`)
	})
	if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusOK || !strict {
		t.Fatalf("check: %+v %+v", resp.Drivers, resp.Diagnostics)
	}
	if srv.PID() != pid || srv.Starts() != 1 {
		t.Errorf("the check started another pyright in tools: pid %d then %d, %d starts", pid, srv.PID(), srv.Starts())
	}
}
