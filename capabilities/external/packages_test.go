package external

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// pkgCase is a {packages} expansion: the files asked about (path and
// content), the other files of the view, the command's directory and
// environment.
type pkgCase struct {
	name  string
	files map[string]string
	other []string
	dir   string
	env   []string
	argv  []string
	want  []string
}

const plain = "package p\n"

func TestPackagesPlaceholder(t *testing.T) {
	many := map[string]string{}
	for i := range 3000 {
		many[strings.Repeat("d", 20)+"/"+strings.Repeat("x", 8)+string(rune('a'+i%26))+"/"+strings.Repeat("y", i/26+1)+"/f.go"] = plain
	}
	for _, c := range []pkgCase{
		{name: "one file", files: map[string]string{"analysis/code/code.go": plain}, want: []string{"./analysis/code"}},
		{name: "directories once, sorted", files: map[string]string{"b/c/z.go": plain, "a/x.go": plain, "a/x_test.go": plain, "main.go": plain},
			want: []string{".", "./a", "./b/c"}},
		{name: "what ./... passes over", files: map[string]string{
			"a/testdata/x.go": plain, "vendor/m/x.go": plain, "_old/x.go": plain, ".cache/x.go": plain,
			"a/_x.go": plain, "a/.x.go": plain, "ok/x.go": plain,
		}, want: []string{"./ok"}},
		{name: "nested module", files: map[string]string{"sub/p/x.go": plain, "sub/x.go": plain, "p/x.go": plain},
			other: []string{"sub/go.mod", "p/go.sum"}, want: []string{"./p"}},
		{name: "nested module in a go.work", files: map[string]string{"sub/p/x.go": plain},
			other: []string{"sub/go.mod", "go.work"}, want: []string{"./sub/p"}},
		{name: "build constraints", files: map[string]string{
			"gen.go": "//go:build ignore\n\npackage main\n", "w/x_windows.go": plain, "l/x_linux.go": plain,
			"tagged/x.go": "//go:build integration\n\npackage p\n",
		}, env: []string{"GOOS=linux"}, want: []string{"./l"}},
		{name: "tags from GOFLAGS", files: map[string]string{"tagged/x.go": "//go:build integration\n\npackage p\n"},
			env: []string{"GOFLAGS=-mod=mod -tags=integration,other"}, want: []string{"./tagged"}},
		{name: "tags from the command", files: map[string]string{"tagged/x.go": "//go:build integration\n\npackage p\n"},
			argv: []string{"go", "vet", "-tags", "integration", "{packages}"}, want: []string{"./tagged"}},
		{name: "GOOS from the driver's env", files: map[string]string{"w/x_windows.go": plain}, env: []string{"GOOS=windows"},
			want: []string{"./w"}},
		{name: "a syntax error is go vet's to report", files: map[string]string{"bad/x.go": "package"}, want: []string{"./bad"}},
		{name: "not a Go source file", files: map[string]string{"doc/x.txt": "hi"}, want: nil},
		{name: "under the command's dir", dir: "tools", files: map[string]string{"tools/a/x.go": plain, "tools/x.go": plain, "other/x.go": plain},
			want: []string{".", "./a"}},
		{name: "no file is the whole tree", files: map[string]string{}, want: []string{"./..."}},
		{name: "too many directories for one command line", files: many, want: []string{"./..."}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := expandPackages(c)
			if !slices.Equal(got, c.want) {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// expandPackages runs the expansion of c.
func expandPackages(c pkgCase) []string {
	argv := c.argv
	if argv == nil {
		argv = []string{"go", "vet", "{packages}"}
	}
	var files []string
	for p := range c.files {
		files = append(files, p)
	}
	slices.Sort(files)
	g := goPackages{
		dir:  c.dir,
		ctx:  buildContext(argv, c.env),
		has:  func(p string) bool { _, ok := c.files[p]; return ok || slices.Contains(c.other, p) },
		read: func(p string) []byte { return []byte(c.files[p]) },
	}
	g.work = g.has(path.Join(c.dir, "go.work")) || g.has("go.work")
	out, _ := g.patternsLeft(files)
	return out
}

func TestPackagesNeedsAWholeArgument(t *testing.T) {
	cfg := defaults(t).Drivers["go-vet"]
	bad := *cfg
	bad.Command = []string{"go", "vet", "-x={packages}"}
	if _, err := New("vet", &bad, envFor(t)); err == nil || !strings.Contains(err.Error(), "{packages} must be a whole argument") {
		t.Errorf("New: %v", err)
	}
}

// FuzzPackages: whatever the paths, every pattern is "./...", "." or
// "./" and a clean relative path that ./... would match, once, in order.
func FuzzPackages(f *testing.F) {
	f.Add("a/x.go\nb/testdata/y.go\n_z/x.go", "GOFLAGS=-tags=a,b", "")
	f.Add("x.go\n../y.go\n/abs.go\na//b.go", "GOOS=plan9", "sub")
	f.Fuzz(func(t *testing.T, paths, env, dir string) {
		files := map[string]string{}
		for _, p := range strings.Split(paths, "\n") {
			files[p] = plain
		}
		got := expandPackages(pkgCase{files: files, env: strings.Split(env, "\n"), dir: dir})
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("not sorted and unique: %q", got)
		}
		for _, p := range got {
			if p == "./..." || p == "." {
				continue
			}
			rel, ok := strings.CutPrefix(p, "./")
			if !ok || path.Clean(rel) != rel || !isLocal(rel) || rel == "." {
				t.Fatalf("pattern %q is not ./ and a clean relative path", p)
			}
			for _, seg := range strings.Split(rel, "/") {
				if seg == "testdata" || seg == "vendor" || strings.HasPrefix(seg, ".") || strings.HasPrefix(seg, "_") {
					t.Fatalf("pattern %q names a directory ./... passes over", p)
				}
			}
		}
	})
}
