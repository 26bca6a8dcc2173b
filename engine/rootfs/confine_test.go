package rootfs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newTree makes <tmp>/root and <tmp>/root-evil (a sibling sharing the
// root's name as a prefix) and <tmp>/outside, each holding a secret file,
// and returns the FS on root plus the tmp dir.
func newTree(t *testing.T) (*FS, string) {
	t.Helper()
	tmp, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{"root/sub", "root-evil", "outside"} {
		mustMkdir(t, filepath.Join(tmp, d))
	}
	mustWrite(t, filepath.Join(tmp, "root-evil", "secret.txt"), "evil\n")
	mustWrite(t, filepath.Join(tmp, "outside", "secret.txt"), "secret\n")
	mustWrite(t, filepath.Join(tmp, "root", "sub", "in.txt"), "inside\n")
	f, err := New(filepath.Join(tmp, "root"))
	if err != nil {
		t.Fatal(err)
	}
	return f, tmp
}

func mustMkdir(t *testing.T, p string) {
	t.Helper()
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func readString(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestClean(t *testing.T) {
	valid := []string{"a", "a/b", "a/b.go", ".hidden", "a/.b", "..foo", "a/..b", "ab:c", "a/b:c", "ab:/c", "dir/file with space", "ünï/cödé"}
	for _, p := range valid {
		got, err := Clean(p)
		if err != nil || got != p {
			t.Errorf("Clean(%q) = %q, %v; want it unchanged", p, got, err)
		}
	}
	invalid := map[string]string{
		"":               "empty",
		"/x":             "absolute",
		"/":              "absolute",
		"..":             `".."`,
		"../x":           `".."`,
		"a/../b":         `".." segments are not allowed; give a path relative to the root without ".."`,
		"a/..":           `".."`,
		"a//b":           "empty path segment",
		"a/":             "empty path segment",
		"./a":            `"."`,
		"a/.":            `"."`,
		".":              `"."`,
		"a\x00b":         "NUL",
		`a\b`:            "backslash",
		`..\x`:           "backslash",
		"C:":             "drive letter",
		"c:/x":           "drive letter",
		`C:\x`:           "drive letter",
		"z:foo":          "drive letter",
		"//server/share": "UNC",
		`\\server\share`: "UNC",
		`\\server`:       "UNC",
	}
	for p, why := range invalid {
		_, err := Clean(p)
		if err == nil {
			t.Errorf("Clean(%q) accepted", p)
			continue
		}
		assertRefusal(t, err, p, why)
	}
}

// assertRefusal checks that err is a *PathError naming path, wrapping
// ErrOutsideRoot, whose message contains why.
func assertRefusal(t *testing.T, err error, path, why string) {
	t.Helper()
	var pe *PathError
	if !errors.As(err, &pe) {
		t.Errorf("%q: error %v (%T) is not a *PathError", path, err, err)
		return
	}
	if !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("%q: error %v does not wrap ErrOutsideRoot", path, err)
	}
	if pe.Path != path {
		t.Errorf("%q: PathError.Path = %q", path, pe.Path)
	}
	msg := err.Error()
	if !strings.Contains(msg, quoted(path)) {
		t.Errorf("%q: message %q does not name the path", path, msg)
	}
	if !strings.Contains(msg, why) {
		t.Errorf("%q: message %q does not contain %q", path, msg, why)
	}
}

// quoted is how error messages show a path.
func quoted(s string) string { return fmt.Sprintf("%q", s) }

func TestPathErrorMessage(t *testing.T) {
	_, err := Clean("a/../b")
	want := `path "a/../b": ".." segments are not allowed; give a path relative to the root without ".."`
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %s", err, want)
	}
	f, _ := newTree(t)
	_, _, err = f.ReadFile("a/../b")
	if err == nil || !strings.HasPrefix(err.Error(), `read "a/../b": `) {
		t.Errorf("ReadFile error %v does not start with the op and path", err)
	}
}

func TestIsGlob(t *testing.T) {
	for p, want := range map[string]bool{"a.go": false, "*.go": true, "a/**": true, "a?.go": true, "[ab].go": true, "{a,b}.go": true, "a/b": false} {
		if got := IsGlob(p); got != want {
			t.Errorf("IsGlob(%q) = %v", p, got)
		}
	}
}

func TestNew(t *testing.T) {
	f, tmp := newTree(t)
	if f.Root() != filepath.Join(tmp, "root") {
		t.Errorf("Root() = %q", f.Root())
	}
	// A root given through a symlink is stored resolved.
	mustSymlink(t, filepath.Join(tmp, "root"), filepath.Join(tmp, "alias"))
	g, err := New(filepath.Join(tmp, "alias"))
	if err != nil {
		t.Fatal(err)
	}
	if g.Root() != f.Root() {
		t.Errorf("Root() via symlink = %q, want %q", g.Root(), f.Root())
	}
	if _, err := New(filepath.Join(tmp, "missing")); err == nil {
		t.Error("New accepted a missing root")
	}
	if _, err := New(filepath.Join(tmp, "outside", "secret.txt")); err == nil {
		t.Error("New accepted a file as root")
	}
}

// TestEscapes tries every way out of the root for every operation.
func TestEscapes(t *testing.T) {
	f, tmp := newTree(t)
	root := f.Root()
	outside := filepath.Join(tmp, "outside")
	mustSymlink(t, outside, filepath.Join(root, "dirlink"))                            // directory out
	mustSymlink(t, filepath.Join(outside, "secret.txt"), filepath.Join(root, "flink")) // file out, absolute
	mustSymlink(t, "../outside/secret.txt", filepath.Join(root, "rlink"))              // file out, relative
	mustSymlink(t, "../../outside", filepath.Join(root, "sub", "up"))                  // nested, relative
	mustSymlink(t, filepath.Join(outside, "new.txt"), filepath.Join(root, "dangling")) // dangling, out
	mustSymlink(t, "../root-evil", filepath.Join(root, "evil"))                        // the sibling prefix
	mustSymlink(t, "dirlink/../root/sub/in.txt", filepath.Join(root, "viaout"))        // through a link out and back
	mustSymlink(t, "loop", filepath.Join(root, "loop"))

	paths := []string{
		"..", "../outside/secret.txt", "a/../../outside/secret.txt", "sub/../../outside/secret.txt",
		"/etc/passwd", filepath.Join(outside, "secret.txt"), filepath.Join(root, "sub", "in.txt"),
		"dirlink/secret.txt", "dirlink/new.txt", "dirlink", "flink", "rlink", "sub/up/secret.txt",
		"dangling", "evil/secret.txt", "viaout",
		"../root-evil/secret.txt", "a\x00b", "C:/x", "c:", `\\server\share`, "//server/share",
		`..\outside\secret.txt`, "./sub/in.txt", "sub//in.txt",
	}
	ops := map[string]func(p string) error{
		"Abs":      func(p string) error { _, err := f.Abs(p); return err },
		"ReadFile": func(p string) error { _, _, err := f.ReadFile(p); return err },
		"Stat":     func(p string) error { _, err := f.Stat(p); return err },
		"Write":    func(p string) error { return f.WriteFile(p, []byte("pwned\n")) },
		"Remove":   func(p string) error { return f.Remove(p) },
		"RenameTo": func(p string) error { return f.Rename("sub/in.txt", p) },
		"RenameFrom": func(p string) error {
			return f.Rename(p, "stolen.txt")
		},
	}
	for name, op := range ops {
		for _, p := range paths {
			err := op(p)
			if err == nil {
				t.Errorf("%s(%q) escaped the root", name, p)
				continue
			}
			if !errors.Is(err, ErrOutsideRoot) {
				t.Errorf("%s(%q): %v does not wrap ErrOutsideRoot", name, p, err)
			}
			if !strings.Contains(err.Error(), quoted(p)) {
				t.Errorf("%s(%q): %q does not name the path", name, p, err)
			}
		}
	}
	// Nothing outside changed, nothing was stolen, the symlinks are intact.
	if got := readString(t, filepath.Join(outside, "secret.txt")); got != "secret\n" {
		t.Errorf("outside file changed: %q", got)
	}
	if got := readString(t, filepath.Join(tmp, "root-evil", "secret.txt")); got != "evil\n" {
		t.Errorf("sibling file changed: %q", got)
	}
	if got := readString(t, filepath.Join(root, "sub", "in.txt")); got != "inside\n" {
		t.Errorf("inside file changed: %q", got)
	}
	for _, p := range []string{"new.txt", "stolen.txt"} {
		if _, err := os.Lstat(filepath.Join(outside, p)); err == nil {
			t.Errorf("%s created outside", p)
		}
		if p == "stolen.txt" {
			if _, err := os.Lstat(filepath.Join(root, p)); err == nil {
				t.Errorf("%s created", p)
			}
		}
	}
	for _, l := range []string{"dirlink", "flink", "rlink", "dangling", "evil"} {
		if fi, err := os.Lstat(filepath.Join(root, l)); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("symlink %s was replaced or removed", l)
		}
	}
	// The loop is an error, not a hang, and not a confinement refusal.
	if _, err := f.Abs("loop"); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("Abs(loop) = %v", err)
	}
}

func TestAbsHintsRelativeForm(t *testing.T) {
	f, _ := newTree(t)
	_, err := f.Abs(filepath.Join(f.Root(), "sub", "in.txt"))
	if err == nil || !strings.Contains(err.Error(), `did you mean "sub/in.txt"?`) {
		t.Errorf("Abs(absolute inside path) = %v; want a hint", err)
	}
}

func TestSymlinksInside(t *testing.T) {
	f, _ := newTree(t)
	root := f.Root()
	mustSymlink(t, "sub", filepath.Join(root, "dl"))                                // relative dir link
	mustSymlink(t, filepath.Join(root, "sub", "in.txt"), filepath.Join(root, "al")) // absolute, inside
	mustSymlink(t, "../sub/in.txt", filepath.Join(root, "sub", "rl"))               // relative with ..
	mustSymlink(t, "sub/later.txt", filepath.Join(root, "pending"))                 // dangling, inside
	mustSymlink(t, "../root/sub/in.txt", filepath.Join(root, "outin"))              // names the root from its parent

	for _, p := range []string{"dl/in.txt", "al", "sub/rl", "outin"} {
		abs, err := f.Abs(p)
		if err != nil || abs != filepath.Join(root, "sub", "in.txt") {
			t.Errorf("Abs(%q) = %q, %v", p, abs, err)
		}
		data, _, err := f.ReadFile(p)
		if err != nil || string(data) != "inside\n" {
			t.Errorf("ReadFile(%q) = %q, %v", p, data, err)
		}
	}
	// A file that does not exist yet is checked through its parent.
	if abs, err := f.Abs("dl/new/deep.txt"); err != nil || abs != filepath.Join(root, "sub", "new", "deep.txt") {
		t.Errorf("Abs(new through link) = %q, %v", abs, err)
	}
	// Writing through a link writes the target and keeps the link.
	if err := f.WriteFile("al", []byte("via link\n")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(root, "sub", "in.txt")); got != "via link\n" {
		t.Errorf("target = %q", got)
	}
	if fi, err := os.Lstat(filepath.Join(root, "al")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Error("link replaced by the write")
	}
	// A dangling link inside the root is written through, creating its target.
	if err := f.WriteFile("pending", []byte("made\n")); err != nil {
		t.Fatal(err)
	}
	if got := readString(t, filepath.Join(root, "sub", "later.txt")); got != "made\n" {
		t.Errorf("dangling target = %q", got)
	}
}

func TestRel(t *testing.T) {
	f, tmp := newTree(t)
	root := f.Root()
	mustSymlink(t, filepath.Join(tmp, "outside"), filepath.Join(root, "dirlink"))
	mustSymlink(t, root, filepath.Join(tmp, "alias"))
	g, err := New(filepath.Join(tmp, "alias"))
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		filepath.Join(root, "sub", "in.txt"):         "sub/in.txt",
		filepath.Join(root, "new.txt"):               "new.txt",
		filepath.Join(tmp, "alias", "sub", "in.txt"): "sub/in.txt",
	} {
		if got, err := g.Rel(in); err != nil || got != want {
			t.Errorf("Rel(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for in, why := range map[string]string{
		"sub/in.txt":                         "probably " + quoted(filepath.Join(tmp, "alias", "sub", "in.txt")),
		filepath.Join(tmp, "root-evil", "x"): "outside the root",
		filepath.Join(tmp, "outside", "x"):   "outside the root",
		root:                                 "root directory itself",
		root + "/sub/../../outside/x":        `".."`,
		root + "/dirlink/secret.txt":         "symlink",
		root + "/sub//in.txt":                "empty path segment",
		root + "/a\x00b":                     "NUL",
	} {
		_, err := g.Rel(in)
		if err == nil {
			t.Errorf("Rel(%q) accepted", in)
			continue
		}
		assertRefusal(t, err, in, why)
	}
}

func TestStatAndRead(t *testing.T) {
	f, _ := newTree(t)
	_, err := f.Stat("missing.txt")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat(missing) = %v; want fs.ErrNotExist", err)
	}
	if err == nil || !strings.Contains(err.Error(), `"missing.txt"`) {
		t.Errorf("Stat(missing) error does not name the path: %v", err)
	}
	if _, _, err := f.ReadFile("missing/x.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadFile(missing) = %v", err)
	}
	fi, err := f.Stat("sub/in.txt")
	if err != nil || fi.Size() != int64(len("inside\n")) {
		t.Errorf("Stat = %v, %v", fi, err)
	}
	if _, _, err := f.ReadFile("sub"); err == nil || !strings.Contains(err.Error(), "needs a glob") {
		t.Errorf("ReadFile(dir) = %v", err)
	}
	if _, _, err := f.ReadFile("sub/in.txt/x"); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("ReadFile(file/x) = %v", err)
	}
}
