package gitignore

import (
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// treeFiles is a repository's files: nested .gitignore files, the
// repository's own exclude file, and files each rule keeps or drops.
var treeFiles = map[string]string{
	ExcludeFile:             "*.secret\n*.gen\n/scratch/\n",
	".gitignore":            rootIgnore + "node_modules/\n!keep.gen\n",
	"sub/.gitignore":        subIgnore,
	"sub/deeper/.gitignore": "*.py\n!main.py\n",
	"a.log":                 "", "keep.log": "", "keep.gen": "", "other.gen": "", "k.secret": "",
	"scratch/s.go": "", "sub/scratch/s.go": "",
	"node_modules/p/x.json": "", "web/node_modules/q/y.json": "",
	"sub/b.log": "", "sub/important.log": "", "sub/x.tmp": "", "sub/local/f": "", "sub/q/local": "",
	"sub/deeper/a.py": "", "sub/deeper/main.py": "", "sub/deeper/x.tmp": "", "sub/deeper/b.log": "",
	"build/x": "", "sub/build/y": "", "doc/r.txt": "", "doc/more/r.txt": "",
	"x/y/f": "", "x/keep": "", "src/deep/f": "", "src/main.go": "", "README.md": "",
}

// walkTree lists the files a walk of dir finds that t does not ignore,
// entering no ignored directory and no .git, as search does.
func walkTree(t *testing.T, dir string, tree *Tree) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if d.Name() == ".git" || tree.Ignored(rel, true) {
				return fs.SkipDir
			}
			return nil
		}
		if !tree.Ignored(rel, false) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// diskReader reads the tree's ignore files from dir, counting the reads.
func diskReader(dir string, reads map[string]int) func(string) ([]byte, bool) {
	return func(p string) ([]byte, bool) {
		reads[p]++
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(p)))
		return data, err == nil
	}
}

// A walk that asks a Tree finds the files git lists as not ignored (git
// ls-files --others --exclude-standard: nested .gitignore files and
// .git/info/exclude, which a .gitignore can override), reading each
// ignore file once.
func TestTreeLikeGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is not installed; this test compares with it")
	}
	dir := t.TempDir()
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v: %s", err, out)
	}
	for p, c := range treeFiles {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command("git", "ls-files", "--others", "--exclude-standard")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files: %v", err)
	}
	want := strings.Fields(string(out))
	slices.Sort(want)

	reads := map[string]int{}
	got := walkTree(t, dir, NewTree(diskReader(dir, reads)))
	if !slices.Equal(got, want) {
		t.Errorf("the walk keeps\n%v\ngit keeps\n%v", got, want)
	}
	for p, n := range reads {
		if n != 1 {
			t.Errorf("%s read %d times in one walk, want once", p, n)
		}
	}
	if reads[ExcludeFile] != 1 || reads["sub/deeper/.gitignore"] != 1 {
		t.Errorf("the exclude file or a nested .gitignore was not read: %v", reads)
	}
	if slices.Contains(got, "k.secret") || !slices.Contains(got, "keep.gen") || slices.Contains(got, "other.gen") {
		t.Errorf("the exclude file's rules, or a .gitignore's re-inclusion over them, do not hold: %v", got)
	}
}

// Questions in any order (a walk that starts below the root, a path asked
// about after a deeper one) get the answers a walk from the root gets.
func TestTreeAnyOrder(t *testing.T) {
	files := map[string]string{}
	for p, c := range treeFiles {
		if path.Base(p) == ".gitignore" || p == ExcludeFile {
			files[p] = c
		}
	}
	read := func(p string) ([]byte, bool) { c, ok := files[p]; return []byte(c), ok }
	cases := []struct {
		rel     string
		dir     bool
		ignored bool
	}{
		{"sub/deeper/a.py", false, true}, {"sub/deeper/main.py", false, false}, {"a.log", false, true},
		{"sub/important.log", false, false}, {"sub/deeper/b.log", false, true}, {"keep.gen", false, false},
		{"web/node_modules", true, true}, {"scratch", true, true}, {"sub/scratch", true, false},
		{"sub/deeper/x.tmp", false, true}, {"x.tmp", false, false}, {"k.secret", false, true},
	}
	tree := NewTree(read)
	for _, c := range cases {
		if got := tree.Ignored(c.rel, c.dir); got != c.ignored {
			t.Errorf("%s: ignored %v, want %v", c.rel, got, c.ignored)
		}
	}
	slices.Reverse(cases)
	for _, c := range cases {
		if got := tree.Ignored(c.rel, c.dir); got != c.ignored {
			t.Errorf("%s, asked again in reverse order: ignored %v, want %v", c.rel, got, c.ignored)
		}
	}
}
