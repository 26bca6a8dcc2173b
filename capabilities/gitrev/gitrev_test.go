package gitrev

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
)

// git runs git in dir for the test's own setup.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@t"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// Bases lists exactly the files whose content at the revision differs
// from the disk, under the root (a subdirectory of the repository): a
// changed file with its old content, a deleted one with its content, an
// added one as no file; unchanged files, files outside the root and
// symlinks not at all.
func TestBases(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	repo := testtree.New(t, map[string]string{
		"outside.go":       "package outside\n",
		"root/same.go":     "package r\n",
		"root/changed.go":  "package r\n\nvar X = 1\n",
		"root/gone.go":     "package r\n\nvar Y = 2\n",
		"root/sub/crlf.go": "package sub\r\n",
	})
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "base")
	testtree.Write(t, repo, map[string]string{
		"outside.go":      "package outside // changed\n",
		"root/changed.go": "package r\n\nvar X = 10\n",
		"root/new.go":     "package r\n",
	})
	if err := os.Remove(filepath.Join(repo, "root/gone.go")); err != nil {
		t.Fatal(err)
	}
	fsys, err := rootfs.New(filepath.Join(repo, "root"))
	if err != nil {
		t.Fatal(err)
	}
	src, err := Open(context.Background(), fsys, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	if len(src.Commit()) != 40 || src.Name() != "HEAD" {
		t.Errorf("commit %q, name %q", src.Commit(), src.Name())
	}
	got, err := src.Bases(context.Background(), []string{"same.go", "new.go", "changed.go"})
	if err != nil {
		t.Fatal(err)
	}
	if keys := slices.Sorted(maps.Keys(got)); !slices.Equal(keys, []string{"changed.go", "gone.go", "new.go"}) {
		t.Fatalf("bases of %v, want changed.go, gone.go and new.go", keys)
	}
	if b := got["changed.go"]; !b.Exists || string(b.Content) != "package r\n\nvar X = 1\n" {
		t.Errorf("changed.go: %+v", b)
	}
	if b := got["gone.go"]; !b.Exists || string(b.Content) != "package r\n\nvar Y = 2\n" {
		t.Errorf("gone.go: %+v", b)
	}
	if b := got["new.go"]; b.Exists || b.Content != nil {
		t.Errorf("new.go: %+v, want no file at the revision", b)
	}

	if _, err := Open(context.Background(), fsys, "nope"); err == nil {
		t.Error("Open of a revision that does not exist succeeded")
	}
}

// A file whose content at the revision is larger than what is read of
// one is not read into memory: Bases fails, saying which file and what to
// do (the answer then counts every finding as introduced).
func TestBasesRefusesALargeBlob(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	repo := testtree.New(t, map[string]string{"big.go": "package r\n\n// " + strings.Repeat("x", 200) + "\n", "small.go": "package r\n"})
	git(t, repo, "init", "-q")
	git(t, repo, "add", "-A")
	git(t, repo, "commit", "-qm", "base")
	testtree.Write(t, repo, map[string]string{"big.go": "package r\n"})
	fsys, err := rootfs.New(repo)
	if err != nil {
		t.Fatal(err)
	}
	src, err := Open(context.Background(), fsys, "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	defer func(n int64) { maxFileBytes = n }(maxFileBytes)
	maxFileBytes = 100
	_, err = src.Bases(context.Background(), []string{"big.go"})
	if err == nil || !strings.Contains(err.Error(), "big.go") {
		t.Fatalf("Bases of a file over the limit at the revision: %v", err)
	}
}
