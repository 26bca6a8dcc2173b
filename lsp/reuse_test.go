package lsp_test

// Answers about the disk's own state: a check whose documents all hold
// the disk's bytes, asked again with nothing changed on disk since, is
// the answer gopls gave then. Anything that could change it (a change on
// disk, another set of open documents, a restart, no watcher to tell)
// asks gopls again.

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp"
)

// TestDiskStateAnswerReused: break a.go (b, which imports it, breaks too)
// and put it back: the put-back answer is the one given for the disk's
// state before (findings in a.go, not errors), with no diagnose_files sent,
// every time.
func TestDiskStateAnswerReused(t *testing.T) {
	root := module(t)
	testtree.Put(t, root, "a/a.go", "package a\n\nimport \"fmt\"\n\nfunc F() int { return 1 }\n\nfunc g() { fmt.Printf(\"%d\\n\", \"x\") }\n")
	s := newTraced(t, root, lsp.Config{})
	disk, _ := putBack(t, root)
	a, b := disk[0].Path, filepath.Join(root, "b/b.go")
	broken := []lsp.Document{{Path: a, LanguageID: "go", Text: "package a\n"}}

	first := diagnose(t, s.Server, disk, a)
	if first.Settle != lsp.SettleBarrier || len(first.Files[a]) == 0 || len(first.Files) != 1 {
		t.Fatalf("first: settle %s, %v; want barrier and a.go's findings only", first.Settle, first.Files)
	}
	for i := range 2 {
		if got := messages(diagnose(t, s.Server, broken, a), b); len(got) != 1 {
			t.Fatalf("round %d, broken: b.go %q, want one error", i, got)
		}
		rep := diagnose(t, s.Server, disk, a)
		if rep.Settle != lsp.SettleReused {
			t.Errorf("round %d, put back: settle %s, want %s", i, rep.Settle, lsp.SettleReused)
		}
		if !reflect.DeepEqual(rep.Files, first.Files) || len(rep.Stale) != 0 {
			t.Fatalf("round %d, put back: got %v (stale %v), want %v", i, rep.Files, rep.Stale, first.Files)
		}
		if rep.Versions[a] <= first.Versions[a] {
			t.Errorf("round %d: version %d, want the one sent now (after %d)", i, rep.Versions[a], first.Versions[a])
		}
	}
}

// TestDiskStateAnswerFollowsDisk: once the disk changes (a dependent
// broken by another program, seen by the watcher, or a file devbroker
// writes), the same documents are diagnosed again.
func TestDiskStateAnswerFollowsDisk(t *testing.T) {
	root := module(t)
	s := newTraced(t, root, lsp.Config{})
	disk, broken := putBack(t, root)
	a, b := disk[0].Path, filepath.Join(root, "b/b.go")

	diagnose(t, s.Server, disk, a)
	diagnose(t, s.Server, broken, a)
	if rep := diagnose(t, s.Server, disk, a); rep.Settle != lsp.SettleReused || len(rep.Files) != 0 {
		t.Fatalf("put back: settle %s, %v; want reused, nothing", rep.Settle, rep.Files)
	}
	testtree.Put(t, root, "b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nvar X string = a.F()\n")
	rep := diagnose(t, s.Server, disk, a)
	if got := messages(rep, b); rep.Settle != lsp.SettleBarrier || len(got) != 1 || !strings.Contains(got[0], "cannot use") {
		t.Fatalf("after b.go changed on disk: settle %s, b.go %q; want barrier, cannot use", rep.Settle, got)
	}
	// devbroker's own write, told with FilesChanged.
	testtree.Put(t, root, "b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n")
	s.FilesChanged([]string{b})
	if rep := diagnose(t, s.Server, disk, a); rep.Settle != lsp.SettleBarrier || len(rep.Files) != 0 {
		t.Fatalf("after b.go was fixed: settle %s, %v; want barrier, nothing", rep.Settle, rep.Files)
	}
}

// TestDiskStateAnswerNeedsTheSameState: another set of open documents,
// other files asked about, or a restart: gopls is asked. Without a disk
// watcher the answer is reused all the same: it rests on the check of
// the inputs, not on events.
func TestDiskStateAnswerNeedsTheSameState(t *testing.T) {
	root := module(t)
	disk, _ := putBack(t, root)
	a, b := disk[0].Path, filepath.Join(root, "b/b.go")
	data, err := os.ReadFile(b)
	if err != nil {
		t.Fatal(err)
	}
	bDoc := lsp.Document{Path: b, LanguageID: "go", Text: string(data), OnDisk: true}

	s := newTraced(t, root, lsp.Config{})
	diagnose(t, s.Server, disk, a)
	var got []lsp.Settle
	got = append(got, diagnose(t, s.Server, []lsp.Document{bDoc}, b).Settle) // a.go kept: another state
	got = append(got, diagnose(t, s.Server, []lsp.Document{bDoc}, b).Settle) // the same
	got = append(got, diagnose(t, s.Server, []lsp.Document{bDoc}, a, b).Settle)
	_ = s.Close()
	s = newTraced(t, root, lsp.Config{})
	got = append(got, diagnose(t, s.Server, disk, a).Settle)
	want := []lsp.Settle{lsp.SettleBarrier, lsp.SettleReused, lsp.SettleBarrier, lsp.SettleBarrier}
	if !slices.Equal(got, want) {
		t.Errorf("settles %v, want %v", got, want)
	}

	s = newTraced(t, root, lsp.Config{NoWatch: true})
	for i, want := range []lsp.Settle{lsp.SettleBarrier, lsp.SettleReused} {
		if rep := diagnose(t, s.Server, disk, a); rep.Settle != want {
			t.Errorf("without a watcher, request %d: settle %s, want %s", i, rep.Settle, want)
		}
	}

	// An answer with an error is not kept (a download could change it).
	testtree.Put(t, root, "b/b.go", "package b\n\nimport \"example.com/m/missing\"\n\nvar X = missing.F()\n")
	s = newTraced(t, root, lsp.Config{})
	for i := range 2 {
		if rep := diagnose(t, s.Server, disk, a, b); rep.Settle != lsp.SettleBarrier || len(rep.Files[b]) == 0 {
			t.Errorf("with an error in b.go, request %d: settle %s, %v; want barrier and the error", i, rep.Settle, rep.Files)
		}
	}
}
