package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

func TestAcquire(t *testing.T) {
	files := map[string]string{
		"a.go": "package a\n", "b.txt": "bee\n",
		"src/x.go": "x\n", "src/deep/y.go": "y\n", "src/deep/z.txt": "z\n",
	}
	for _, tc := range []struct {
		name     string
		patterns []string
		want     []string
	}{
		{"literal", []string{"a.go"}, []string{"a.go"}},
		{"literals dedup", []string{"a.go", "b.txt", "a.go"}, []string{"a.go", "b.txt"}},
		{"star is one segment", []string{"src/*.go"}, []string{"src/x.go"}},
		{"doublestar any depth", []string{"src/**/*.go"}, []string{"src/deep/y.go", "src/x.go"}},
		{"doublestar dir", []string{"src/**"}, []string{"src/deep/y.go", "src/deep/z.txt", "src/x.go"}},
		{"glob and literal overlap", []string{"*.go", "a.go"}, []string{"a.go"}},
		{"empty", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := open(t, testtree.New(t, files), nil)
			if _, err := w.Acquire(tc.patterns); err != nil {
				t.Fatal(err)
			}
			wantList(t, "paths", w.Paths(), tc.want)
			for _, p := range tc.want {
				if d, _ := w.Doc(p); d.String() != files[p] {
					t.Errorf("%s = %q, want %q", p, d.String(), files[p])
				}
			}
			if len(w.Changes()) != 0 || w.Dirty() {
				t.Errorf("fresh acquisition has changes: %+v", w.Changes())
			}
		})
	}
}

func TestAcquireErrors(t *testing.T) {
	files := map[string]string{
		"a.txt": "a\n", "dir/b.txt": "b\n",
		"bin.dat": "ab\x00cd", "latin1.txt": "caf\xe9\n",
	}
	for _, tc := range []struct {
		name     string
		patterns []string
		kind     fault.Kind
		subs     []string
	}{
		{"missing literal", []string{"a.txt", "nope.txt"}, fault.NotFound, []string{"nope.txt", "does not exist"}},
		{"directory", []string{"dir"}, fault.BadArgument, []string{"dir is a directory", `"dir/**"`}},
		{"glob without match", []string{"a.txt", "*.go"}, fault.NotFound, []string{`"*.go"`, "matched no files"}},
		{"binary", []string{"a.txt", "bin.dat"}, fault.BadArgument, []string{"bin.dat", "binary"}},
		{"not utf-8", []string{"latin1.txt"}, fault.BadArgument, []string{"latin1.txt", "not UTF-8"}},
		{"outside the root", []string{"../x"}, fault.BadArgument, []string{"../x"}},
		{"bad glob", []string{"[a"}, fault.BadArgument, []string{"[a"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := open(t, testtree.New(t, files), nil)
			_, err := w.Acquire(tc.patterns)
			wantFault(t, err, tc.kind, tc.subs...)
			if w.Len() != 0 {
				t.Errorf("a failed acquisition left %v in the workspace", w.Paths())
			}
		})
	}
}

func TestAcquireLimits(t *testing.T) {
	files := map[string]string{"a.txt": "12345\n", "b.txt": "12345\n", "c.txt": "12345\n"}
	for _, tc := range []struct {
		name   string
		limits Limits
		subs   []string
	}{
		{"files", Limits{MaxFiles: 2}, []string{"limit of 2 files", "max_files"}},
		{"per-file bytes", Limits{MaxFileBytes: 5}, []string{"a.txt", "per-file limit of 5 bytes", "max_file_bytes"}},
		{"total bytes", Limits{MaxTotalBytes: 13}, []string{"c.txt", "total limit of 13 bytes", "max_total_bytes"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys, err := rootfs.New(testtree.New(t, files))
			if err != nil {
				t.Fatal(err)
			}
			w := New(fsys, tc.limits)
			if _, err := w.Acquire([]string{"a.txt"}); err != nil && tc.name != "per-file bytes" {
				t.Fatal(err)
			}
			before := w.Paths()
			_, err = w.Acquire([]string{"*.txt"})
			wantFault(t, err, fault.Bounds, tc.subs...)
			wantList(t, "paths after a failed acquisition", w.Paths(), before)
			// Within the limits it works.
			if _, err := New(fsys, Limits{}).Acquire([]string{"*.txt"}); err != nil {
				t.Fatal(err)
			}
		})
	}
	t.Run("defaults", func(t *testing.T) {
		w := New(nil, Limits{})
		if w.limits != DefaultLimits || DefaultLimits != (Limits{MaxFiles: 500, MaxFileBytes: 2 << 20, MaxTotalBytes: 32 << 20}) {
			t.Errorf("limits = %+v", w.limits)
		}
	})
	t.Run("a transaction cannot exceed them", func(t *testing.T) {
		fsys, _ := rootfs.New(testtree.New(t, files))
		w := New(fsys, Limits{MaxFiles: 3, MaxFileBytes: 8, MaxTotalBytes: 19})
		if _, err := w.Acquire([]string{"*.txt"}); err != nil {
			t.Fatal(err)
		}
		// Every file has an unwritten change, so none can leave.
		apply(t, w, func(tx *Txn) error {
			for _, p := range []string{"a.txt", "b.txt", "c.txt"} {
				if err := tx.Set(p, doc("abcde\n")); err != nil {
					return err
				}
			}
			return nil
		})
		tx := w.Begin()
		wantFault(t, tx.Add("d.txt", doc("d\n")), fault.Bounds, "limit of 3 files", "write", "discard")
		wantFault(t, tx.Set("a.txt", doc("123456789\n")), fault.Bounds, "per-file limit of 8 bytes")
		wantFault(t, tx.Set("a.txt", doc("1234567\n")), fault.Bounds, "total limit of 19 bytes")
		// A failed Set leaves the transaction's accounting alone.
		if err := tx.Set("a.txt", doc("1\n")); err != nil {
			t.Fatal(err)
		}
		if err := tx.Set("b.txt", doc("1234567\n")); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		if w.bytes != 2+8+6 {
			t.Errorf("bytes = %d, want 16", w.bytes)
		}
	})
}

func TestAcquireKeepsWorkspaceContent(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "old\n", "b.txt": "b\n", "c.txt": "c\n"})
	w := open(t, root, nil, "a.txt", "b.txt")
	apply(t, w, func(tx *Txn) error {
		if err := tx.Set("a.txt", doc("new\n")); err != nil {
			return err
		}
		if err := tx.Delete("b.txt"); err != nil {
			return err
		}
		return tx.Add("n.txt", doc("n\n"))
	})
	// Re-acquiring: the changed file keeps its workspace content, the
	// deleted one stays deleted, the added one (not on disk) is found.
	if _, err := w.Acquire([]string{"*.txt", "a.txt", "n.txt"}); err != nil {
		t.Fatal(err)
	}
	wantMap(t, "workspace", snapshot(w), map[string]string{"a.txt": "new\n", "c.txt": "c\n", "n.txt": "n\n"})
	// A later disk change does not leak in either.
	testtree.Put(t, root, "a.txt", "changed on disk\n")
	if _, err := w.Acquire([]string{"a.txt"}); err != nil {
		t.Fatal(err)
	}
	if d, _ := w.Doc("a.txt"); d.String() != "new\n" {
		t.Errorf("a.txt = %q after re-acquisition", d.String())
	}
}

func TestAcquireKeepsMode(t *testing.T) {
	root := testtree.New(t, map[string]string{"run.sh": "#!/bin/sh\n"})
	if err := os.Chmod(filepath.Join(root, "run.sh"), 0o755); err != nil {
		t.Fatal(err)
	}
	w := open(t, root, nil, "run.sh")
	if m := w.files["run.sh"].mode.Perm(); m != 0o755 {
		t.Errorf("mode = %v", m)
	}
}

// AcquireWalked passes over the walked files that cannot be held by
// themselves (over the per-file limit, not text), listing why, and holds
// the rest; the same file not walked fails the acquisition, and so does a
// limit on the whole workspace.
func TestAcquireWalked(t *testing.T) {
	files := map[string]string{"a.txt": "12345\n", "big.txt": "1234567890\n", "bin.txt": "a\x00b\n", "c.txt": "1\n"}
	fsys, err := rootfs.New(testtree.New(t, files))
	if err != nil {
		t.Fatal(err)
	}
	walked := func(p string) bool { return p != "a.txt" }
	w := New(fsys, Limits{MaxFileBytes: 8})
	_, passed, err := w.AcquireWalked([]string{"a.txt", "big.txt", "bin.txt", "c.txt"}, walked)
	if err != nil {
		t.Fatal(err)
	}
	wantList(t, "held", w.Paths(), []string{"a.txt", "c.txt"})
	if len(passed) != 2 || passed[0].Path != "big.txt" || passed[0].Why != "11 bytes, over the per-file limit of 8 bytes (limits.max_file_bytes)" ||
		passed[1].Path != "bin.txt" || !strings.HasPrefix(passed[1].Why, "not a text file: ") {
		t.Errorf("passed = %+v", passed)
	}
	// Not walked: the acquisition fails, and nothing new is held.
	w = New(fsys, Limits{MaxFileBytes: 8})
	_, _, err = w.AcquireWalked([]string{"c.txt", "big.txt"}, func(string) bool { return false })
	wantFault(t, err, fault.Bounds, "big.txt", "max_file_bytes")
	wantList(t, "held after a failed acquisition", w.Paths(), nil)
	// The workspace's own limits still fail it.
	w = New(fsys, Limits{MaxFiles: 1, MaxFileBytes: 8})
	_, _, err = w.AcquireWalked([]string{"a.txt", "c.txt"}, walked)
	wantFault(t, err, fault.Bounds, "max_files")
}
