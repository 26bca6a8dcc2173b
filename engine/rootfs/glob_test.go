package rootfs

import (
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bmatcuk/doublestar/v4"
)

func TestGlob(t *testing.T) {
	f, tmp := newTree(t)
	root := f.Root()
	for _, p := range []string{"b.go", "a.go", "c.txt", "pkg/z.go", "pkg/deep/y.go", "pkg/deep/x.txt", ".hidden.go"} {
		mustMkdir(t, filepath.Dir(filepath.Join(root, p)))
		mustWrite(t, filepath.Join(root, p), p)
	}
	mustMkdir(t, filepath.Join(root, "dir.go")) // a directory that matches *.go
	outside := filepath.Join(tmp, "outside")
	mustWrite(t, filepath.Join(outside, "o.go"), "o")
	mustSymlink(t, outside, filepath.Join(root, "pkg", "outdir"))                     // dir out
	mustSymlink(t, filepath.Join(outside, "o.go"), filepath.Join(root, "out.go"))     // file out
	mustSymlink(t, "../../outside/o.go", filepath.Join(root, "pkg", "rel.go"))        // file out, relative
	mustSymlink(t, "a.go", filepath.Join(root, "in.go"))                              // file in
	mustSymlink(t, "..", filepath.Join(root, "pkg", "loop"))                          // loop
	mustSymlink(t, filepath.Join(root, "missing.go"), filepath.Join(root, "dead.go")) // dangling

	tests := []struct {
		pattern string
		want    []string
	}{
		{"*.go", []string{".hidden.go", "a.go", "b.go", "in.go"}},
		{"**/*.go", []string{".hidden.go", "a.go", "b.go", "in.go", "pkg/deep/y.go", "pkg/z.go"}},
		{"pkg/**", []string{"pkg/deep/x.txt", "pkg/deep/y.go", "pkg/z.go"}},
		{"pkg/*", []string{"pkg/z.go"}},
		{"pkg/outdir/*", []string{}},
		{"{a,b,a}.go", []string{"a.go", "b.go"}},
		{"*.rs", []string{}},
		{"nodir/**", []string{}},
		{"[ab].go", []string{"a.go", "b.go"}},
	}
	for _, tt := range tests {
		got, err := f.Glob(tt.pattern)
		if err != nil {
			t.Errorf("Glob(%q): %v", tt.pattern, err)
			continue
		}
		if got == nil {
			got = []string{}
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Glob(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
	for _, bad := range []string{"[ab", "{a,b", "../*", "/etc/*", "a//*", "./*", "C:/*", "//srv/*", "a\x00*"} {
		_, err := f.Glob(bad)
		if err == nil {
			t.Errorf("Glob(%q) accepted", bad)
			continue
		}
		if !strings.Contains(err.Error(), quoted(bad)) {
			t.Errorf("Glob(%q) error %q does not name the pattern", bad, err)
		}
	}
	if _, err := f.Glob("[ab"); !errors.Is(err, doublestar.ErrBadPattern) {
		t.Errorf("bad pattern error %v does not wrap ErrBadPattern", err)
	}
}

// Glob's walk prunes what cannot match without losing what can: a literal
// base through an inside symlink, alternatives with a "/", version-control
// directories only when named, and a deep tree.
func TestGlobWalk(t *testing.T) {
	f, _ := newTree(t)
	root := f.Root()
	deep := strings.Repeat("d/", 40) + "leaf.go"
	for _, p := range []string{"src/a.go", "src/sub/b.go", "lib/c.go", ".git/config", ".git/x.go", "pkg/.hg/y.go", deep} {
		mustMkdir(t, filepath.Dir(filepath.Join(root, filepath.FromSlash(p))))
		mustWrite(t, filepath.Join(root, filepath.FromSlash(p)), p)
	}
	mustSymlink(t, "src", filepath.Join(root, "alias"))
	tests := []struct {
		pattern string
		want    []string
	}{
		{"alias/*.go", []string{"alias/a.go"}},
		{"alias/**/*.go", []string{"alias/a.go", "alias/sub/b.go"}},
		{"{src/sub,lib}/*.go", []string{"lib/c.go", "src/sub/b.go"}},
		{"src/*/b.go", []string{"src/sub/b.go"}},
		{"**/x.go", []string{}},
		{".git/*", []string{".git/config", ".git/x.go"}},
		{"**/.hg/*.go", []string{"pkg/.hg/y.go"}},
		{"d/**/leaf.go", []string{deep}},
		{"**/leaf.go", []string{deep}},
		{"s?c/a.go", []string{"src/a.go"}},
	}
	for _, tt := range tests {
		got, err := f.Glob(tt.pattern)
		if err != nil {
			t.Errorf("Glob(%q): %v", tt.pattern, err)
			continue
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Glob(%q) = %q, want %q", tt.pattern, got, tt.want)
		}
	}
}

func TestCheckNew(t *testing.T) {
	ok := strings.Repeat("d/", MaxNewDepth-1) + "f"
	if err := CheckNew(ok); err != nil {
		t.Errorf("CheckNew(%d segments): %v", MaxNewDepth, err)
	}
	for _, tc := range []struct{ p, why string }{
		{ok + "/g", "65 segments deep; a created path has at most 64"},
		{strings.Repeat("abcdefghi/", 60) + strings.Repeat("y", 500), "bytes long; a created path has at most 1024"},
		{strings.Repeat("x", 256), "256-byte segment; a segment has at most 255"},
		{"../x", `".." segments`},
	} {
		err := CheckNew(tc.p)
		if err == nil || !strings.Contains(err.Error(), tc.why) {
			t.Errorf("CheckNew(%.20q...) = %v, want %q", tc.p, err, tc.why)
		}
	}
}

// A directory the pattern cannot match below is never read: the walk
// starts at the literal base and skips what pruning excludes, and each
// directory it enters is read once.
func TestGlobReadsOnlyWhatCanMatch(t *testing.T) {
	fsys := globTree(t)
	for _, tc := range []struct {
		pattern string
		reads   []string
	}{
		{"src/*.go", []string{"src"}},
		{"src/sub/**", []string{"src/sub", "src/sub/deep"}},
		{"*.go", []string{""}},
		{"*/*.go", []string{"", "a", "a0", "d", "lib", "pkg", "src"}},
		{"{src/sub,lib}/*.go", []string{"", "lib", "src", "src/sub"}},
		{"alias/sub/*.go", []string{"src/sub"}},
		{"d/**/leaf.go", []string{"d", "d/d", "d/d/d", "d/d/d/d"}},
		{"**/*.go", []string{"", "a", "a0", "d", "d/d", "d/d/d", "d/d/d/d", "lib", "lib/a.go",
			"pkg", "src", "src/.dot", "src/sub", "src/sub/deep"}}, // no .git, .hg, .svn, .jj
	} {
		var reads []string
		count := func(abs string) ([]fs.DirEntry, error) {
			rel, _ := filepath.Rel(fsys.Root(), abs)
			reads = append(reads, strings.TrimPrefix(filepath.ToSlash(rel), "."))
			return readDir(abs)
		}
		if _, err := fsys.glob(tc.pattern, count, nil); err != nil {
			t.Fatalf("Glob(%q): %v", tc.pattern, err)
		}
		if !reflect.DeepEqual(reads, tc.reads) {
			t.Errorf("Glob(%q) read %q, want %q", tc.pattern, reads, tc.reads)
		}
	}
}

// Walk yields every entry once, in sorted path order (a directory where
// its files sort, as if its name ended in "/"), follows no symlink,
// and honours fs.SkipDir (a directory; the rest of a directory) and
// fs.SkipAll.
func TestWalk(t *testing.T) {
	fsys := globTree(t)
	var all, keys []string // keys: a directory's path with a "/", where its files sort
	if err := fsys.Walk(func(rel string, d fs.DirEntry) error {
		all, keys = append(all, rel), append(keys, rel)
		if d.IsDir() {
			keys[len(keys)-1] += "/"
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if !slices.IsSorted(keys) || slices.Contains(all, "alias/a.go") || !slices.Contains(all, "alias") || !slices.Contains(all, ".git/objects/x.go") {
		t.Errorf("Walk = %q: want sorted, links as entries, none entered, version control included", all)
	}
	var got []string
	err := fsys.Walk(func(rel string, d fs.DirEntry) error {
		got = append(got, rel)
		switch rel {
		case "a", "src/.dot":
			return fs.SkipDir
		case "d/d/d/d/leaf.go":
			return fs.SkipDir // the rest of d/d/d/d, of which there is none
		case "lib":
			return fs.SkipAll
		}
		return nil
	})
	want := []string{".git", ".git/config", ".git/objects", ".git/objects/x.go", ".hidden.go", ".jj", ".jj/w.go",
		"a-b.go", "a.go", "a", "a0", "a0/y.go", "alias", "alias2", "b.go", "br{a}.go", "c.txt",
		"d", "d/d", "d/d/d", "d/d/d/d", "d/d/d/d/leaf.go", "d/e.go", "dead.go", "in.go", "lib"}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("Walk with skips = %q, %v; want %q", got, err, want)
	}
	boom := errors.New("boom")
	if err := fsys.Walk(func(string, fs.DirEntry) error { return boom }); err != boom {
		t.Errorf("Walk = %v, want fn's error", err)
	}
}
