package staticcheck

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// diskDocs reads every file under root, as the command line's workspace
// holds them: content equal to the disk.
func diskDocs(t testing.TB, root string) map[string]*text.Doc {
	t.Helper()
	all := map[string]*text.Doc{}
	for p, c := range testtree.Read(t, root) {
		doc, err := text.Parse([]byte(c))
		if err != nil {
			t.Fatal(err)
		}
		all[p] = doc
	}
	return all
}

// staged reports whether d made a stage for root on disk.
func staged(t testing.TB, d *Driver, root string) bool {
	t.Helper()
	st, err := newStage(root)
	if err != nil {
		t.Fatal(err)
	}
	_, err = os.Stat(st.dir)
	return err == nil
}

// TestUnstagedParity: on a real module whose workspace equals the disk,
// the run lints the module in place (no stage is made) and its findings
// are the staged run's, which sees one file as changed (with the same
// content).
func TestUnstagedParity(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: lints a whole module twice")
	}
	root := copyModule(t, parityModule)
	// Some of its dependencies are not in the module cache: with
	// -mod=mod, in place would hand those packages to the stage.
	t.Setenv("GOFLAGS", "-mod=readonly")
	files := goFiles(t, root)
	all := diskDocs(t, root)
	direct := newDriver(t)
	got := brief(runLint(t, direct, &capabilities.Request{Root: root, Files: files, All: all}))
	if staged(t, direct, root) {
		t.Fatalf("the workspace equals the disk, yet the module was staged")
	}
	stagedRun := newDriver(t)
	want := brief(runLint(t, stagedRun, &capabilities.Request{Root: root, Files: files, All: all, Changed: files[:1]}))
	if !staged(t, stagedRun, root) {
		t.Fatalf("a changed Go file did not make a stage")
	}
	if len(want) < 3 || !equal(got, want) {
		t.Errorf("in place and staged differ\nin place (%d):\n%s\nstaged (%d):\n%s", len(got), join(got), len(want), join(want))
	}
	t.Logf("%d findings, equal", len(want))
}

// TestUnstagedOnlyWhenTheDiskHoldsTheWorkspace: a changed Go file, go.mod
// or staticcheck.conf, a deleted file, a file only in the workspace, or a
// symlink that leaves the root makes the run staged; a changed file no
// package loads does not.
func TestUnstagedOnlyWhenTheDiskHoldsTheWorkspace(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	testtree.Write(t, base, map[string]string{"outside/x.txt": "outside\n"})
	files := map[string]string{"go.mod": goMod, "a.go": dead, "README.md": "hi\n", "sub/staticcheck.conf": "checks = [\"all\"]\n"}
	cases := []struct {
		name             string
		changed, deleted []string
		extra            map[string]string // workspace only
		link             string            // a symlink at this path to outside/x.txt
		want             bool              // staged
	}{
		{name: "disk"},
		{name: "changed readme", changed: []string{"README.md"}},
		{name: "changed go file", changed: []string{"a.go"}, want: true},
		{name: "changed go.mod", changed: []string{"go.mod"}, want: true},
		{name: "changed staticcheck.conf", changed: []string{"sub/staticcheck.conf"}, want: true},
		{name: "deleted", deleted: []string{"README.md"}, want: true},
		{name: "new file", extra: map[string]string{"notes.txt": "x\n"}, changed: []string{"notes.txt"}, want: true},
		{name: "unlisted new go file", extra: map[string]string{"b.go": "package m\n"}, want: true},
		{name: "link leaving the root", link: "data/x.txt", want: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(base, strings.ReplaceAll(c.name, " ", "-"))
			testtree.Write(t, root, files)
			if c.link != "" {
				os.MkdirAll(filepath.Join(root, filepath.Dir(c.link)), 0o777)
				if err := os.Symlink(filepath.Join(base, "outside/x.txt"), filepath.Join(root, c.link)); err != nil {
					t.Fatal(err)
				}
			}
			all := diskDocs(t, root)
			delete(all, c.link) // the workspace never holds what leaves the root
			for p, c := range c.extra {
				all[p] = text.FromString(c)
			}
			d := newDriver(t)
			ds := runLint(t, d, &capabilities.Request{Root: root, Files: []string{"a.go"}, All: all, Changed: c.changed, Deleted: c.deleted})
			if !has(ds, "a.go", 5, "SA4006") {
				t.Errorf("a.go's finding missing:\n%s", codes(ds))
			}
			if got := staged(t, d, root); got != c.want {
				t.Errorf("staged = %v, want %v", got, c.want)
			}
		})
	}
}

// TestUnstagedLeavesGoModAlone: in place, the go command never updates
// go.mod or go.sum, even when GOFLAGS asks for -mod=mod.
func TestUnstagedLeavesGoModAlone(t *testing.T) {
	root := t.TempDir()
	mod := "module example.com/m\n" // no go line: -mod=mod would add one
	testtree.Write(t, root, map[string]string{"go.mod": mod, "a.go": dead})
	ds := runLint(t, newDriver(t), &capabilities.Request{Root: root, Files: []string{"a.go"}, All: diskDocs(t, root)})
	if !has(ds, "a.go", 5, "SA4006") {
		t.Errorf("a.go's finding missing:\n%s", codes(ds))
	}
	if got := testtree.Read(t, root); got["go.mod"] != mod || len(got) != 2 {
		t.Errorf("the module on disk changed: %q", got)
	}
}

// TestBuildIgnoredFile: a file that build constraints exclude (alone in
// its directory, or beside others) gets no findings and no error, staged
// or not, and no answer names the stage.
func TestBuildIgnoredFile(t *testing.T) {
	root := t.TempDir()
	gen := "//go:build ignore\n\n" + deadIn("main", "G", "")
	testtree.Write(t, root, map[string]string{"go.mod": goMod, "a.go": clean, "gen.go": gen, "tools/gen.go": gen})
	d := newDriver(t)
	for _, changed := range [][]string{nil, {"tools/gen.go"}} {
		r := d.Run(context.Background(), &capabilities.Request{Kind: engine.Lint, Root: root, Files: []string{"gen.go", "tools/gen.go"}, All: diskDocs(t, root), Changed: changed})
		if r.Status != engine.StatusOK || len(r.Diagnostics) != 0 {
			t.Errorf("changed %q: status %s (%s), want ok and nothing:\n%s", changed, r.Status, r.Message, codes(r.Diagnostics))
		}
	}
}

// TestNoStagePathInAnswers: a load error that names a directory names the
// module's, never the stage's.
func TestNoStagePathInAnswers(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"go.mod": goMod, "a.go": clean})
	d := newDriver(t)
	r := d.Run(context.Background(), &capabilities.Request{Kind: engine.Lint, Root: root, Files: []string{"a.go", "gone/b.go"}, All: docs(map[string]string{"a.go": dead}), Changed: []string{"a.go"}})
	st, err := newStage(root)
	if err != nil {
		t.Fatal(err)
	}
	if !staged(t, d, root) {
		t.Fatal("not staged")
	}
	for _, dg := range r.Diagnostics {
		t.Logf("%+v", dg)
		if strings.Contains(dg.Message, st.dir) || strings.Contains(dg.Path, st.dir) {
			t.Errorf("the answer names the stage: %+v", dg)
		}
	}
	if strings.Contains(r.Message, st.dir) {
		t.Errorf("the message names the stage: %s", r.Message)
	}
}
