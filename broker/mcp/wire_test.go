package mcp

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// TestProbeTextIsTheReportsText: the probe tool's text is the report's one
// text form (what devbroker probe prints), then the tools, for every
// part of a report: an untrusted project file, and found, missing and
// untrusted drivers.
func TestProbeTextIsTheReportsText(t *testing.T) {
	r := &capabilities.Report{
		Drivers: []capabilities.DriverReport{
			{Name: "gopls", Type: "lsp", Kinds: []engine.Kind{engine.Check}, Probe: capabilities.Probe{State: capabilities.Found, Version: "gopls v1\nbuild info", Path: "/bin/gopls"}},
			{Name: "ruff", Type: "external", Kinds: []engine.Kind{engine.Lint}, Probe: capabilities.Probe{State: capabilities.Missing, Reason: "ruff is not on PATH"}},
			{Name: "prettier", Type: "external", Kinds: []engine.Kind{engine.Format}, Probe: capabilities.Probe{State: capabilities.Untrusted, Reason: "not trusted", Command: []string{"prettier", "--stdin-filepath", "{path}"}}},
		},
		Available: map[engine.Kind][]string{engine.Check: {"go"}},
		Project: &capabilities.ProjectTrust{File: "/r/.devbroker.toml", Reason: "run devbroker trust /r",
			Runs: []capabilities.ProjectRun{{Driver: "mark", Key: "command", Argv: []string{"sh", "-c", "x"}}}},
	}
	var cli strings.Builder
	if err := r.WriteText(&cli); err != nil {
		t.Fatal(err)
	}
	got := probeText(r, []string{"check", "probe"})
	if want := cli.String() + "tools: check, probe"; got != want {
		t.Fatalf("probe text:\n%s\nwant:\n%s", got, want)
	}
	for _, want := range []string{
		"/r/.devbroker.toml is not trusted: none of it applies",
		"\n  mark: command sh -c x\n",
		"gopls v1 ",
		"not trusted; it would run: prettier --stdin-filepath {path}\n",
		"\nformat: unavailable\n",
		"\ncheck: go\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("probe text lacks %q:\n%s", want, got)
		}
	}
}
