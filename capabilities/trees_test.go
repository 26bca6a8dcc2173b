package capabilities

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

func entries(t *testing.T, dir string) int {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// TestTreesShareEvictAndRemove: two holders of the same content share one
// tree; a private tree is removed on release; unused trees beyond the
// budget are evicted, least recently used first; Close removes all.
func TestTreesShareEvictAndRemove(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	trees := NewTrees(10)
	if n := entries(t, tmp); n != 0 {
		t.Fatalf("NewTrees created %d entries", n)
	}
	a := map[string]*text.Doc{"x/a.txt": text.FromString("aaaaaa\n")} // 7 bytes
	b := map[string]*text.Doc{"b.txt": text.FromString("bbbbbb\n")}
	d1, r1, err := trees.Shared(a)
	if err != nil {
		t.Fatal(err)
	}
	d2, r2, err := trees.Shared(a)
	if err != nil {
		t.Fatal(err)
	}
	if d1 != d2 {
		t.Fatalf("the same content was staged twice: %s, %s", d1, d2)
	}
	if got, _ := os.ReadFile(filepath.Join(d1, "x", "a.txt")); string(got) != "aaaaaa\n" {
		t.Fatalf("staged content: %q", got)
	}
	p, rp, err := trees.Private(a)
	if err != nil || p == d1 {
		t.Fatalf("private tree: %s, %v", p, err)
	}
	rp()
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatalf("a released private tree is still there: %v", err)
	}
	r1()
	r2()
	if _, err := os.Stat(d1); err != nil {
		t.Fatalf("an unused tree within the budget was removed: %v", err)
	}
	d3, r3, err := trees.Shared(b) // 14 bytes > 10: a, unused, leaves
	if err != nil {
		t.Fatal(err)
	}
	r3()
	if _, err := os.Stat(d1); !os.IsNotExist(err) {
		t.Fatalf("the least recently used tree beyond the budget stayed: %v", err)
	}
	if _, err := os.Stat(d3); err != nil {
		t.Fatalf("the newest tree was evicted: %v", err)
	}
	if err := trees.Close(); err != nil {
		t.Fatal(err)
	}
	if err := trees.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	if n := entries(t, tmp); n != 0 {
		t.Fatalf("%d entries left in the temporary directory after Close", n)
	}
	if _, _, err := trees.Shared(a); err == nil {
		t.Fatal("a tree was staged after Close")
	}
}

// TestCallsCloseWaits: Close waits for a running call, refuses new ones,
// runs release once, and a second Close returns its error.
func TestCallsCloseWaits(t *testing.T) {
	var c Calls
	if !c.Begin() {
		t.Fatal("a new Calls refused a call")
	}
	released := make(chan struct{})
	closed := make(chan error)
	go func() {
		closed <- c.Close(func() error { close(released); return os.ErrClosed })
	}()
	select {
	case <-released:
		t.Fatal("Close released while a call was running")
	default:
	}
	c.End()
	if err := <-closed; err != os.ErrClosed {
		t.Fatalf("Close: %v", err)
	}
	if c.Begin() {
		t.Fatal("a call began after Close")
	}
	if err := c.Close(nil); err != os.ErrClosed {
		t.Fatalf("second Close: %v, want the first's error", err)
	}
}

// TestTreesDropAWrittenTree: a command that writes into a shared tree
// (changes a staged file, adds or removes one) does not hand its writes to
// the next holder: the next request for the same content gets the
// workspace exactly, in a fresh tree.
func TestTreesDropAWrittenTree(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	trees := NewTrees(0)
	defer trees.Close()
	all := map[string]*text.Doc{"x/a.txt": text.FromString("aaa\n"), "b.txt": text.FromString("bbb\n")}
	for _, write := range []func(dir string) error{
		func(dir string) error { return os.WriteFile(filepath.Join(dir, "x", "a.txt"), []byte("AAA\n"), 0o600) },
		func(dir string) error {
			return os.WriteFile(filepath.Join(dir, "x", "out.txt"), []byte("made\n"), 0o600)
		},
		func(dir string) error { return os.Remove(filepath.Join(dir, "b.txt")) },
		func(dir string) error { return os.Mkdir(filepath.Join(dir, ".cache"), 0o700) },
	} {
		dir, release, err := trees.Shared(all)
		if err != nil {
			t.Fatal(err)
		}
		if err := write(dir); err != nil {
			t.Fatal(err)
		}
		release()
		next, release, err := trees.Shared(all)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		filepath.WalkDir(next, func(p string, d os.DirEntry, err error) error {
			if err == nil && p != next {
				rel, _ := filepath.Rel(next, p)
				data, _ := os.ReadFile(p)
				got = append(got, filepath.ToSlash(rel)+"="+string(data))
			}
			return err
		})
		if want := "[b.txt=bbb\n x= x/a.txt=aaa\n]"; fmt.Sprint(got) != want {
			t.Fatalf("the next holder's tree: %q, want the workspace exactly (%q)", got, want)
		}
		release()
	}
}
