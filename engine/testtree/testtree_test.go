package testtree

import (
	"maps"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	files := map[string]string{"a.txt": "one\n", "d/e/f.go": "package f\n", ".hidden": ""}
	dir := New(t, files)
	Put(t, dir, "d/g.txt", "g")
	want := maps.Clone(files)
	want["d/g.txt"] = "g"
	if got := Read(t, dir); !maps.Equal(got, want) {
		t.Errorf("Read = %v, want %v", got, want)
	}
}
