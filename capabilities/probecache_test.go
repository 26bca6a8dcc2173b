package capabilities

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/engine"
)

// A refreshing cache (an explicit probe) runs every probe but records
// what it finds.
func TestProbeCacheRefresh(t *testing.T) {
	file := filepath.Join(t.TempDir(), "probe-cache.json")
	c := OpenProbeCache(file)
	ids := []fileID{{Path: "/bin/x", Size: 1, MTime: 2}}
	offers := []engine.Kind{engine.Check, engine.Definition}
	c.Refresh().put("k", ids, Probe{State: Found, Version: "1", Offers: offers})
	if _, hit := c.Refresh().get("k", ids); hit {
		t.Error("a refreshing view answered from the cache")
	}
	if p, hit := OpenProbeCache(file).get("k", ids); !hit || p.Version != "1" || !slices.Equal(p.Offers, offers) {
		t.Errorf("a new reader got %+v, %v; want the recorded probe, with what the server offers", p, hit)
	}
	c.put("all", ids, Probe{State: Found})
	if p, hit := OpenProbeCache(file).get("all", ids); !hit || p.Offers != nil {
		t.Errorf("a probe offering every kind came back as %+v, %v", p, hit)
	}
	if _, hit := c.get("k", []fileID{{Path: "/bin/x", Size: 1, MTime: 3}}); hit {
		t.Error("a changed modification time hit the cache")
	}
	c.put("bad", ids, Probe{State: Failed})
	if _, hit := c.get("bad", ids); hit {
		t.Error("a failed probe was cached")
	}
}
