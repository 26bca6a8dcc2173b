package broker

import (
	"strings"
	"testing"
)

// TestBuildVersion: a stamped version wins; a build that knows nothing
// says so and how to stamp one (it printed "(devel)").
func TestBuildVersion(t *testing.T) {
	saved := Stamped
	t.Cleanup(func() { Stamped = saved })
	Stamped = "v9.9.9"
	if b := ReadBuild(); b.Version != "v9.9.9" || !strings.HasPrefix(b.String(), "v9.9.9") {
		t.Errorf("stamped: %+v %q", b, b.String())
	}
	if s := (Build{Version: "devel"}).String(); !strings.Contains(s, "Stamped=VERSION") || strings.Contains(s, "(devel)") {
		t.Errorf("unknown build: %q", s)
	}
	if s := (Build{Version: "v0.0.0-20261204-abc", Commit: "0123456789abcdef", Modified: true}).String(); s != "v0.0.0-20261204-abc (commit 0123456789ab, modified)" {
		t.Errorf("checkout build: %q", s)
	}
}
