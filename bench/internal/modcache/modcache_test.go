package modcache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCopy: the copy holds the regular files with writable modes, and
// neither .git nor symlinks.
func TestCopy(t *testing.T) {
	src, dst := t.TempDir(), t.TempDir()
	for name, content := range map[string]string{"go.mod": "module m\n", "a/a.go": "package a\n", ".git/HEAD": "ref\n"} {
		p := filepath.Join(src, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("/etc", filepath.Join(src, "link")); err != nil {
		t.Fatal(err)
	}
	if err := Copy(src, dst); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(dst, "a", "a.go"))
	if err != nil || st.Mode().Perm()&0o200 == 0 {
		t.Fatalf("a/a.go: %v, mode %v; want a writable copy", err, st)
	}
	for _, gone := range []string{".git", "link"} {
		if _, err := os.Lstat(filepath.Join(dst, gone)); !os.IsNotExist(err) {
			t.Errorf("%s was copied (%v)", gone, err)
		}
	}
}

// TestCopyResolvedCompletesSums: a copy's go.sum already holds what
// gopls's imports refresh (go list -m -e -json ...) adds under -mod=mod,
// so that no server sees go.sum change during a measurement. The module
// requires one from a file proxy, and its go.sum is empty.
func TestCopyResolvedCompletesSums(t *testing.T) {
	proxy, src, dst := t.TempDir(), t.TempDir(), filepath.Join(t.TempDir(), "copy")
	dep := "module example.com/dep\n\ngo 1.22\n"
	for name, content := range map[string]string{
		"example.com/dep/@v/list":        "v1.0.0\n",
		"example.com/dep/@v/v1.0.0.info": `{"Version":"v1.0.0"}`,
		"example.com/dep/@v/v1.0.0.mod":  dep,
	} {
		p := filepath.Join(proxy, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteTree(src, map[string]string{
		"go.mod": "module m\n\ngo 1.22\n\nrequire example.com/dep v1.0.0\n",
		"go.sum": "",
		"m.go":   "package m\n",
	}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOPROXY", "file://"+filepath.ToSlash(proxy))
	t.Setenv("GOSUMDB", "off")
	t.Setenv("GOMODCACHE", t.TempDir())
	t.Setenv("GOFLAGS", "-mod=mod -modcacherw")
	t.Setenv("GOWORK", "off")
	if _, err := CopyResolved(src, dst); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(dst, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(sum), "example.com/dep v1.0.0/go.mod h1:") {
		t.Errorf("the copy's go.sum lacks the dependency's go.mod hash:\n%s", sum)
	}
	if b, _ := os.ReadFile(filepath.Join(src, "go.sum")); len(b) != 0 {
		t.Errorf("the source's go.sum was changed: %s", b)
	}
}
