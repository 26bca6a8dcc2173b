package main

// Start-up tests through the real binary and the Go SDK's client: the
// server answers initialize and tools/list before the probe ends, within a
// client's start-up budget on a loaded machine; format, lint and check
// appear (with notifications/tools/list_changed) as their drivers are
// found; only the languages present under the root are probed.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	brokermcp "github.com/devbroker/devbroker/broker/mcp"
	"github.com/devbroker/devbroker/engine/testtree"
)

// startupBudget is the shortest start-up limit among the clients the
// README sets up (gemini mcp list gives up after 5 s).
const startupBudget = 5 * time.Second

// toolWatch is a client session and the tools/list_changed notifications
// it received.
type toolWatch struct {
	cs      *sdk.ClientSession
	changed chan struct{}
}

// connectWatching starts `devbroker serve --mcp` with env added to the
// environment and connects a client that records tools/list_changed,
// within ctx.
func connectWatching(ctx context.Context, t *testing.T, root string, env []string, extra ...string) (*toolWatch, error) {
	t.Helper()
	cmd := exec.Command(devbrokerBin(t), append([]string{"serve", "--mcp", "--root", root}, extra...)...)
	cmd.Env = append(os.Environ(), env...)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	w := &toolWatch{changed: make(chan struct{}, 1)}
	c := sdk.NewClient(&sdk.Implementation{Name: "startup_test", Version: "1"}, &sdk.ClientOptions{
		ToolListChangedHandler: func(context.Context, *sdk.ToolListChangedRequest) {
			select {
			case w.changed <- struct{}{}:
			default: // one pending notification says enough: list again
			}
		},
	})
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Logf("server logs:\n%s", logs)
		return nil, err
	}
	w.cs = cs
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("server logs:\n%s", logs)
		}
	})
	return w, nil
}

// waitTools lists the tools until ok accepts them, waiting for a
// tools/list_changed notification between listings; it fails the test
// when ctx ends first.
func (w *toolWatch) waitTools(ctx context.Context, t *testing.T, ok func(tools []string) bool) []string {
	t.Helper()
	for {
		tools := listTools(t, w.cs)
		if ok(tools) {
			return tools
		}
		select {
		case <-w.changed:
		case <-ctx.Done():
			t.Fatalf("the tools never became what the test waits for: %v (last list %v)", ctx.Err(), tools)
		}
	}
}

// connectSettled connects to a server on root and waits until it
// advertises format, lint and check exactly as `devbroker probe` finds
// them: the probe of the root's languages, which runs in the background,
// has ended.
func connectSettled(t *testing.T, root string, extra ...string) *sdk.ClientSession {
	t.Helper()
	avail := probeAvailable(t, root)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	w, err := connectWatching(ctx, t, root, nil, extra...)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	p := brokermcp.ProfileDefault
	if i := slices.Index(extra, "--tools"); i >= 0 && i+1 < len(extra) {
		p = brokermcp.Profile(extra[i+1])
	}
	w.waitTools(ctx, t, func(tools []string) bool {
		for _, k := range []string{"format", "lint", "check"} {
			if p.Offers(k) && slices.Contains(tools, k) != avail[k] {
				return false
			}
		}
		return true
	})
	return w.cs
}

// loadMachine keeps every CPU busy until the test ends.
func loadMachine(t *testing.T) {
	var stop atomic.Bool
	t.Cleanup(func() { stop.Store(true) })
	for range runtime.NumCPU() * 2 {
		go func() {
			n := 0
			for !stop.Load() {
				n++
			}
			_ = n
		}()
	}
}

// A fresh root holding a Go module, a cold probe cache and a loaded
// machine: connect, initialize and tools/list answer within the start-up
// budget; check appears when its driver is found, and finds gopls's
// diagnostic.
func TestStartupWithinBudget(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("gopls is not on PATH (make tools)")
	}
	root := testtree.New(t, map[string]string{
		"go.mod":  goModule,
		"main.go": "package main\n\nfunc main() {\n\tvar n int = \"one\"\n\tprintln(n)\n}\n",
	})
	env := []string{"XDG_CACHE_HOME=" + t.TempDir()}
	loadMachine(t)
	ctx, cancel := context.WithTimeout(context.Background(), startupBudget)
	start := time.Now()
	w, err := connectWatching(ctx, t, root, env)
	if err != nil {
		cancel()
		t.Fatalf("connect and initialize within %v: %v", startupBudget, err)
	}
	tools, err := w.cs.ListTools(ctx, nil)
	cancel()
	if err != nil {
		t.Fatalf("tools/list within %v of the start: %v", startupBudget, err)
	}
	t.Logf("connect+initialize+tools/list: %v, %d tools", time.Since(start), len(tools.Tools))

	wait, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	w.waitTools(wait, t, func(tools []string) bool { return slices.Contains(tools, "check") })
	res := callTool(t, w.cs, "check", map[string]any{"paths": []string{"main.go"}})
	dr := decodeStructured[devResult](t, res)
	for _, d := range dr.Diagnostics {
		if d.Source == "gopls" && d.Path == "main.go" && d.Line == 4 && d.Severity == "error" {
			return
		}
	}
	t.Fatalf("no gopls error for main.go:4 in\n%s", resultText(res))
}

// goDrivers are the default configuration's drivers of Go.
var goDrivers = []string{"gofumpt", "staticcheck", "go-vet", "go-build", "gopls"}

// In a root holding only Go files, no driver of another language is
// probed: not by the probe command, not by the server (whose re-probe
// covers the languages its drivers were asked for).
func TestGoRootProbesOnlyGo(t *testing.T) {
	root := testtree.New(t, map[string]string{"go.mod": goModule, "main.go": goMain, "notes.txt": "not a language\n"})
	probed := func(what string, report []byte) {
		t.Helper()
		var rep struct {
			Drivers []struct {
				Name  string `json:"name"`
				State string `json:"state"`
			} `json:"drivers"`
		}
		if err := json.Unmarshal(report, &rep); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		var others []string
		for _, d := range rep.Drivers {
			if !slices.Contains(goDrivers, d.Name) && d.State != "not_probed" && d.State != "untrusted" {
				others = append(others, d.Name+" "+d.State)
			}
			if slices.Contains(goDrivers, d.Name) && d.State == "not_probed" {
				t.Errorf("%s: %s was not probed in a Go module", what, d.Name)
			}
		}
		if len(others) > 0 || len(rep.Drivers) <= len(goDrivers) {
			t.Errorf("%s probed drivers of other languages: %v (of %d drivers)", what, others, len(rep.Drivers))
		}
	}
	out, err := exec.Command(devbrokerBin(t), "probe", "--json", "--root", root).Output()
	if err != nil {
		t.Fatalf("probe: %v", err)
	}
	probed("devbroker probe", out)

	cs := connectSettled(t, root)
	res := callTool(t, cs, "probe", map[string]any{})
	b, _ := json.Marshal(res.StructuredContent)
	probed("the probe tool", b)
	if !strings.Contains(resultText(res), "not_probed") {
		t.Errorf("the probe tool's text does not show what was not probed:\n%s", resultText(res))
	}
}
