package drivers

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
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
	// load loads the set afresh and probes the language; ran says whether
	// the probe ran the tool (a found driver that ran nothing was answered
	// from the cache).
	load := func(what string) (state capabilities.ProbeState, ran bool) {
		t.Helper()
		before := runs()
		set, rep, err := LoadWith(context.Background(), root, Options{Probe: ProbeLazy, Cache: capabilities.OpenProbeCache(file)})
		if err != nil {
			t.Fatal(err)
		}
		defer set.Close()
		for _, d := range rep.Drivers {
			if d.State != capabilities.NotProbed && d.State != capabilities.Untrusted {
				t.Errorf("%s: a lazy load probed %s before it returned (%s)", what, d.Name, d.State)
			}
		}
		for _, d := range set.ProbeLanguages(context.Background(), []string{"notes"}).Drivers {
			if d.Name == "counted" {
				state = d.State
			}
		}
		return state, runs() != before
	}

	if st, ran := load("cold"); st != capabilities.Found || !ran {
		t.Fatalf("cold: state %s, ran the tool %v; want found, probed", st, ran)
	}
	if st, ran := load("warm"); st != capabilities.Found || ran {
		t.Fatalf("warm: state %s, ran the tool %v; want found from the cache, nothing run", st, ran)
	}

	// A changed binary is probed again.
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(tool, later, later); err != nil {
		t.Fatal(err)
	}
	if st, ran := load("changed"); st != capabilities.Found || !ran {
		t.Fatalf("after touching the tool: state %s, ran the tool %v; want probed again", st, ran)
	}

	// A corrupt file is ignored, and rewritten whole by the next probe.
	if err := os.WriteFile(file, []byte(`{"version": 1, "entries": [{"key": `), 0o644); err != nil {
		t.Fatal(err)
	}
	if st, ran := load("corrupt"); st != capabilities.Found || !ran {
		t.Fatalf("with a corrupt cache: state %s, ran the tool %v; want probed", st, ran)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !json.Valid(data) {
		t.Fatalf("the cache was not rewritten:\n%s", data)
	}
	if st, ran := load("rewritten"); st != capabilities.Found || ran {
		t.Fatalf("after the rewrite: state %s, ran the tool %v; want the cache's answer", st, ran)
	}
}
