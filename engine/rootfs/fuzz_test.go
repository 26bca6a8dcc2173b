package rootfs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var fuzzSeeds = []string{
	"a", "a/b", "..", "a/../b", "/x", "a//b", "./a", "a/.", "a\x00b", `a\b`, "C:", "c:/x",
	"//server/share", `\\server`, "link/x", "out/secret.txt", "loop/loop/x", "sub/in.txt",
	"up/x", "sub/../../x", "ünï", "..a", "a:b", "",
}

func FuzzClean(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := Clean(p)
		if err != nil {
			if !strings.Contains(err.Error(), quoted(p)) {
				t.Errorf("error %q does not name %q", err, p)
			}
			return
		}
		if got != p {
			t.Fatalf("Clean(%q) rewrote it to %q", p, got)
		}
		if strings.ContainsAny(p, "\x00\\") || strings.HasPrefix(p, "/") || filepath.IsAbs(p) {
			t.Fatalf("Clean accepted %q", p)
		}
		if path := filepath.ToSlash(filepath.Clean(filepath.FromSlash(p))); path != p {
			t.Fatalf("Clean accepted %q, which is not clean (%q)", p, path)
		}
	})
}

// FuzzAbs resolves arbitrary paths in a tree with symlinks in and out of the
// root, loops and a "-evil" sibling.
func FuzzAbs(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	tmp, err := os.MkdirTemp("", "fuzzabs")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { os.RemoveAll(tmp) })
	tmp, _ = filepath.EvalSymlinks(tmp)
	root := filepath.Join(tmp, "root")
	for _, d := range []string{"root/sub/deep", "root-evil", "outside"} {
		if err := os.MkdirAll(filepath.Join(tmp, d), 0o755); err != nil {
			f.Fatal(err)
		}
	}
	links := map[string]string{
		"root/link":     "sub",
		"root/out":      "../outside",
		"root/evil":     "../root-evil",
		"root/abs":      filepath.Join(root, "sub"),
		"root/absout":   "/",
		"root/loop":     "loop",
		"root/sub/up":   "../..",
		"root/sub/self": ".",
		"root/sub/back": "../../root/sub",
	}
	for l, target := range links {
		if err := os.Symlink(target, filepath.Join(tmp, l)); err != nil {
			f.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "sub", "in.txt"), []byte("x"), 0o644); err != nil {
		f.Fatal(err)
	}
	fsys, err := New(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		abs, err := fsys.Abs(p)
		if err != nil {
			return
		}
		if strings.IndexByte(abs, 0) >= 0 {
			t.Fatalf("Abs(%q) = %q contains NUL", p, abs)
		}
		r, err := filepath.Rel(root, abs)
		if err != nil || r == ".." || strings.HasPrefix(r, "../") || !filepath.IsAbs(abs) {
			t.Fatalf("Abs(%q) = %q is outside %q", p, abs, root)
		}
		// The kernel agrees, for what exists.
		if real, err := filepath.EvalSymlinks(abs); err == nil && real != abs {
			t.Fatalf("Abs(%q) = %q, but it resolves to %q", p, abs, real)
		}
	})
}
