package drivers

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// countingConfig is a project whose linter is the tool script TOOL: every
// run of it (version command, smoke test) appends a line to runs beside
// it.
const countingConfig = `[languages.notes]
file_types = ["*.txt"]
lint = ["counted"]

[drivers.counted]
type = "external"
command = ["TOOL"]
version_command = ["TOOL", "--version"]
errorformat = ["%f:%l: %m"]
smoke = { file = "a.txt", content = "x" }
`

const countingTool = "#!/bin/sh\necho run >> \"$(dirname \"$0\")/runs\"\necho 1.0\n"

// A second load answers the probe of an unchanged tool from the cache,
// running nothing; a tool whose binary changed (its modification time)
// is probed again; a corrupt cache file is ignored and rewritten.
func TestProbeCache(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	tool := filepath.Join(dir, "tool")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".devbroker.toml"), []byte(strings.ReplaceAll(countingConfig, "TOOL", tool)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tool, []byte(countingTool), 0o755); err != nil {
		t.Fatal(err)
	}
	trustRoot(t, root)
	file := filepath.Join(t.TempDir(), "devbroker", "probe-cache.json")
	runs := func() int {
		b, _ := os.ReadFile(filepath.Join(dir, "runs"))
		return strings.Count(string(b), "run\n")
	}
	load := func(what string) (state capabilities.ProbeState, probes, hits int) {
		t.Helper()
		cache := capabilities.OpenProbeCache(file)
		set, rep, err := LoadWith(context.Background(), root, Options{Probe: ProbeLazy, Cache: cache})
		if err != nil {
			t.Fatal(err)
		}
		defer set.Close()
		for _, d := range set.ProbeLanguages(context.Background(), []string{"notes"}).Drivers {
			if d.Name == "counted" {
				state = d.State
			}
		}
		for _, d := range rep.Drivers {
			if d.State != capabilities.NotProbed && d.State != capabilities.Untrusted {
				t.Errorf("%s: a lazy load probed %s before it returned (%s)", what, d.Name, d.State)
			}
		}
		return state, set.Probes(), cache.Hits()
	}

	st, probes, hits := load("cold")
	if st != capabilities.Found || probes != 1 || hits != 0 || runs() == 0 {
		t.Fatalf("cold: state %s, %d probes, %d hits, %d runs; want found, probed, no hit", st, probes, hits, runs())
	}
	before := runs()
	st, probes, hits = load("warm")
	if st != capabilities.Found || probes != 0 || hits != 1 || runs() != before {
		t.Fatalf("warm: state %s, %d probes, %d hits, %d runs (was %d); want found from the cache, nothing run", st, probes, hits, runs(), before)
	}

	// A changed binary is probed again.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(tool, later, later); err != nil {
		t.Fatal(err)
	}
	if st, probes, hits = load("changed"); st != capabilities.Found || probes != 1 || hits != 0 || runs() == before {
		t.Fatalf("after touching the tool: state %s, %d probes, %d hits; want probed again", st, probes, hits)
	}

	// A corrupt file is ignored, and rewritten whole by the next probe.
	if err := os.WriteFile(file, []byte(`{"version": 1, "entries": [{"key": `), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, probes, _ = load("corrupt"); st != capabilities.Found || probes != 1 {
		t.Fatalf("with a corrupt cache: state %s, %d probes; want probed", st, probes)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := capabilities.ParseProbeCache(data); err != nil || !json.Valid(data) {
		t.Fatalf("the cache was not rewritten: %v\n%s", err, data)
	}
	if _, probes, hits = load("rewritten"); probes != 0 || hits != 1 {
		t.Fatalf("after the rewrite: %d probes, %d hits; want the cache's answer", probes, hits)
	}
}

// A refreshing cache (an explicit probe) runs every probe but records
// what it finds.
func TestProbeCacheRefresh(t *testing.T) {
	file := filepath.Join(t.TempDir(), "probe-cache.json")
	c := capabilities.OpenProbeCache(file)
	ids := []capabilities.FileID{{Path: "/bin/x", Size: 1, MTime: 2}}
	offers := []engine.Kind{engine.Check, engine.Definition}
	c.Refresh().Put("k", ids, capabilities.Probe{State: capabilities.Found, Version: "1", Offers: offers})
	if _, hit := c.Refresh().Get("k", ids); hit {
		t.Error("a refreshing view answered from the cache")
	}
	if p, hit := capabilities.OpenProbeCache(file).Get("k", ids); !hit || p.Version != "1" || !slices.Equal(p.Offers, offers) {
		t.Errorf("a new reader got %+v, %v; want the recorded probe, with what the server offers", p, hit)
	}
	c.Put("all", ids, capabilities.Probe{State: capabilities.Found})
	if p, hit := capabilities.OpenProbeCache(file).Get("all", ids); !hit || p.Offers != nil {
		t.Errorf("a probe offering every kind came back as %+v, %v", p, hit)
	}
	if _, hit := c.Get("k", []capabilities.FileID{{Path: "/bin/x", Size: 1, MTime: 3}}); hit {
		t.Error("a changed modification time hit the cache")
	}
	c.Put("bad", ids, capabilities.Probe{State: capabilities.Failed})
	if _, hit := c.Get("bad", ids); hit {
		t.Error("a failed probe was cached")
	}
}
