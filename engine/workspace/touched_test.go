package workspace

import (
	"slices"
	"testing"
)

// TestWritePlanTouched: the paths a write touches are every rename's
// source and destination, every delete and every write, each once, sorted.
func TestWritePlanTouched(t *testing.T) {
	p := &writePlan{
		renames: []rename{{from: "b.go", to: "a/c.go"}},
		deletes: []string{"z.go", "b.go"},
		writes:  []string{"a/c.go", "m.go"},
	}
	want := []string{"a/c.go", "b.go", "m.go", "z.go"}
	if got := p.touched(); !slices.Equal(got, want) {
		t.Fatalf("touched() = %q, want %q", got, want)
	}
	if got := (&writePlan{}).touched(); len(got) != 0 {
		t.Fatalf("empty plan touched %q", got)
	}
}
