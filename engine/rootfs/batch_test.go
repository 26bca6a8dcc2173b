package rootfs

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// batchTree is a root with a.txt, b.txt and c.txt ("old\n" each) and the
// FS over it.
func batchTree(t *testing.T) (string, *FS) {
	t.Helper()
	root := t.TempDir()
	for _, n := range []string{"a.txt", "b.txt", "c.txt"} {
		if err := os.WriteFile(filepath.Join(root, n), []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, f
}

// wantTree checks the files under root and that nothing else is there
// (no temporary, no directory left behind).
func wantTree(t *testing.T, root string, want map[string]string) {
	t.Helper()
	var names []string
	for _, p := range listAll(t, root) {
		names = append(names, p)
		if w, ok := want[p]; ok {
			if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != w {
				t.Errorf("%s = %q, want %q", p, b, w)
			}
		}
	}
	var wantNames []string
	for p := range want {
		wantNames = append(wantNames, p)
	}
	slices.Sort(wantNames)
	if !slices.Equal(names, wantNames) {
		t.Errorf("tree = %q, want %q", names, wantNames)
	}
}

// A batch that fails on one file while staging (before any rename)
// replaces nothing: no file changes, and neither the temporaries nor the
// directories created for other files stay.
func TestWriteFilesStagingFailureChangesNothing(t *testing.T) {
	root, f := batchTree(t)
	if err := os.Mkdir(filepath.Join(root, "dir.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	done, failed, err := f.WriteFiles(t.Context(), []FileWrite{
		{Path: "a.txt", Content: "A\n"},
		{Path: "new/deep/n.txt", Content: "N\n"},
		{Path: "dir.txt", Content: "D\n"}, // a directory: refused
		{Path: "c.txt", Content: "C\n"},
	})
	if err == nil || done != 0 || failed != 2 || !strings.Contains(err.Error(), "is a directory") {
		t.Fatalf("WriteFiles = %d, %d, %v; want 0, 2 and the directory refused", done, failed, err)
	}
	wantTree(t, root, map[string]string{"a.txt": "old\n", "b.txt": "old\n", "c.txt": "old\n", "dir.txt": ""})
}

// A batch stops at the first file whose check (or hook) refuses it: the
// files before it are written, it and the ones after are not, and no
// temporary or directory created for them stays.
func TestWriteFilesStopsAtARefusal(t *testing.T) {
	refuse := errors.New("refused")
	for _, tc := range []struct {
		name string
		hook bool
	}{{"check", false}, {"hook", true}} {
		t.Run(tc.name, func(t *testing.T) {
			root, f := batchTree(t)
			var order []string
			check := func(p string) func([]byte, bool) error {
				return func(cur []byte, exists bool) error {
					order = append(order, p)
					if p == "b.txt" && !tc.hook {
						return refuse
					}
					return nil
				}
			}
			if tc.hook {
				f = f.WithHooks(Hooks{BeforeOp: func(op, p, _ string) error {
					if p == "b.txt" {
						return refuse
					}
					return nil
				}})
			}
			done, failed, err := f.WriteFiles(t.Context(), []FileWrite{
				{Path: "a.txt", Content: "A\n", Check: check("a.txt")},
				{Path: "b.txt", Content: "B\n", Check: check("b.txt")},
				{Path: "new/n.txt", Content: "N\n", Check: check("new/n.txt")},
				{Path: "c.txt", Content: "C\n", Check: check("c.txt")},
			})
			if !errors.Is(err, refuse) || done != 1 || failed != 1 {
				t.Fatalf("WriteFiles = %d, %d, %v; want 1, 1, refused", done, failed, err)
			}
			if want := []string{"a.txt", "b.txt"}[:map[bool]int{false: 2, true: 1}[tc.hook]]; !slices.Equal(order, want) {
				t.Errorf("checks ran for %q, want %q", order, want)
			}
			wantTree(t, root, map[string]string{"a.txt": "A\n", "b.txt": "old\n", "c.txt": "old\n"})
		})
	}
}

// A batch larger than a round writes the earlier rounds whole before a
// refusal in a later one, and reports the files written across rounds.
func TestWriteFilesAcrossRounds(t *testing.T) {
	root, f := batchTree(t)
	refuse := errors.New("refused")
	stop := writeRound + 3
	var files []FileWrite
	want := map[string]string{"a.txt": "old\n", "b.txt": "old\n", "c.txt": "old\n"}
	for i := range writeRound + 6 {
		p := fmt.Sprintf("f%03d.txt", i)
		fw := FileWrite{Path: p, Content: p + "\n"}
		if i == stop {
			fw.Check = func([]byte, bool) error { return refuse }
		}
		if i < stop {
			want[p] = p + "\n"
		}
		files = append(files, fw)
	}
	done, failed, err := f.WriteFiles(t.Context(), files)
	if !errors.Is(err, refuse) || done != stop || failed != stop {
		t.Fatalf("WriteFiles = %d, %d, %v; want %d, %d, refused", done, failed, err, stop, stop)
	}
	wantTree(t, root, want)
}

// A canceled context stops a batch before the next rename.
func TestWriteFilesCanceled(t *testing.T) {
	root, f := batchTree(t)
	ctx, cancel := context.WithCancel(t.Context())
	done, failed, err := f.WriteFiles(ctx, []FileWrite{
		{Path: "a.txt", Content: "A\n", Check: func([]byte, bool) error { cancel(); return nil }},
		{Path: "b.txt", Content: "B\n"},
	})
	if !errors.Is(err, context.Canceled) || done != 1 || failed != 1 {
		t.Fatalf("WriteFiles = %d, %d, %v; want 1, 1, canceled", done, failed, err)
	}
	wantTree(t, root, map[string]string{"a.txt": "A\n", "b.txt": "old\n", "c.txt": "old\n"})
}
