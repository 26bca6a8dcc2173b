package lsp

import (
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// scanOnce runs one scan and fails the test on a problem.
func scanOnce(t *testing.T, tr *tracker) map[string]bool {
	t.Helper()
	changes, problem := tr.scan()
	if problem != "" {
		t.Fatalf("scan: %s", problem)
	}
	return changes
}

// stateOf is the file at p as the tracker's last scan found it (nil
// when it did not); the test may change it.
func stateOf(t *testing.T, tr *tracker, p string) *fileState {
	t.Helper()
	if ds := tr.state.dirs[filepath.Dir(p)]; ds != nil {
		for i := range ds.ents {
			if e := &ds.ents[i]; e.path == p && e.found {
				return &e.state
			}
		}
	}
	t.Fatalf("the last scan did not find %s", p)
	return nil
}

// writeSameTick writes content to the file at p as if in the timestamp
// tick of the tracker's last scan: the stamp that scan kept for it is
// made the one it has now.
func writeSameTick(t *testing.T, tr *tracker, p, content string) {
	t.Helper()
	mkfile(t, p, content)
	self, err := statStamp(p, false)
	if err != nil {
		t.Fatal(err)
	}
	stateOf(t, tr, p).self = self
}

// TestScanFindsChanges: the check of the inputs finds by metadata what no
// event may report: an edit, a write of the same size, a write through a
// hard link elsewhere, a mode change, a removal, a file in a new
// directory, files under node_modules; never what changes in VCS
// metadata. The first scan is the baseline.
func TestScanFindsChanges(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	a, b := filepath.Join(root, "a/a.go"), filepath.Join(root, "b.go")
	nm := filepath.Join(root, "node_modules/x/x.go")
	mkfile(t, a, "package a\n")
	mkfile(t, b, "package m\n")
	mkfile(t, nm, "package x\n")
	mkfile(t, filepath.Join(root, ".git/HEAD"), "ref\n")
	elsewhere := filepath.Join(base, "elsewhere.go")
	if err := os.Link(b, elsewhere); err != nil {
		t.Fatal(err)
	}
	tr := newTracker(&Config{Root: root})
	if c := scanOnce(t, tr); len(c) != 0 {
		t.Fatalf("the baseline reported %v", c)
	}
	steps := []struct {
		name string
		do   func()
		want map[string]bool
	}{
		{"nothing", func() {}, map[string]bool{}},
		{"the same size", func() { mkfile(t, a, "package b\n") }, map[string]bool{a: false}},
		{"through a hard link", func() { mkfile(t, elsewhere, "package n\n") }, map[string]bool{b: false}},
		{"mode", func() { _ = os.Chmod(b, 0o600) }, map[string]bool{b: false}},
		{"in node_modules", func() { mkfile(t, nm, "package y\n") }, map[string]bool{nm: false}},
		{"VCS metadata", func() { mkfile(t, filepath.Join(root, ".git/HEAD"), "ref: x\n") }, map[string]bool{}},
		{"a new directory", func() { mkfile(t, filepath.Join(root, "c/d/e.go"), "package d\n") }, map[string]bool{filepath.Join(root, "c/d/e.go"): true}},
		{"removed", func() { _ = os.RemoveAll(filepath.Join(root, "c")) }, map[string]bool{filepath.Join(root, "c/d/e.go"): false}},
	}
	if runtime.GOOS == "windows" {
		steps = steps[:2] // no hard link mode bits to speak of
	}
	for _, st := range steps {
		st.do()
		if got := scanOnce(t, tr); !maps.Equal(got, st.want) {
			t.Fatalf("%s: changes %v, want %v", st.name, got, st.want)
		}
	}
}

// TestScanRacy: a write in the same timestamp tick as the scan before,
// of the same size, leaves every stamp equal; the content hash taken
// while the stamp was racy finds it. Once the stamps are older than the
// window, no hash is kept.
func TestScanRacy(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	a := filepath.Join(root, "a.go")
	mkfile(t, a, "package a\n")
	tr := newTracker(&Config{Root: root})
	scanOnce(t, tr)
	if stateOf(t, tr, a).sum == 0 {
		t.Fatal("a file written just now was not hashed")
	}
	writeSameTick(t, tr, a, "package b\n")
	if got := scanOnce(t, tr); !maps.Equal(got, map[string]bool{a: false}) {
		t.Fatalf("a same-tick write: changes %v, want a.go", got)
	}
	// The stamps settle: the last hash decides once more, then none is
	// kept, and an unchanged file is no change.
	tr.window = 0
	if got := scanOnce(t, tr); len(got) != 0 || stateOf(t, tr, a).sum != 0 {
		t.Fatalf("settled: changes %v, hash %x; want none and no hash kept", got, stateOf(t, tr, a).sum)
	}
	tr.window = racyWindow
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(a, old, old); err != nil {
		t.Fatal(err)
	}
	scanOnce(t, tr)
	if runtime.GOOS != "linux" && runtime.GOOS != "darwin" {
		return // no change time: the stamp is settled by the old mtime alone
	}
	// The change time is now (Chtimes changes it): still racy.
	if stateOf(t, tr, a).sum == 0 {
		t.Fatal("a file whose change time is recent was not hashed")
	}
}

// TestScanSymlinks: a change of a symlink's target is a change of the
// link; a change under the target of a directory symlink inside the root
// is reported under the link's path too; a link that dangles is a change.
// So too with every stamp settled, where the listings of the directories
// whose stamps stay the same (the link's, the root's) are kept.
func TestScanSymlinks(t *testing.T) {
	for _, window := range []time.Duration{racyWindow, 0} {
		t.Run(window.String(), func(t *testing.T) { scanSymlinks(t, window) })
	}
}

func scanSymlinks(t *testing.T, window time.Duration) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	target, dir := filepath.Join(root, "dep/dep.go"), filepath.Join(root, "dep")
	mkfile(t, target, "package dep\n")
	if err := os.MkdirAll(filepath.Join(root, "pkg2"), 0o755); err != nil {
		t.Fatal(err)
	}
	link, dirLink := filepath.Join(root, "pkg2/dep.go"), filepath.Join(root, "alias")
	if err := os.Symlink("../dep/dep.go", link); err != nil {
		t.Skipf("no symlinks: %v", err)
	}
	if err := os.Symlink("dep", dirLink); err != nil {
		t.Fatal(err)
	}
	tr := newTracker(&Config{Root: root})
	tr.window = window
	scanOnce(t, tr)
	mkfile(t, target, "package dep\n\nvar X = 1\n")
	want := map[string]bool{target: false, link: false, filepath.Join(dirLink, "dep.go"): false}
	if got := scanOnce(t, tr); !maps.Equal(got, want) {
		t.Fatalf("target written: changes %v, want %v", got, want)
	}
	// The directory changes now, maybe in the tick of its last change:
	// unsettled, as its stamp would be were the window not 0.
	tr.state.dirs[dir].settled = false
	if err := os.Rename(target, filepath.Join(dir, "moved.go")); err != nil {
		t.Fatal(err)
	}
	got := scanOnce(t, tr)
	for _, p := range []string{target, link, filepath.Join(dirLink, "dep.go"), filepath.Join(dir, "moved.go"), filepath.Join(dirLink, "moved.go")} {
		if _, ok := got[p]; !ok {
			t.Errorf("target renamed away: %s not reported (changes %v)", p, got)
		}
	}
}

// TestScanCap: a check over more inputs than the cap verifies nothing and
// says so, reporting no change (it cannot tell what is gone); the first
// check within the cap again reports every file.
func TestScanCap(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, p := range []string{"a.go", "b/b.go", "b/c.go"} {
		mkfile(t, filepath.Join(root, p), "package x\n")
	}
	s := NewServer(Config{Name: "test", Root: root, NoWatch: true})
	scanOnce(t, s.track)
	s.track.max = 3
	changes, problem := s.track.scan()
	if len(changes) != 0 || !strings.Contains(problem, "more than 3") || s.Unverified() == "" || s.track.verified() {
		t.Fatalf("over the cap: changes %v, problem %q, Unverified %q", changes, problem, s.Unverified())
	}
	s.track.max = MaxInputs
	changes, problem = s.track.scan()
	if problem != "" || len(changes) != 3 || !s.track.verified() {
		t.Fatalf("back within the cap: changes %v, problem %q; want every file and no problem", changes, problem)
	}
}

// TestScanUnreadableDirectory: a directory that cannot be listed cannot
// be verified: the answer says which and what to do.
func TestScanUnreadableDirectory(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	locked := filepath.Join(root, "locked")
	mkfile(t, filepath.Join(locked, "x.go"), "package x\n")
	if runtime.GOOS != "windows" && os.Geteuid() != 0 {
		if err := os.Chmod(locked, 0); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = os.Chmod(locked, 0o755) })
	} else {
		// Permissions do not stop this user: the failure is injected.
		listDir = func(dir string) ([]dirEnt, error) {
			if dir == locked {
				return nil, &os.PathError{Op: "open", Path: dir, Err: os.ErrPermission}
			}
			return readDir(dir)
		}
		t.Cleanup(func() { listDir = readDir })
	}
	tr := newTracker(&Config{Root: root})
	if _, problem := tr.scan(); !strings.Contains(problem, locked) || !strings.Contains(problem, "make it readable") {
		t.Fatalf("problem %q, want the directory and what to do", problem)
	}
}

// TestGoInputsOutsideTheRoot: for Go, the files of a replace directory
// outside the root are inputs, as are go.work and go.mod files appearing
// in a parent directory; a replace directory that is gone, and a go.work
// in effect that does not hold the root, make the answer unverified.
// replaceModule writes a module at base/m (root) whose go.mod replaces
// example.com/dep with base/dep, outside the root, and returns base, root
// and dep's one Go file; GOWORK and GOFLAGS are cleared.
func replaceModule(t *testing.T) (base, root, dep string) {
	t.Helper()
	base, _ = filepath.EvalSymlinks(t.TempDir())
	root = filepath.Join(base, "m")
	mkfile(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n")
	mkfile(t, filepath.Join(root, "main.go"), "package main\n")
	dep = filepath.Join(base, "dep/dep.go")
	mkfile(t, filepath.Join(base, "dep/go.mod"), "module example.com/dep\n")
	mkfile(t, dep, "package dep\n")
	t.Setenv("GOWORK", "")
	t.Setenv("GOFLAGS", "")
	return base, root, dep
}

func TestGoInputsOutsideTheRoot(t *testing.T) {
	base, root, dep := replaceModule(t)
	tr := newTracker(&Config{Root: root, Inputs: Inputs{Go: true}})
	scanOnce(t, tr)
	mkfile(t, dep, "package dep\n\nvar X = 1\n")
	if got := scanOnce(t, tr); !maps.Equal(got, map[string]bool{dep: false}) {
		t.Fatalf("the replace directory's file written: changes %v", got)
	}
	work := filepath.Join(base, "go.work")
	mkfile(t, filepath.Join(base, "other/go.mod"), "module example.com/other\n\ngo 1.22\n")
	mkfile(t, work, "go 1.22\n\nuse ./other\n")
	changes, problem := tr.scan()
	if !changes[work] || !strings.Contains(problem, work) || !strings.Contains(problem, "go work use") {
		t.Fatalf("a go.work in the parent: changes %v, problem %q", changes, problem)
	}
	mkfile(t, work, "go 1.22\n\nuse (\n\t./m\n\t./other\n)\n")
	if changes, problem = tr.scan(); problem != "" || !maps.Equal(changes, map[string]bool{work: false}) {
		t.Fatalf("the go.work now uses the root: changes %v, problem %q", changes, problem)
	}
	if err := os.Remove(work); err != nil {
		t.Fatal(err)
	}
	scanOnce(t, tr)
	if err := os.RemoveAll(filepath.Join(base, "dep")); err != nil {
		t.Fatal(err)
	}
	changes, problem = tr.scan()
	if _, ok := changes[dep]; !ok || !strings.Contains(problem, filepath.Join(base, "dep")) || !strings.Contains(problem, "replace") {
		t.Fatalf("the replace directory removed: changes %v, problem %q", changes, problem)
	}
}

// TestGoInputNeedsReload: a changed file gopls does not act on makes it
// reload only when the go command may read it: cgo and assembly sources,
// files under a package that embeds; not a README or a log file.
func TestGoInputNeedsReload(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	mkfile(t, filepath.Join(root, "go.mod"), "module m\n")
	mkfile(t, filepath.Join(root, "main.go"), "package main\n")
	mkfile(t, filepath.Join(root, "web/web.go"), "package web\n\nimport \"embed\"\n\n//go:embed static\nvar FS embed.FS\n")
	mkfile(t, filepath.Join(root, "sub/go.mod"), "module sub\n")
	cases := map[string]bool{
		"README.md":             false,
		"logs/app.log":          false,
		"web/static/app.css":    true,
		"web/data.txt":          true,
		"lib/x.c":               true,
		"lib/x.h":               true,
		"lib/add_amd64.s":       true,
		"sub/web/static/a.css":  false, // another module: its own go.mod stops the walk
		"web/static/deep/a.svg": true,
	}
	for p, want := range cases {
		if got := goInput(root, filepath.Join(root, p), map[string]bool{}); got != want {
			t.Errorf("%s: reload %v, want %v", p, got, want)
		}
	}
}

// TestScanNamedPipe: a named pipe under the root, however recent, is
// stat'ed, never opened (opening it would block the request).
func TestScanNamedPipe(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no named pipes in the file system")
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	if err := mkfifo(filepath.Join(root, "fifo")); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	tr := newTracker(&Config{Root: root})
	done := make(chan struct{})
	go func() {
		defer close(done)
		tr.scan()
		tr.scan()
	}()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("the check of the inputs blocked on a named pipe")
	}
}

// TestBlindDirs: the packages holding sources gopls never compiles are
// found, but for directories the go command ignores (testdata, names
// beginning with "." or "_"), whatever lies above the root; a change in
// one moves the generation, a change elsewhere does not.
func TestBlindDirs(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "_work", "m") // a root below an underscore directory
	for _, p := range []string{"asm/a.go", "asm/a_amd64.s", "testdata/x/x.go", "testdata/x/x.s", "_skip/s.go", "_skip/s.s", "plain/p.go", "cfiles/c.go", "cfiles/c.c"} {
		mkfile(t, filepath.Join(root, p), "x\n")
	}
	tr := newTracker(&Config{Root: root, Inputs: Inputs{Go: true}})
	scanOnce(t, tr)
	dirs, gen := tr.blindDirs()
	if len(dirs) != 1 || dirs[0] != filepath.Join(root, "asm") {
		t.Fatalf("blind directories %v, want only asm", dirs)
	}
	mkfile(t, filepath.Join(root, "plain/p.go"), "package plain\n")
	scanOnce(t, tr)
	if _, g := tr.blindDirs(); g != gen {
		t.Errorf("a change outside them moved the generation")
	}
	mkfile(t, filepath.Join(root, "asm/a_amd64.s"), "TEXT\n")
	scanOnce(t, tr)
	_, g := tr.blindDirs()
	if g == gen {
		t.Errorf("a change of the assembly did not move the generation")
	}
	// What the build of those packages may read elsewhere: a header of
	// another directory (#include "../include/x.h", or cgo's -I), the
	// module files.
	for _, p := range []string{"include/x.h", "go.mod"} {
		gen = g
		mkfile(t, filepath.Join(root, p), "changed "+p+"\n")
		scanOnce(t, tr)
		if _, g = tr.blindDirs(); g == gen {
			t.Errorf("a change of %s did not move the generation: the go build's old answer would be kept", p)
		}
	}
}

// TestGoInputsUsedModuleGainsReplace: a go.work in the root uses a module
// outside it; when that module's go.mod gains a replace directive (which
// applies in workspace mode), the replace directory becomes an input and
// a write to its files is a change.
func TestGoInputsUsedModuleGainsReplace(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "m")
	mkfile(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	mkfile(t, filepath.Join(root, "go.work"), "go 1.22\n\nuse (\n\t.\n\t../other\n)\n")
	mkfile(t, filepath.Join(root, "main.go"), "package main\n")
	other := filepath.Join(base, "other/go.mod")
	mkfile(t, other, "module example.com/other\n\ngo 1.22\n")
	dep := filepath.Join(base, "dep2/dep.go")
	mkfile(t, filepath.Join(base, "dep2/go.mod"), "module example.com/dep2\n")
	mkfile(t, dep, "package dep\n")
	t.Setenv("GOWORK", "")
	t.Setenv("GOFLAGS", "")
	tr := newTracker(&Config{Root: root, Inputs: Inputs{Go: true}})
	scanOnce(t, tr)
	mkfile(t, other, "module example.com/other\n\ngo 1.22\n\nreplace example.com/dep2 => ../dep2\n")
	if got := scanOnce(t, tr); !got[dep] || got[other] {
		t.Fatalf("the used module's go.mod gained a replace: changes %v, want %s changed and %s new", got, other, dep)
	}
	mkfile(t, dep, "package dep\n\nvar X = 1\n")
	if got := scanOnce(t, tr); !maps.Equal(got, map[string]bool{dep: false}) {
		t.Fatalf("a file of the replace directory the used module gained, written: changes %v, want %s", got, dep)
	}
}

// TestGoInputsGoEnvFails: when the go command cannot say which go.work is
// in effect, the go.work check is not skipped silently: the answer is
// unverified and says why, and the check is tried again at the next scan.
func TestGoInputsGoEnvFails(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "m")
	mkfile(t, filepath.Join(root, "go.mod"), "module example.com/m\n\ngo 1.22\n")
	mkfile(t, filepath.Join(root, "main.go"), "package main\n")
	t.Setenv("GOWORK", "")
	t.Setenv("GOFLAGS", "")
	path := os.Getenv("PATH")
	t.Setenv("PATH", t.TempDir()) // no go command
	tr := newTracker(&Config{Root: root, Inputs: Inputs{Go: true}})
	if _, problem := tr.scan(); !strings.Contains(problem, "go env") {
		t.Fatalf("the go command missing: problem %q, want it to say go env failed", problem)
	}
	t.Setenv("PATH", path)
	if _, problem := tr.scan(); problem != "" {
		t.Fatalf("the go command back: problem %q, want none", problem)
	}
}
