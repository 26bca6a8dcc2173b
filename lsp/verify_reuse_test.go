package lsp

import (
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// settle makes every directory of the tracker's last scan as if its stamp
// were settled, and taken now: the next scan keeps its listing unless
// the stamp changes. (A change within the same timestamp tick as the
// listing leaves the stamp so.)
func settle(t *testing.T, tr *tracker) {
	t.Helper()
	for dir, ds := range tr.state.dirs {
		st, err := statStamp(dir, true)
		if err != nil {
			t.Fatal(err)
		}
		ds.st, ds.settled = st, true
	}
}

// TestScanKeepsWhatDidNotChange: a scan that finds nothing changed keeps
// the last scan's state; one that finds a file changed keeps the states
// of the other directories, shared. A directory's listing kept (its
// stamp unchanged) still has every file stat'ed: a file written, one
// replaced or removed with the directory's change in the same tick as
// its listing, one written in the same tick as the last scan (its content
// hashed) are found. (A file created in the tick of a listing kept cannot
// be: a listing is kept only once its stamp is older than the window.)
func TestScanKeepsWhatDidNotChange(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	a, b, c := filepath.Join(root, "a/a.go"), filepath.Join(root, "a/b.go"), filepath.Join(root, "c/c.go")
	for _, p := range []string{a, b, c} {
		mkfile(t, p, "package x\n")
	}
	tr := newTracker(&Config{Root: root})
	scanOnce(t, tr)
	tr.window = 0 // every stamp settled: no file hashed, every listing kept
	scanOnce(t, tr)
	prev := tr.state
	if got := scanOnce(t, tr); len(got) != 0 || tr.state != prev {
		t.Fatalf("nothing changed: changes %v, state kept %v; want none, and the state kept", got, tr.state == prev)
	}
	cdir := filepath.Join(root, "c")
	step := func(name string, do func(), want map[string]bool) {
		t.Helper()
		do()
		prev := tr.state
		if got := scanOnce(t, tr); !maps.Equal(got, want) {
			t.Fatalf("%s: changes %v, want %v", name, got, want)
		}
		if tr.state == prev || tr.state.dirs[cdir] != prev.dirs[cdir] {
			t.Fatalf("%s: the state was not renewed, or the untouched directory's state not kept", name)
		}
	}
	step("written", func() { mkfile(t, a, "package a\n\nvar X = 1\n") }, map[string]bool{a: false})
	step("replaced", func() {
		mkfile(t, filepath.Join(base, "new.go"), "package z\n")
		if err := os.Rename(filepath.Join(base, "new.go"), a); err != nil {
			t.Fatal(err)
		}
		settle(t, tr) // the directory's change in the tick of its listing
	}, map[string]bool{a: false})
	step("removed", func() {
		if err := os.Remove(b); err != nil {
			t.Fatal(err)
		}
		settle(t, tr)
	}, map[string]bool{b: false})
	// The listing kept names b.go, which is gone: listed again, the
	// directory has no b.go, which is not reported again.
	tr.state.dirs[filepath.Join(root, "a")].settled = false
	if got := scanOnce(t, tr); len(got) != 0 {
		t.Fatalf("listed again after a removal: changes %v, want none", got)
	}
	step("created", func() { mkfile(t, b, "package b\n") }, map[string]bool{b: true})

	// Racy again: a write of the same size in the same tick as the last
	// scan leaves every stamp equal, in a directory whose listing is
	// kept; the content hashed finds it.
	tr.window = racyWindow
	scanOnce(t, tr)
	settle(t, tr)
	if stateOf(t, tr, b).sum == 0 {
		t.Fatal("a file written just now was not hashed")
	}
	writeSameTick(t, tr, b, "package y\n")
	if got := scanOnce(t, tr); !maps.Equal(got, map[string]bool{b: false}) {
		t.Fatalf("written in the same tick: changes %v, want %s", got, b)
	}
}

// TestScanFileAndDirectorySwap: a file that becomes a directory is gone,
// and the files in the directory new; the other way round, the
// directory's files are gone and the file new.
func TestScanFileAndDirectorySwap(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	x, y := filepath.Join(root, "x"), filepath.Join(root, "x/y.go")
	mkfile(t, x, "x\n")
	mkfile(t, filepath.Join(root, "keep.go"), "package keep\n")
	tr := newTracker(&Config{Root: root})
	scanOnce(t, tr)
	if err := os.Remove(x); err != nil {
		t.Fatal(err)
	}
	mkfile(t, y, "package y\n")
	if got := scanOnce(t, tr); !maps.Equal(got, map[string]bool{x: false, y: true}) {
		t.Fatalf("a file became a directory: changes %v", got)
	}
	if err := os.RemoveAll(x); err != nil {
		t.Fatal(err)
	}
	mkfile(t, x, "x\n")
	if got := scanOnce(t, tr); !maps.Equal(got, map[string]bool{x: true, y: false}) {
		t.Fatalf("a directory became a file: changes %v", got)
	}
}

// TestMatcher: a directory listed again finds the last listing's entries
// by name, in whatever order; the files not found again are gone.
func TestMatcher(t *testing.T) {
	prev := []dirEnt{
		{name: "a", path: "/d/a", found: true},
		{name: "b", path: "/d/b", found: true},
		{name: "sub", path: "/d/sub", dir: true},
		{name: "c", path: "/d/c", found: true},
		{name: "lost", path: "/d/lost"}, // listed, gone when stat'ed
	}
	var m matcher
	for _, c := range []struct {
		name string
		want int
	}{{"c", 3}, {"a", 0}, {"new", -1}, {"sub", 2}, {"lost", 4}} {
		if j := m.find(prev, c.name); j != c.want {
			t.Errorf("find %s: %d, want %d", c.name, j, c.want)
		}
	}
	m.foundAgain(prev, 3)
	m.foundAgain(prev, 0)
	if got := m.gone(prev); !slices.Equal(got, []string{"/d/b"}) {
		t.Errorf("gone %v, want /d/b", got)
	}
	var none matcher
	if j := none.find(nil, "a"); j != -1 {
		t.Errorf("find in no listing: %d", j)
	}
	if got := none.gone(prev); !slices.Equal(got, []string{"/d/a", "/d/b", "/d/c"}) {
		t.Errorf("none found again: gone %v", got)
	}
}

// TestStatStamp: the stamp a scan takes is the one os.Lstat and os.Stat
// give, for a file, a directory, a symlink followed or not, and a file
// with special mode bits.
func TestStatStamp(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	f, d, l := filepath.Join(root, "f"), filepath.Join(root, "d"), filepath.Join(root, "l")
	mkfile(t, f, "content\n")
	if err := os.Mkdir(d, 0o750); err != nil {
		t.Fatal(err)
	}
	paths := []string{f, d}
	if err := os.Symlink("f", l); err == nil {
		paths = append(paths, l)
	}
	if runtime.GOOS != "windows" {
		s := filepath.Join(root, "s")
		mkfile(t, s, "x\n")
		if err := os.Chmod(s, 0o755|os.ModeSetgid|os.ModeSticky); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, s)
	}
	for _, p := range paths {
		for _, follow := range []bool{false, true} {
			stat := os.Lstat
			if follow {
				stat = os.Stat
			}
			fi, err := stat(p)
			if err != nil {
				t.Fatal(err)
			}
			got, err := statStamp(p, follow)
			if err != nil {
				t.Fatal(err)
			}
			if got != stampOf(fi) {
				t.Errorf("%s (follow %v): stamp %+v; os says %+v", p, follow, got, stampOf(fi))
			}
		}
	}
	if _, err := statStamp(filepath.Join(root, "missing"), false); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v, want not exist", err)
	}
}

// TestScanUncleanRoot: a root spelled with a trailing separator or a
// "." is scanned as its clean path: files are reported by their clean
// paths, once, and a scan finding nothing changed reports nothing.
func TestScanUncleanRoot(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	a := filepath.Join(root, "a/a.go")
	mkfile(t, a, "package a\n")
	for _, spelled := range []string{root + string(filepath.Separator), filepath.Join(root, "a") + string(filepath.Separator) + ".."} {
		tr := newTracker(&Config{Root: spelled})
		scanOnce(t, tr)
		if got := scanOnce(t, tr); len(got) != 0 {
			t.Fatalf("root %q, nothing changed: changes %v", spelled, got)
		}
		b := filepath.Join(root, "a/b.go")
		mkfile(t, b, "package a\n")
		if got := scanOnce(t, tr); !maps.Equal(got, map[string]bool{b: true}) {
			t.Fatalf("root %q, a file created: changes %v, want %s", spelled, got, b)
		}
		if err := os.Remove(b); err != nil {
			t.Fatal(err)
		}
		if got := scanOnce(t, tr); !maps.Equal(got, map[string]bool{b: false}) {
			t.Fatalf("root %q, the file removed: changes %v, want %s", spelled, got, b)
		}
	}
}

// TestScanFirstCompleteAfterNone: a first scan that found nothing (a root
// that could not be read) is still the baseline: the files found once
// the root can be read are reported, not taken as the baseline.
func TestScanFirstCompleteAfterNone(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	tr := newTracker(&Config{Root: root})
	if _, problem := tr.scan(); !strings.Contains(problem, root) {
		t.Fatalf("a missing root: problem %q, want it named", problem)
	}
	a := filepath.Join(root, "a.go")
	mkfile(t, a, "package a\n")
	if got := scanOnce(t, tr); !maps.Equal(got, map[string]bool{a: true}) {
		t.Fatalf("the root created after the first scan: changes %v, want %s created", got, a)
	}
}

// TestScanCapFirst: a first scan over the cap is no baseline: the first
// scan within it reports every file, as after any scan over the cap.
func TestScanCapFirst(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, p := range []string{"a.go", "b/b.go", "b/c.go"} {
		mkfile(t, filepath.Join(root, p), "package x\n")
	}
	tr := newTracker(&Config{Root: root})
	tr.max = 3
	if changes, problem := tr.scan(); len(changes) != 0 || !strings.Contains(problem, "more than 3") || tr.verified() {
		t.Fatalf("over the cap: changes %v, problem %q", changes, problem)
	}
	tr.max = MaxInputs
	if got := scanOnce(t, tr); len(got) != 3 || !tr.verified() {
		t.Fatalf("back within the cap: changes %v, want every file", got)
	}
}
