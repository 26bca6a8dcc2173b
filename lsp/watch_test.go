package lsp

import (
	"context"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func mkfile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// settled waits for the barrier and returns what the watcher collected.
func settled(t *testing.T, w *watcher) (map[string]bool, bool) {
	t.Helper()
	if err := w.barrier(context.Background()); err != nil {
		t.Fatal(err)
	}
	return w.take()
}

func TestWatcher(t *testing.T) {
	if !watchable {
		t.Skip("no disk watcher on this platform")
	}
	root, outside := t.TempDir(), t.TempDir()
	mkfile(t, filepath.Join(root, "a/a.go"), "package a\n")
	mkfile(t, filepath.Join(root, ".git/HEAD"), "ref: x\n")
	mkfile(t, filepath.Join(root, "node_modules/x/i.js"), "x\n")
	mkfile(t, filepath.Join(outside, "o.go"), "package o\n")
	w, err := newWatcher(root, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer w.close()
	if got, _ := settled(t, w); len(got) != 0 {
		t.Fatalf("nothing changed yet: got %v", got)
	}
	a := filepath.Join(root, "a/a.go")
	steps := []struct {
		name string
		do   func()
		want map[string]bool
	}{
		{"change", func() { mkfile(t, a, "package a\n\nvar X = 1\n") }, map[string]bool{a: false}},
		{"create", func() { mkfile(t, filepath.Join(root, "a/n.go"), "package a\n") }, map[string]bool{filepath.Join(root, "a/n.go"): true}},
		{"delete", func() { _ = os.Remove(filepath.Join(root, "a/n.go")) }, map[string]bool{filepath.Join(root, "a/n.go"): false}},
		{"new directories", func() { mkfile(t, filepath.Join(root, "c/d/c.go"), "package d\n") }, map[string]bool{
			filepath.Join(root, "c"): true, filepath.Join(root, "c/d"): true, filepath.Join(root, "c/d/c.go"): true,
		}},
		{"in a new directory", func() { mkfile(t, filepath.Join(root, "c/d/e.go"), "package d\n") }, map[string]bool{filepath.Join(root, "c/d/e.go"): true}},
		{"skipped directories", func() {
			mkfile(t, filepath.Join(root, ".git/HEAD"), "ref: y\n")
			mkfile(t, filepath.Join(root, "node_modules/x/i.js"), "y\n")
			mkfile(t, filepath.Join(root, "c/.git/config"), "y\n")
		}, nil},
		{"outside the root", func() {
			if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
				t.Fatal(err)
			}
			mkfile(t, filepath.Join(outside, "o.go"), "package o\n\nvar O = 1\n")
			mkfile(t, filepath.Join(outside, "p.go"), "package o\n")
		}, map[string]bool{filepath.Join(root, "out"): true}},
	}
	for _, st := range steps {
		st.do()
		got, all := settled(t, w)
		// Writes also report the directory's own entries; compare files.
		if all || !maps.Equal(got, st.want) {
			t.Fatalf("%s: got %v (all %v), want %v", st.name, got, all, st.want)
		}
	}
	// The link that leaves the root is never reported to the server.
	s := NewServer(Config{Name: "test", Root: root})
	in := &instance{cfg: &s.cfg, watchRegs: map[string][]fileWatcher{}}
	ev, _ := s.fileEvents(in, map[string]bool{filepath.Join(root, "out"): true, filepath.Join(root, "out/o.go"): false, a: false})
	if len(ev) != 1 || ev[0].URI != URI(a) || ev[0].Type != fileChanged {
		t.Fatalf("events = %v, want only a.go changed", ev)
	}
	// A directory moved away: its subdirectories are no longer watched.
	if err := os.Rename(filepath.Join(root, "c"), filepath.Join(outside, "c")); err != nil {
		t.Fatal(err)
	}
	if got, _ := settled(t, w); !slices.Equal(slices.Sorted(maps.Keys(got)), []string{filepath.Join(root, "c")}) {
		t.Fatalf("moved away: got %v", got)
	}
	mkfile(t, filepath.Join(outside, "c/d/f.go"), "package d\n")
	if got, _ := settled(t, w); len(got) != 0 {
		t.Fatalf("after the move, a change outside was reported: %v", got)
	}
}

func TestWatcherMatches(t *testing.T) {
	root := "/r"
	ws := fileWatchers([]byte(`{"watchers":[
		{"globPattern":"/r/**/*.{go,mod}"},
		{"globPattern":"/r/dir","kind":4},
		{"globPattern":{"baseUri":"file:///r/sub","pattern":"*.txt"}},
		{"globPattern":{"baseUri":{"uri":"file:///r/wf","name":"wf"},"pattern":"**/*.py"}},
		{"globPattern":"**/*.rs"},
		{"globPattern":42}
	]}`))
	if len(ws) != 5 {
		t.Fatalf("decoded %d watchers, want 5: %+v", len(ws), ws)
	}
	cases := []struct {
		p    string
		typ  int
		want bool
	}{
		{"/r/a/b.go", fileChanged, true},
		{"/r/go.mod", fileCreated, true},
		{"/r/a/b.txt", fileChanged, false},
		{"/r/dir", fileDeleted, true},
		{"/r/dir", fileCreated, false},
		{"/r/sub/x.txt", fileChanged, true},
		{"/r/sub/y/x.txt", fileChanged, false},
		{"/r/wf/a/b.py", fileDeleted, true},
		{"/r/x/y.rs", fileChanged, true},
	}
	for _, c := range cases {
		got := false
		for _, fw := range ws {
			got = got || fw.matches(root, c.p, c.typ)
		}
		if got != c.want {
			t.Errorf("%s (type %d): matched %v, want %v", c.p, c.typ, got, c.want)
		}
	}
}

func FuzzFileWatchers(f *testing.F) {
	f.Add([]byte(`{"watchers":[{"globPattern":"/r/**/*.go","kind":7},{"globPattern":{"baseUri":"file:///r","pattern":"*"}}]}`), "/r/a.go")
	f.Add([]byte(`{"watchers":[{"globPattern":"[","kind":-1}]}`), "/r/[")
	f.Fuzz(func(t *testing.T, raw []byte, p string) {
		for _, fw := range fileWatchers(raw) {
			for _, typ := range []int{fileCreated, fileChanged, fileDeleted} {
				_ = fw.matches("/r", p, typ)
			}
		}
	})
}
