package rootfs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
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

// FuzzGlobPrune checks that Glob's pruning never loses a match: for any
// valid pattern and path that doublestar matches, the walk enters every
// directory on the way to the path (version-control directories aside,
// which the walk skips unless the pattern names them).
func FuzzGlobPrune(f *testing.F) {
	for _, s := range [][2]string{
		{"**", "a/b/c"}, {"src/*/b.go", "src/sub/b.go"}, {"{a,b/c}/*.go", "b/c/x.go"},
		{"a/**/b/*", "a/x/y/b/z"}, {"[a-c]?/**", "bz/q"}, {`a\*/x`, "a*/x"}, {"*/.git/x", "p/.git/x"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, pattern, p string) {
		if !doublestar.ValidatePattern(pattern) || !utf8.ValidString(pattern) || !utf8.ValidString(p) {
			return // doublestar matches any invalid byte with any other
		}
		if _, err := Clean(p); err != nil {
			return
		}
		if ok, _ := doublestar.Match(pattern, p); !ok {
			return
		}
		g := newGlobber(pattern)
		segs := strings.Split(p, "/")
		for i := 1; i < len(segs); i++ {
			dir := strings.Join(segs[:i], "/")
			if g.base != "" && !strings.HasPrefix(dir+"/", g.base+"/") {
				continue // above the base: the walk starts below it
			}
			if dir == g.base {
				continue
			}
			if !g.vcs && slices.Contains(VCSDirs, segs[i-1]) {
				return
			}
			if !g.enter(dir, segs[i-1]) {
				t.Fatalf("pattern %q matches %q but the walk does not enter %q", pattern, p, dir)
			}
		}
		if g.base != "" && p != g.base && !strings.HasPrefix(p, g.base+"/") {
			t.Fatalf("pattern %q matches %q outside its base %q", pattern, p, g.base)
		}
	})
}
