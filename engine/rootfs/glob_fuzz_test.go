package rootfs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bmatcuk/doublestar/v4"
)

// globTreeFiles and globTreeLinks make the tree FuzzGlob globs: names with
// glob metacharacters, a directory named like a file, names that sort around
// "/" ("a-b.go" < "a.go" < "a/x.go" < "a0"), version-control directories at
// the top and below, a deep chain, and symlinks in, out, chained, looping
// and dangling. Files under "../outside" are outside the root.
var (
	globTreeFiles = []string{
		"a.go", "a-b.go", "a/x.go", "a0/y.go", "b.go", "c.txt", ".hidden.go",
		"x*y.go", "br{a}.go", "q[1].go", "que?.go",
		"src/a.go", "src/sub/b.go", "src/sub/deep/c.go", "src/sub/deep/d.txt", "src/.dot/e.go",
		"lib/c.go", "lib/a.go/f.txt",
		".git/config", ".git/objects/x.go", "pkg/.hg/y.go", "pkg/.svn/z.go", ".jj/w.go", "pkg/p.go",
		"d/d/d/d/leaf.go", "d/e.go",
		"../outside/o.go", "../outside/p/q.go",
	}
	globTreeLinks = map[string]string{
		"in.go":       "a.go",
		"alias":       "src",
		"alias2":      "alias",
		"out.go":      "../outside/o.go",
		"outdir":      "../outside",
		"src/loop":    "..",
		"src/esc":     "../../outside",
		"src/up.go":   "../b.go",
		"dead.go":     "missing.go",
		"lib/self":    ".",
		"pkg/deaddir": "nowhere",
	}
)

// globPatterns are FuzzGlob's seeds: every form the walk treats apart.
var globPatterns = []string{
	"**", "*", "**/*", "*.go", "**/*.go", "**/*.txt", "*/*.go", "*/*/*.go", "**/d/*.go",
	"src/**", "src/*", "src/*/*.go", "src/**/*.go", "src/sub/deep/*", "src/sub/**/c.go",
	"a*", "a*/*", "a/**", "a.go", "a-b.go", "a?go", "[ab].go", "[!a]*.go", "{a,b}.go", "{a,b,a}.go",
	`x\*y.go`, `br\{a\}.go`, `q\[1\].go`, `que\?.go`, "x*", "q*",
	"alias/**", "alias/*.go", "alias/sub/*.go", "alias2/**", "ali*/**", "{alias,lib}/*.go",
	"{src/sub,lib}/*.go", "{src,lib}/**", "src/loop/*.go", "src/loop/src/loop/a.go", "src/loop/**/b.go",
	"out*", "outdir/*", "outdir/**", "src/esc/**", "src/up.go", "dead.go", "lib/self/*",
	".git/**", ".git/*", "**/.git/**", "**/.hg/*.go", "pkg/**", "**/*.svn/*", ".jj/*", "*/.hg/*",
	"d/**/leaf.go", "**/leaf.go", "d/d/*/d/*", "lib/a.go/*", "lib/a.go", "pkg/deaddir/*", "nodir/**",
	"{*}*", "a/{*}*", `**0\/*`, "**c*****/*", "{,src/}*.go", "{a,{src,lib}/{sub,c}}*", "{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}{m,n}/*",
	"[ab", "{a,b", "../*", "/etc/*", "a//*", "./*",
}

// FuzzGlob compares Glob with refGlob, a walk without pruning that reads
// every directory under the pattern's literal base and keeps what
// doublestar.Match matches, on a tree of many shapes: same paths, same
// order.
func FuzzGlob(f *testing.F) {
	for _, p := range globPatterns {
		f.Add(p)
	}
	fsys := globTree(f)
	f.Fuzz(func(t *testing.T, pattern string) {
		if !utf8.ValidString(pattern) {
			return // doublestar matches any invalid byte with any other
		}
		if strings.Count(pattern, "{") > 6 {
			return // doublestar's time doubles with each brace group
		}
		got, err := fsys.Glob(pattern)
		if check(pattern, true) != nil || !doublestar.ValidatePattern(pattern) {
			if err == nil {
				t.Fatalf("Glob(%q) accepted an invalid pattern", pattern)
			}
			return
		}
		want, wantErr := refGlob(fsys, pattern)
		if (err == nil) != (wantErr == nil) {
			t.Fatalf("Glob(%q): error %v, want %v", pattern, err, wantErr)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("Glob(%q) =\n%q\nwant (a walk without pruning)\n%q", pattern, got, want)
		}
	})
}

// globTree writes the tree of globTreeFiles and globTreeLinks and returns
// the FS on its root.
func globTree(tb testing.TB) *FS {
	tb.Helper()
	tmp, err := os.MkdirTemp("", "fuzzglob")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(tmp) })
	tmp, _ = filepath.EvalSymlinks(tmp)
	root := filepath.Join(tmp, "root")
	for _, p := range globTreeFiles {
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for link, target := range globTreeLinks {
		if err := os.Symlink(target, filepath.Join(root, filepath.FromSlash(link))); err != nil {
			tb.Fatal(err)
		}
	}
	fsys, err := New(root)
	if err != nil {
		tb.Fatal(err)
	}
	return fsys
}

// refGlob is what Glob must return, computed the slow way: walk everything
// under the pattern's literal base (resolved through links inside the root),
// follow no other symlink, and keep the regular files (and symlinks to
// regular files inside the root) that doublestar matches, leaving out those
// under a version-control directory the pattern does not name.
func refGlob(f *FS, pattern string) ([]string, error) {
	base, _ := doublestar.SplitPattern(pattern)
	if base == "." || strings.ContainsRune(base, '\\') {
		base = ""
	}
	start := f.Root()
	if base != "" {
		abs, err := f.Abs(base)
		if errors.Is(err, ErrOutsideRoot) {
			return []string{}, nil
		} else if err != nil {
			return nil, err // a base that cannot be resolved (too long a name, a link loop)
		}
		start = abs
	}
	named := slices.ContainsFunc(strings.Split(pattern, "/"), func(s string) bool { return slices.Contains(VCSDirs, s) })
	out := []string{}
	_ = filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(start, p)
		rel = strings.TrimPrefix(strings.TrimSuffix(base+"/"+filepath.ToSlash(rel), "/."), "/")
		dirs := strings.Split(rel, "/")
		dirs = dirs[:len(dirs)-1]
		if !named && slices.ContainsFunc(dirs, func(s string) bool { return slices.Contains(VCSDirs, s) }) {
			return nil
		}
		file := d.Type().IsRegular() || d.Type()&fs.ModeSymlink != 0 && f.regularInside(rel)
		if ok, _ := doublestar.Match(pattern, rel); ok && file {
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out, nil
}

// The reference is not vacuous: the seeds match across the tree's shapes.
func TestGlobReference(t *testing.T) {
	fsys := globTree(t)
	for pattern, want := range map[string][]string{
		"**": {".hidden.go", "a-b.go", "a.go", "a/x.go", "a0/y.go", "b.go", "br{a}.go", "c.txt",
			"d/d/d/d/leaf.go", "d/e.go", "in.go", "lib/a.go/f.txt", "lib/c.go", "pkg/p.go",
			"q[1].go", "que?.go", "src/.dot/e.go", "src/a.go", "src/sub/b.go", "src/sub/deep/c.go",
			"src/sub/deep/d.txt", "src/up.go", "x*y.go"},
		"alias2/*.go":            {"alias2/a.go", "alias2/up.go"},
		"src/loop/src/loop/a.go": {"src/loop/src/loop/a.go"},
		"**/.hg/*.go":            {"pkg/.hg/y.go"},
		`x\*y.go`:                {"x*y.go"},
		"outdir/**":              {},
	} {
		if got, _ := refGlob(fsys, pattern); !slices.Equal(got, want) {
			t.Errorf("refGlob(%q) = %q, want %q", pattern, got, want)
		}
	}
}
