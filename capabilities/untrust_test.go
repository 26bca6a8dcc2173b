package capabilities_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

// An untrusted driver is reported untrusted, with its command, and is not
// probed, while the other drivers are probed concurrently (run with -race:
// the probe must not read its results while the probes write them).
func TestProbeSkipsUntrustedDrivers(t *testing.T) {
	var fakes []*fake
	for i := range 16 {
		fakes = append(fakes, &fake{name: fmt.Sprintf("d%02d", i), kinds: []engine.Kind{engine.Lint}})
	}
	s := newFakeSet(t, fakes...)
	s.Untrust("d07", capabilities.Probe{Reason: "not trusted", Command: []string{"sh"}})
	for range 20 {
		rep := s.Probe(context.Background())
		for _, d := range rep.Drivers {
			want := capabilities.Found
			if d.Name == "d07" {
				want = capabilities.Untrusted
			}
			if d.State != want {
				t.Fatalf("driver %s: state %q, want %q", d.Name, d.State, want)
			}
		}
	}
}
