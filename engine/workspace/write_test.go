package workspace

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

// tempName matches a swap's temporary file name.
var tempName = regexp.MustCompile(`\.dev-tools-rename-[0-9a-f]{16}`)

// mv returns a transaction body that moves pairs of paths in order.
func mv(pairs ...string) func(*Txn) error {
	return func(tx *Txn) error {
		for i := 0; i < len(pairs); i += 2 {
			if err := tx.Move(pairs[i], pairs[i+1]); err != nil {
				return err
			}
		}
		return nil
	}
}

// checkWritten checks that the disk holds exactly the workspace, with no
// temporary left, and that nothing is left to write.
func checkWritten(t *testing.T, w *Workspace, root string) {
	t.Helper()
	wantMap(t, "disk", testtree.Read(t, root), snapshot(w))
	if w.Dirty() || len(w.Unwritten()) != 0 {
		t.Errorf("still unwritten after write: %v", w.Unwritten())
	}
	for p, d := range w.pers {
		if f := w.files[p]; f == nil || f.pers != p || f.doc != d.doc {
			t.Errorf("%s: persisted baseline out of step with the workspace", p)
		}
	}
}

func TestWriteOrder(t *testing.T) {
	for _, tc := range []struct {
		name    string
		disk    map[string]string
		change  func(*Txn) error
		ops     []string // with temporaries shown as TMP
		written []string
	}{
		{
			name: "phases: renames, deletions, creates and modifications",
			disk: map[string]string{"a": "a\n", "b": "b\n", "c": "c\n", "z": "z\n"},
			change: func(tx *Txn) error {
				for _, err := range []error{
					tx.Add("0-new", doc("n\n")), tx.Set("c", doc("C\n")), tx.Delete("b"), tx.Move("z", "y"),
				} {
					if err != nil {
						return err
					}
				}
				return nil
			},
			ops:     []string{"rename z -> y", "remove b", "write 0-new", "write c"},
			written: []string{"y", "0-new", "c"},
		},
		{
			name:    "dependency before lexical: a→b, c→a",
			disk:    map[string]string{"a": "a\n", "c": "c\n"},
			change:  mv("a", "b", "c", "a"),
			ops:     []string{"rename a -> b", "rename c -> a"},
			written: []string{"b", "a"},
		},
		{
			name:    "chain is done from its free end",
			disk:    map[string]string{"a": "a\n", "b": "b\n", "c": "c\n"},
			change:  mv("c", "d", "b", "c", "a", "b"),
			ops:     []string{"rename c -> d", "rename b -> c", "rename a -> b"},
			written: []string{"d", "c", "b"},
		},
		{
			name:    "ties are lexical by destination",
			disk:    map[string]string{"z": "z\n", "m": "m\n", "b": "b\n"},
			change:  mv("z", "y", "m", "n", "b", "a"),
			ops:     []string{"rename b -> a", "rename m -> n", "rename z -> y"},
			written: []string{"a", "n", "y"},
		},
		{
			name:    "swap uses one temporary: n+1 renames",
			disk:    map[string]string{"a": "alpha\n", "b": "bravo\n"},
			change:  mv("a", "t", "b", "a", "t", "b"),
			ops:     []string{"rename a -> TMP", "rename b -> a", "rename TMP -> b"},
			written: []string{"a", "b"},
		},
		{
			name:    "swap in a directory parks there",
			disk:    map[string]string{"d/a": "alpha\n", "d/b": "bravo\n"},
			change:  mv("d/a", "d/t", "d/b", "d/a", "d/t", "d/b"),
			ops:     []string{"rename d/a -> d/TMP", "rename d/b -> d/a", "rename d/TMP -> d/b"},
			written: []string{"d/a", "d/b"},
		},
		{
			name:    "3-cycle: 4 renames",
			disk:    map[string]string{"a": "A\n", "b": "B\n", "c": "C\n"},
			change:  mv("a", "t", "c", "a", "b", "c", "t", "b"),
			ops:     []string{"rename a -> TMP", "rename c -> a", "rename b -> c", "rename TMP -> b"},
			written: []string{"a", "c", "b"},
		},
		{
			name:    "two cycles and a chain",
			disk:    map[string]string{"a": "A\n", "b": "B\n", "x": "X\n", "y": "Y\n", "p": "P\n"},
			change:  mv("a", "t", "b", "a", "t", "b", "y", "t", "x", "y", "t", "x", "p", "q"),
			ops:     []string{"rename p -> q", "rename a -> TMP", "rename b -> a", "rename TMP -> b", "rename x -> TMP", "rename y -> x", "rename TMP -> y"},
			written: []string{"q", "a", "b", "x", "y"},
		},
		{
			name:    "net-zero chain issues nothing",
			disk:    map[string]string{"a": "a\n", "b": "b\n"},
			change:  mv("a", "c", "c", "a", "b", "x", "x", "y", "y", "b"),
			ops:     nil,
			written: nil,
		},
		{
			name: "rename then content",
			disk: map[string]string{"a": "a\n"},
			change: func(tx *Txn) error {
				if err := tx.Move("a", "b"); err != nil {
					return err
				}
				return tx.Set("b", doc("B\n"))
			},
			ops:     []string{"rename a -> b", "write b"},
			written: []string{"b"},
		},
		{
			name: "rename onto a deleted file replaces it",
			disk: map[string]string{"a": "a\n", "b": "b\n"},
			change: func(tx *Txn) error {
				if err := tx.Delete("b"); err != nil {
					return err
				}
				return tx.Move("a", "b")
			},
			ops:     []string{"rename a -> b"},
			written: []string{"b"},
		},
		{
			name: "delete and re-create is one write",
			disk: map[string]string{"a": "a\n"},
			change: func(tx *Txn) error {
				if err := tx.Delete("a"); err != nil {
					return err
				}
				return tx.Add("a", doc("A\n"))
			},
			ops:     []string{"write a"},
			written: []string{"a"},
		},
		{
			name: "create where a file moved away",
			disk: map[string]string{"a": "a\n"},
			change: func(tx *Txn) error {
				if err := tx.Move("a", "b"); err != nil {
					return err
				}
				return tx.Add("a", doc("new a\n"))
			},
			ops:     []string{"rename a -> b", "write a"},
			written: []string{"b", "a"},
		},
		{
			name:    "moved into a new directory",
			disk:    map[string]string{"a": "a\n"},
			change:  mv("a", "x/y/a"),
			ops:     []string{"rename a -> x/y/a"},
			written: []string{"x/y/a"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := testtree.New(t, tc.disk)
			rec := &recorder{}
			w := open(t, root, rec, "**")
			apply(t, w, tc.change)
			changes := w.Changes()
			written, err := w.Write(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			ops := make([]string, len(rec.ops))
			for i, op := range rec.ops {
				ops[i] = tempName.ReplaceAllString(op, "TMP")
			}
			wantList(t, "ops", ops, tc.ops)
			wantList(t, "written", written, tc.written)
			for _, p := range written {
				if strings.Contains(p, rootfs.TempRenamePrefix) {
					t.Errorf("a temporary in written: %s", p)
				}
			}
			checkWritten(t, w, root)
			// Writing changes nothing that Changes reports.
			if got := w.Changes(); len(got) != len(changes) {
				t.Errorf("changes after write %+v, before %+v", got, changes)
			}
			for _, c := range changes {
				if strings.Contains(c.Path+c.From, rootfs.TempRenamePrefix) {
					t.Errorf("a temporary in changes: %+v", c)
				}
			}
			// A second write has nothing to do.
			rec.ops = nil
			if written, err := w.Write(t.Context(), nil); err != nil || len(written) != 0 || len(rec.ops) != 0 {
				t.Errorf("second write: %v, %v, ops %v", written, err, rec.ops)
			}
		})
	}
}

// TestWriteSwapContent checks the bytes, not just the operations: a lexical
// order (c→a first) would have destroyed a.
func TestWriteSwapContent(t *testing.T) {
	root := testtree.New(t, map[string]string{"a": "alpha\n", "c": "charlie\n", "x": "x\n", "y": "y\n"})
	w := open(t, root, nil, "*")
	apply(t, w, mv("a", "b", "c", "a", "x", "t", "y", "x", "t", "y"))
	if _, err := w.Write(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	wantMap(t, "disk", testtree.Read(t, root), map[string]string{"a": "charlie\n", "b": "alpha\n", "x": "y\n", "y": "x\n"})
}

// failureScenario is a write of every kind of operation: a chain, a swap,
// a deletion, a rename with new content, a modification and a creation.
func failureScenario(t *testing.T) (root string, rec *recorder, w *Workspace) {
	root = testtree.New(t, map[string]string{
		"a": "a\n", "c": "c\n", "s1": "s1\n", "s2": "s2\n", "del": "del\n", "mod": "mod\n",
	})
	rec = &recorder{}
	w = open(t, root, rec, "*")
	apply(t, w, func(tx *Txn) error {
		for _, err := range []error{
			mv("a", "b", "c", "a", "s1", "t", "s2", "s1", "t", "s2")(tx),
			tx.Set("b", doc("B\n")),
			tx.Delete("del"),
			tx.Set("mod", doc("MOD\n")),
			tx.Add("new/n", doc("n\n")),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	return root, rec, w
}

func normalize(ops []string) []string {
	out := make([]string, len(ops))
	for i, op := range ops {
		out[i] = tempName.ReplaceAllString(op, "TMP")
	}
	return out
}

func TestWriteFailureBookkeeping(t *testing.T) {
	// The full run, for reference.
	root, rec, w := failureScenario(t)
	final := snapshot(w)
	all, err := w.Write(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	allOps := normalize(rec.ops)
	wantList(t, "ops", allOps, []string{
		"rename a -> b", "rename c -> a",
		"rename s1 -> TMP", "rename s2 -> s1", "rename TMP -> s2",
		"remove del", "write b", "write mod", "write new/n",
	})
	wantList(t, "written", all, []string{"b", "a", "s1", "s2", "mod", "new/n"})
	checkWritten(t, w, root)

	for k := 1; k <= len(allOps); k++ {
		t.Run(allOps[k-1], func(t *testing.T) {
			root, rec, w := failureScenario(t)
			rec.failAt = k
			written, err := w.Write(t.Context(), nil)
			we := asWriteError(t, err)
			wantFault(t, err, fault.IO, "injected fault at op")
			// written holds exactly the destinations of the completed
			// operations, in order.
			want := destinations(allOps[:k-1])
			wantList(t, "WriteError.Written", we.Written, want)
			wantList(t, "written", written, want)
			// Mid-swap, the temporary is named and on disk.
			parked := k == 4 || k == 5
			if parked {
				if !tempName.MatchString(we.Temp) || !strings.Contains(err.Error(), we.Temp+" on disk, holding the content that belongs at s2") {
					t.Errorf("Temp = %q, error %q", we.Temp, err)
				}
				if got := testtree.Read(t, root)[we.Temp]; got != "s1\n" {
					t.Errorf("temporary %s holds %q", we.Temp, got)
				}
			} else if we.Temp != "" {
				t.Errorf("Temp = %q outside a swap", we.Temp)
			}
			if rec.ops = normalize(rec.ops); len(rec.ops) != k-1 {
				t.Fatalf("ops before the fault: %v", rec.ops)
			}
			// A second write issues only the remaining operations.
			rec.failAt, rec.seen, rec.ops = 0, 0, nil
			rest, err := w.Write(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			wantList(t, "remaining ops", normalize(rec.ops), allOps[k-1:])
			wantList(t, "written by the second write", rest, destinations(allOps[k-1:]))
			wantMap(t, "workspace", snapshot(w), final)
			checkWritten(t, w, root)
		})
	}
}

// destinations lists the paths that recorded operations wrote (rename
// destinations and writes, temporaries excluded), each once, in order.
func destinations(ops []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, op := range ops {
		dst, ok := strings.CutPrefix(op, "write ")
		if !ok {
			_, dst, ok = strings.Cut(op, " -> ")
		}
		if ok && dst != "TMP" && !seen[dst] {
			seen[dst] = true
			out = append(out, dst)
		}
	}
	return out
}

func TestWriteCanceled(t *testing.T) {
	root, rec, w := failureScenario(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := w.Write(ctx, nil)
	we := asWriteError(t, err)
	if len(we.Written) != 0 || len(rec.ops) != 0 {
		t.Errorf("canceled write did %v", rec.ops)
	}
	_ = root
}

func TestWriteConflict(t *testing.T) {
	for _, tc := range []struct {
		name  string
		touch func(root string)
		subs  []string
	}{
		{"changed", func(root string) { testtree.Put(t, root, "mod", "someone else\n") },
			[]string{"mod changed on disk since the workspace read it (disk now " + doc("someone else\n").Revision() + ", the workspace read " + doc("mod\n").Revision() + ")", `discard with paths ["mod"]`}},
		{"deleted", func(root string) { os.Remove(filepath.Join(root, "del")) }, []string{"del was deleted on disk"}},
		{"created", func(root string) { testtree.Put(t, root, "new/n", "mine\n") }, []string{"new/n was created on disk"}},
		{"rename source changed", func(root string) { testtree.Put(t, root, "s1", "x\n") }, []string{"s1 changed on disk"}},
		{"several", func(root string) {
			testtree.Put(t, root, "mod", "x\n")
			testtree.Put(t, root, "a", "x\n")
			os.Remove(filepath.Join(root, "c"))
		}, []string{"3 file(s)", "a changed", "c was deleted", "mod changed", `discard with paths ["a", "c", "mod"]`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, rec, w := failureScenario(t)
			tc.touch(root)
			before := testtree.Read(t, root)
			ws := snapshot(w)
			written, err := w.Write(t.Context(), nil)
			wantFault(t, err, fault.Conflict, append(tc.subs, "nothing was written")...)
			var se *StaleError
			if !errors.As(err, &se) || len(se.Stale) == 0 {
				t.Errorf("the conflict carries no stale files: %#v", err)
			}
			if len(rec.ops) != 0 || len(written) != 0 {
				t.Errorf("a conflicting write did %v", rec.ops)
			}
			wantMap(t, "disk", testtree.Read(t, root), before)
			wantMap(t, "workspace", snapshot(w), ws)
		})
	}
	t.Run("a path the write does not touch may change", func(t *testing.T) {
		root := testtree.New(t, map[string]string{"a": "a\n", "b": "b\n"})
		w := open(t, root, nil, "*")
		apply(t, w, func(tx *Txn) error { return tx.Set("a", doc("A\n")) })
		testtree.Put(t, root, "b", "changed\n")
		if _, err := w.Write(t.Context(), nil); err != nil {
			t.Fatal(err)
		}
	})
}

func TestWriteSelect(t *testing.T) {
	for _, tc := range []struct {
		name      string
		selectors []string
		ops       []string
		kind      fault.Kind
	}{
		{"one file", []string{"mod"}, []string{"write mod"}, ""},
		{"a deletion", []string{"del"}, []string{"remove del"}, ""},
		{"glob", []string{"new/**"}, []string{"write new/n"}, ""},
		{"star", []string{"s*"}, []string{"rename s1 -> TMP", "rename s2 -> s1", "rename TMP -> s2"}, ""},
		// Selecting c→a pulls in a→b (a must be vacated) and b's content.
		{"chain pulls its dependency", []string{"c"}, []string{"rename a -> b", "rename c -> a", "write b"}, ""},
		// Selecting b's content pulls in its rename.
		{"content pulls its rename", []string{"b"}, []string{"rename a -> b", "write b"}, ""},
		{"one of a swap pulls the other", []string{"s2"}, []string{"rename s1 -> TMP", "rename s2 -> s1", "rename TMP -> s2"}, ""},
		{"unchanged file selects nothing", []string{"keep"}, nil, ""},
		{"no match", []string{"mod", "zzz"}, nil, fault.BadArgument},
		{"glob without match", []string{"*.go"}, nil, fault.BadArgument},
		{"bad pattern", []string{"[x"}, nil, fault.BadArgument},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, rec, w := failureScenario(t)
			testtree.Put(t, root, "keep", "keep\n")
			if _, err := w.Acquire([]string{"keep"}); err != nil {
				t.Fatal(err)
			}
			unwritten := len(w.Unwritten())
			_, err := w.Write(t.Context(), tc.selectors)
			if tc.kind != "" {
				wantFault(t, err, tc.kind, tc.selectors[len(tc.selectors)-1])
				if len(rec.ops) != 0 {
					t.Errorf("ops: %v", rec.ops)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			wantList(t, "ops", normalize(rec.ops), tc.ops)
			// The rest is still unwritten and writes cleanly afterwards.
			if len(tc.ops) > 0 && len(w.Unwritten()) >= unwritten {
				t.Errorf("unwritten %v", w.Unwritten())
			}
			if _, err := w.Write(t.Context(), nil); err != nil {
				t.Fatal(err)
			}
			checkWritten(t, w, root)
		})
	}
	t.Run("message", func(t *testing.T) {
		_, _, w := failureScenario(t)
		_, err := w.Write(t.Context(), []string{"zzz"})
		wantFault(t, err, fault.BadArgument, `"zzz"`, "match no unwritten change", "the unwritten paths are: a, b, c, del")
	})
}

func TestWriteMode(t *testing.T) {
	root := testtree.New(t, map[string]string{"run.sh": "#!/bin/sh\n", "go.sh": "#!/bin/sh\n", "both.sh": "x\n", "plain": "p\n"})
	for _, p := range []string{"run.sh", "go.sh", "both.sh"} {
		if err := os.Chmod(filepath.Join(root, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	old := syscallUmask(0o077) // new files are 0644 whatever the umask
	defer syscallUmask(old)
	w := open(t, root, nil, "*")
	apply(t, w, func(tx *Txn) error {
		for _, err := range []error{
			tx.Set("run.sh", doc("#!/bin/sh\necho hi\n")),
			tx.Move("go.sh", "bin/go.sh"),
			tx.Move("both.sh", "both2.sh"),
			tx.Set("both2.sh", doc("y\n")),
			tx.Add("new.txt", doc("n\n")),
			tx.Delete("plain"),
			tx.Add("plain", doc("P\n")),
		} {
			if err != nil {
				return err
			}
		}
		return nil
	})
	if _, err := w.Write(t.Context(), nil); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]os.FileMode{
		"run.sh": 0o755, "bin/go.sh": 0o755, "both2.sh": 0o755, "new.txt": 0o644, "plain": 0o644,
	} {
		fi, err := os.Stat(filepath.Join(root, p))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
		if got := w.pers[p].mode.Perm(); got != want {
			t.Errorf("%s: persisted mode %v, want %v", p, got, want)
		}
	}
}
