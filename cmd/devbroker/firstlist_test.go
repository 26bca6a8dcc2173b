package main

// The first tools/list is complete: through the real binary and the Go
// SDK's client over stdio, the first listing after a start (no waiting
// for notifications/tools/list_changed) names every tool the root's
// languages will have, with a cold probe cache and a warm one, and no
// tool the probe does not find. A client that lists tools only once
// (Codex CLI) must see check.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	brokermcp "github.com/devbroker/devbroker/broker/mcp"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine/testtree"
)

// goRootTools are the tools a Go root has with gopls installed: format,
// lint, check and the language tools.
var goRootTools = []string{"format", "lint", "check", "definition", "references", "hover", "symbols", "rename", "code_actions"}

// languageTools are the tools only a language server serves.
var languageTools = []string{"definition", "references", "hover", "symbols", "rename", "code_actions"}

// firstStarts is how many times each test starts the server: a race
// between the first tools/list and the drivers' discovery shows in some
// starts only.
const firstStarts = 5

// firstList starts `devbroker serve --mcp --tools p` on root with env
// added, lists the tools once, right after initialize, and stops the
// server. It returns the names and how long the start took to that
// answer.
func firstList(t *testing.T, p brokermcp.Profile, root string, env []string) ([]string, time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.Command(devbrokerBin(t), "serve", "--mcp", "--root", root, "--tools", string(p))
	cmd.Env = append(os.Environ(), env...)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	c := sdk.NewClient(&sdk.Implementation{Name: "firstlist_test", Version: "1"}, nil)
	start := time.Now()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nserver logs:\n%s", err, logs)
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v\nserver logs:\n%s", err, logs)
	}
	took := time.Since(start)
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	return names, took
}

// missing lists the names of want that tools lacks.
func missing(tools, want []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(tools, w) {
			out = append(out, w)
		}
	}
	return out
}

// With gopls installed, the first tools/list of every start names format,
// lint, check and the six language tools of a Go root (those of them the
// tool profile offers: every tool the profile has), whether the probe
// cache is empty (a first start: each start gets its own empty
// XDG_CACHE_HOME) or holds every Go driver (written by devbroker probe);
// and those are exactly what the probe finds working. The full profile,
// which has them all, starts firstStarts times; the others twice.
func TestFirstListNamesEveryTool(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("gopls is not on PATH (make tools)")
	}
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain})
	warm := t.TempDir()
	probe := exec.Command(devbrokerBin(t), "probe", "--json", "--root", root)
	probe.Env = append(os.Environ(), "XDG_CACHE_HOME="+warm)
	out, err := probe.Output()
	if err != nil {
		t.Fatalf("devbroker probe: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(warm, "devbroker", "probe-cache.json")); err != nil {
		t.Fatalf("devbroker probe wrote no probe cache: %v", err)
	}
	var rep struct {
		Steps []string `json:"steps"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("devbroker probe --json: %v\n%s", err, out)
	}
	if m := missing(rep.Steps, goRootTools); len(m) > 0 {
		t.Fatalf("devbroker probe finds no working driver for %v on this machine: %v", m, rep.Steps)
	}
	for _, name := range configs.MCPTools {
		p := brokermcp.Profile(name)
		starts := 2
		if p == brokermcp.ProfileFull {
			starts = firstStarts
		}
		for _, cache := range []string{"cold", "warm"} {
			t.Run(string(p)+"/"+cache, func(t *testing.T) {
				for i := range starts {
					home := warm
					if cache == "cold" {
						home = t.TempDir()
					}
					tools, took := firstList(t, p, root, []string{"XDG_CACHE_HOME=" + home})
					t.Logf("start %d: first tools/list after %v: %v", i+1, took, tools)
					if m := missing(tools, untrustedTools(p)); len(m) > 0 {
						t.Errorf("start %d, %s probe cache: the first tools/list lacks %v: %v", i+1, cache, m, tools)
					}
				}
			})
		}
	}
}

// withoutGopls is the environment of a machine where gopls is not
// installed: PATH without the directories holding a gopls, and GOBIN an
// empty directory (gopls is looked for where go install puts it too).
func withoutGopls(t *testing.T) []string {
	var dirs []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if fi, err := os.Stat(filepath.Join(d, "gopls")); err == nil && !fi.IsDir() {
			continue
		}
		dirs = append(dirs, d)
	}
	env := []string{"PATH=" + strings.Join(dirs, string(filepath.ListSeparator)), "GOBIN=" + t.TempDir(), "XDG_CACHE_HOME=" + t.TempDir()}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	return env
}

// Without gopls, the first tools/list names what works: format
// (gofumpt), lint (staticcheck, go vet) and check, which go build and go
// vet serve in gopls's place as the default configuration says (check =
// ["gopls | go-build + go-vet"]), and no language tool. check finds the
// type error; a call to a language tool answers that gopls is missing
// and how to install it; and the list stays so once the probe has ended.
func TestFirstListWithoutGopls(t *testing.T) {
	root := testtree.New(t, map[string]string{
		"go.mod":  goModule,
		"main.go": "package main\n\nfunc main() {\n\tvar n int = \"one\"\n\tprintln(n)\n}\n",
	})
	env := withoutGopls(t)
	for i := range firstStarts {
		tools, took := firstList(t, brokermcp.ProfileFull, root, env)
		t.Logf("start %d: first tools/list after %v: %v", i+1, took, tools)
		if m := missing(tools, []string{"format", "lint", "check"}); len(m) > 0 {
			t.Errorf("start %d: the first tools/list lacks %v: %v", i+1, m, tools)
		}
		for _, name := range languageTools {
			if slices.Contains(tools, name) {
				t.Errorf("start %d: %s is listed without a language server: %v", i+1, name, tools)
			}
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	w, err := connectWatching(ctx, t, root, env, "--tools", "full") // the language tools as tools of their own
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	res := callTool(t, w.cs, "check", map[string]any{"paths": []string{"main.go"}})
	dr := decodeStructured[devResult](t, res)
	found := false
	for _, d := range dr.Diagnostics {
		if d.Path == "main.go" && d.Line == 4 && d.Severity == "error" && d.Source == "go-build" {
			found = true
		}
	}
	if !found {
		t.Errorf("check without gopls: no go-build error for main.go:4 in\n%s", resultText(res))
	}
	// The install hint is the embedded defaults' (a pinned version), said
	// once.
	def, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	install := "install: " + def.Drivers["gopls"].Install
	res = callTool(t, w.cs, "definition", map[string]any{"path": "main.go", "symbol": "main"})
	t.Logf("definition: %s", resultText(res))
	if msg := resultText(res); !res.IsError || !strings.Contains(msg, "gopls") || !strings.Contains(msg, install) || strings.Count(msg, "install: ") != 1 {
		t.Errorf("definition without gopls: isError %v, want the reason with %q, once:\n%s", res.IsError, install, msg)
	}
	// check has waited for the Go drivers' probes: the list is final.
	tools := listTools(t, w.cs)
	if !slices.Contains(tools, "check") || slices.ContainsFunc(languageTools, func(n string) bool { return slices.Contains(tools, n) }) {
		t.Errorf("after the probe: %v", tools)
	}
	// And a call once the probe has ended says why too.
	res = callTool(t, w.cs, "hover", map[string]any{"path": "main.go", "symbol": "main"})
	t.Logf("hover: %s", resultText(res))
	if msg := resultText(res); !res.IsError || !strings.Contains(msg, install) || strings.Count(msg, "install: ") != 1 {
		t.Errorf("hover without gopls after the probe: isError %v, want the reason with %q, once:\n%s", res.IsError, install, msg)
	}
}
