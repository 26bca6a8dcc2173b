package lsp_test

// The put-back path: a document whose content goes back to what the disk
// holds ("break something, then put it back"). gopls takes a document
// whose content becomes the disk's for a save and runs go mod tidy again
// before it answers; devbroker's documents at disk content must not cost
// that, and must never keep the server on an old copy of the disk.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp"
)

// tidyCounter returns an environment entry that makes gopls run the go
// command through a script noting each `go mod tidy`, and a function
// that counts the tidies so far.
func tidyCounter(t *testing.T) (env string, count func() int) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the go command wrapper is a shell script")
	}
	realGo, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command: %v", err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "tidy.log")
	script := "#!/bin/sh\ncase \" $* \" in *\" mod tidy \"*) echo tidy >> '" + log + "';; esac\nexec '" + realGo + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "go"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return "PATH=" + dir + string(os.PathListSeparator) + os.Getenv("PATH"), func() int {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "tidy\n")
	}
}

// traced is a gopls over root whose notifications are recorded.
type traced struct {
	*lsp.Server
	mu      sync.Mutex
	methods []string
}

func newTraced(t *testing.T, root string, cfg lsp.Config) *traced {
	t.Helper()
	cfg.Command, cfg.Root = []string{gopls(t)}, root
	cfg.Settings = map[string]any{"diagnosticsDelay": "0s"}
	s := &traced{Server: lsp.NewServer(cfg)}
	t.Cleanup(func() { _ = s.Close() })
	lsp.TraceNotifications(s.Server, func(method string, _ any) {
		s.mu.Lock()
		s.methods = append(s.methods, method)
		s.mu.Unlock()
	})
	return s
}

// sent returns the notifications sent since the last call.
func (s *traced) sent() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.methods
	s.methods = nil
	return out
}

// diagnose runs Diagnose and fails the test on an error.
func diagnose(t *testing.T, s *lsp.Server, docs []lsp.Document, files ...string) *lsp.Report {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	rep, err := s.Diagnose(ctx, docs, files)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// putBack is a.go of module at disk content, broken, and put back.
func putBack(t *testing.T, root string) (disk, broken []lsp.Document) {
	t.Helper()
	a := filepath.Join(root, "a/a.go")
	data, err := os.ReadFile(a)
	if err != nil {
		t.Fatal(err)
	}
	disk = []lsp.Document{{Path: a, LanguageID: "go", Text: string(data), OnDisk: true}}
	broken = []lsp.Document{{Path: a, LanguageID: "go", Text: string(data) + "var _ int = \"x\"\n"}}
	return disk, broken
}

func TestGoplsPutBackRunsNoTidy(t *testing.T) {
	root := module(t)
	env, tidies := tidyCounter(t)
	s := newTraced(t, root, lsp.Config{Env: []string{env}})
	disk, broken := putBack(t, root)
	a := disk[0].Path

	diagnose(t, s.Server, disk, a)
	if got := messages(diagnose(t, s.Server, broken, a), a); len(got) != 1 {
		t.Fatalf("broken: got %q, want one error", got)
	}
	for i := range 2 {
		n := tidies()
		rep := diagnose(t, s.Server, disk, a)
		if len(rep.Files) != 0 {
			t.Fatalf("put back: got %v, want no diagnostics", rep.Files)
		}
		if got := tidies() - n; got != 0 {
			t.Errorf("putting a.go back (round %d) ran go mod tidy %d times, want 0", i, got)
		}
		diagnose(t, s.Server, broken, a)
	}
}

func TestGoplsPutBackSendsNoClose(t *testing.T) {
	root := module(t)
	s := newTraced(t, root, lsp.Config{})
	disk, broken := putBack(t, root)
	a, b := disk[0].Path, filepath.Join(root, "b/b.go")

	diagnose(t, s.Server, disk, a)
	diagnose(t, s.Server, broken, a)
	s.sent()
	diagnose(t, s.Server, disk, a)
	if got := s.sent(); strings.Join(got, " ") != "textDocument/didChange" {
		t.Errorf("putting a.go back sent %q, want one didChange", got)
	}
	// A request that leaves a.go out keeps it open: it is the disk's.
	if rep := diagnose(t, s.Server, nil, b); len(rep.Files) != 0 {
		t.Fatalf("without a.go: got %v", rep.Files)
	}
	if got := s.sent(); len(got) != 0 {
		t.Errorf("leaving a.go (at disk content) out sent %q, want nothing", got)
	}
}

// TestGoplsStaleDiskDocNotKept: a request's document at disk content read
// before the disk changed (the request's own check of the disk finds the
// change) is not kept open at that old text: the next request that leaves
// it out sees the disk's new content. The same when the request's turn
// starts the process (the last one stopped, idle): the new process reads
// the changed file itself, but the request's document may still hold the
// text from before the change.
func TestGoplsStaleDiskDocNotKept(t *testing.T) {
	for _, tc := range []struct {
		name    string
		noWatch bool
		stop    bool
	}{{"watcher", false, false}, {"FilesChanged", true, false}, {"watcher, the server stopped", false, true}, {"FilesChanged, the server stopped", true, true}} {
		t.Run(tc.name, func(t *testing.T) {
			root := module(t)
			s := newTraced(t, root, lsp.Config{NoWatch: tc.noWatch})
			disk, _ := putBack(t, root)
			a, b := disk[0].Path, filepath.Join(root, "b/b.go")
			diagnose(t, s.Server, disk, a)
			if tc.stop {
				if lsp.ExpireIdle(s.Server, time.Hour); s.PID() != 0 {
					t.Fatal("the server did not stop")
				}
			}
			testtree.Put(t, root, "a/a.go", "package a\n\nfunc F() int { return \"one\" }\n")
			if tc.noWatch {
				s.FilesChanged([]string{a})
			}
			diagnose(t, s.Server, disk, a) // read before the change
			if got := messages(diagnose(t, s.Server, nil, a, b), a); len(got) != 1 || !strings.Contains(got[0], "cannot use") {
				t.Fatalf("a.go left out after a request sent its old disk text: got %q, want the disk's cannot use", got)
			}
		})
	}
}

// TestGoplsKeptDocFollowsDisk: a document kept open at disk content is
// closed when the disk changes under it, by another program (the watcher)
// or by devbroker (FilesChanged), so the next request sees the new disk.
func TestGoplsKeptDocFollowsDisk(t *testing.T) {
	for _, tc := range []struct {
		name    string
		noWatch bool
	}{{"watcher", false}, {"FilesChanged", true}} {
		t.Run(tc.name, func(t *testing.T) {
			root := module(t)
			s := newTraced(t, root, lsp.Config{NoWatch: tc.noWatch})
			disk, broken := putBack(t, root)
			a, b := disk[0].Path, filepath.Join(root, "b/b.go")
			diagnose(t, s.Server, disk, a)
			diagnose(t, s.Server, broken, a)
			diagnose(t, s.Server, disk, a)
			diagnose(t, s.Server, nil, b) // a.go kept open
			write := func(content string) {
				testtree.Put(t, root, "a/a.go", content)
				if tc.noWatch {
					s.FilesChanged([]string{a})
				}
			}

			write("package a\n\nfunc F() int { return \"one\" }\n")
			if got := messages(diagnose(t, s.Server, nil, a, b), a); len(got) != 1 || !strings.Contains(got[0], "cannot use") {
				t.Fatalf("after the disk changed under a.go (kept open): got %q, want cannot use", got)
			}
			// Opened again at the new disk content, left out, and the
			// disk changes once more.
			now := lsp.Document{Path: a, LanguageID: "go", Text: "package a\n\nfunc F() int { return \"one\" }\n", OnDisk: true}
			diagnose(t, s.Server, []lsp.Document{now}, a)
			diagnose(t, s.Server, nil, b)
			write("package a\n\nfunc F() int { return 1 }\n")
			if rep := diagnose(t, s.Server, nil, a, b); len(rep.Files) != 0 {
				t.Fatalf("after the disk was fixed: got %v, want nothing", rep.Files)
			}
		})
	}
}
