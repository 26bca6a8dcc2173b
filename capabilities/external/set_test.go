package external

import (
	"context"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// TestThroughSet runs the default shell toolchain through capabilities.Set:
// probe (shfmt may be missing; shellcheck must work), routing, lint.
func TestThroughSet(t *testing.T) {
	defaultDriver(t, "shellcheck", "") // fails the test if shellcheck is missing
	all := defaults(t)
	cfg := &configs.Config{
		Languages: map[string]*configs.Language{"shell": all.Languages["shell"]},
		Drivers:   all.Drivers,
	}
	root := t.TempDir()
	set, err := capabilities.NewSet(cfg, []capabilities.Type{Type}, root)
	if err != nil {
		t.Fatal(err)
	}
	rep := set.Probe(context.Background())
	for _, d := range rep.Drivers {
		if d.Name == "shellcheck" && d.State != capabilities.Found {
			t.Fatalf("shellcheck: %+v", d)
		}
		if d.State == capabilities.Missing && d.Reason == "" {
			t.Errorf("%s is missing with no reason", d.Name)
		}
	}
	if !set.Has(engine.Lint) {
		t.Fatal("lint not advertised")
	}
	resp, err := set.Run(context.Background(), engine.Request{
		Kind: engine.Lint, Root: root,
		Files: map[string]*text.Doc{"a.sh": text.FromString("#!/bin/bash\nrm -rf $DIR/*\n"), "notes.txt": text.FromString("x\n")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(resp.Drivers) != 1 || resp.Drivers[0].Status != engine.StatusOK {
		t.Fatalf("statuses %+v", resp.Drivers)
	}
	var codes []string
	for _, dg := range resp.Diagnostics {
		if dg.Path == "a.sh" {
			codes = append(codes, dg.Code)
		}
	}
	if len(codes) == 0 {
		t.Errorf("no shellcheck findings: %+v", resp.Diagnostics)
	}
}
