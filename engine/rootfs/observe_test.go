package rootfs

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestObserver(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.WriteFile(filepath.Join(dir, "target.go"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("target.go", filepath.Join(dir, "link.go")); err != nil {
		t.Fatal(err)
	}
	base, err := New(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got [][]string
	f := base.WithObserver(func(paths []string) { got = append(got, slices.Clone(paths)) })
	abs := func(ps ...string) []string {
		var out []string
		for _, p := range ps {
			out = append(out, filepath.Join(dir, p))
		}
		return out
	}
	steps := []struct {
		name string
		do   func() error
		want []string
	}{
		{"write a new file", func() error { return f.WriteFile("a/n.go", []byte("n")) }, abs("a/n.go")},
		{"write through a link", func() error { return f.WriteFile("link.go", []byte("y")) }, abs("target.go", "link.go")},
		{"rename", func() error { return f.Rename("a/n.go", "b/m.go") }, abs("a/n.go", "b/m.go")},
		{"remove", func() error { return f.Remove("b/m.go") }, abs("b/m.go")},
		{"a refused write", func() error { return f.WriteFile("../x.go", nil) }, nil},
		{"a write its check refuses", func() error {
			return f.WriteFileIf("target.go", nil, func([]byte, bool) error { return errors.New("no") })
		}, nil},
	}
	for _, st := range steps {
		got = nil
		err := st.do()
		if (err != nil) != (st.want == nil) {
			t.Fatalf("%s: err %v", st.name, err)
		}
		var flat []string
		for _, g := range got {
			flat = append(flat, g...)
		}
		if !slices.Equal(flat, st.want) {
			t.Errorf("%s: observed %v, want %v", st.name, flat, st.want)
		}
	}
	// The FS it was made from observes nothing.
	got = nil
	if err := base.WriteFile("c.go", nil); err != nil || got != nil {
		t.Fatalf("base: err %v, observed %v", err, got)
	}
}
