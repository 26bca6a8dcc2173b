package rootfs_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/engine/rootfs"
)

// TestOutsideLinks: the symlinks that leave the root, to files or
// directories, existing or not, are listed; those that stay inside are not;
// skipped directories are not entered.
func TestOutsideLinks(t *testing.T) {
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root := filepath.Join(base, "root")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "a", ".git"), 0o755))
	must(os.MkdirAll(filepath.Join(base, "outside"), 0o755))
	must(os.WriteFile(filepath.Join(base, "outside", "secret.go"), []byte("x"), 0o644))
	must(os.WriteFile(filepath.Join(root, "in.go"), []byte("package in\n"), 0o644))
	links := map[string]string{
		"leak.go":        "../outside/secret.go",
		"a/abs.go":       filepath.Join(base, "outside", "secret.go"),
		"a/dir":          "../../outside",
		"a/dangling.go":  "../../outside/none.go",
		"a/back.go":      "../../root/in.go", // through the parent, back inside
		"inside.go":      "in.go",
		"a/inside.go":    "../in.go",
		"a/.git/leak.go": "../../../outside/secret.go",
	}
	for p, target := range links {
		must(os.Symlink(target, filepath.Join(root, p)))
	}
	fsys, err := rootfs.New(root)
	must(err)
	got := fsys.OutsideLinks(rootfs.SkipDir)
	want := []string{"a/abs.go", "a/dangling.go", "a/dir", "leak.go"}
	if !slices.Equal(got, want) {
		t.Fatalf("OutsideLinks = %q, want %q", got, want)
	}
	for p, leaves := range map[string]bool{"leak.go": true, "a/dir/secret.go": true, "in.go": false, "a/inside.go": false, "new.go": false} {
		if fsys.Leaves(p) != leaves {
			t.Errorf("Leaves(%q) = %v, want %v", p, !leaves, leaves)
		}
		if _, ok := fsys.Inside(filepath.Join(root, p)); ok == leaves {
			t.Errorf("Inside(%q) = %v, want %v", p, ok, !leaves)
		}
	}
	for _, abs := range []string{root, base, filepath.Join(base, "outside", "secret.go"), root + "-evil/x.go"} {
		if _, ok := fsys.Inside(abs); ok {
			t.Errorf("Inside(%q) = true", abs)
		}
	}
}
