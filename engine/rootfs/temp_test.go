package rootfs

import (
	"bytes"
	"errors"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestTempRenameNameFormat(t *testing.T) {
	f, _ := newTree(t)
	re := regexp.MustCompile(`^(sub/)?\.dev-tools-rename-[0-9a-f]{16}$`)
	seen := map[string]bool{}
	for _, dir := range []string{"", "sub", "", "sub"} {
		name, err := f.TempRenameName(dir)
		if err != nil {
			t.Fatal(err)
		}
		if !re.MatchString(name) || (dir == "") != !strings.HasPrefix(name, "sub/") {
			t.Errorf("TempRenameName(%q) = %q", dir, name)
		}
		if seen[name] {
			t.Errorf("repeated name %q", name)
		}
		seen[name] = true
		if _, err := Clean(name); err != nil {
			t.Errorf("name %q is not a valid workspace path: %v", name, err)
		}
	}
	if _, err := f.TempRenameName("../x"); !errors.Is(err, ErrOutsideRoot) {
		t.Errorf("TempRenameName(../x) = %v", err)
	}
}

// counter yields 8-byte blocks 0x00.., 0x01.., ... so names are predictable.
type counter struct{ n byte }

func (c *counter) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = c.n
	}
	c.n++
	return len(p), nil
}

func nameFor(n byte) string {
	return TempRenamePrefix + strings.Repeat(string("0123456789abcdef"[n>>4])+string("0123456789abcdef"[n&15]), 8)
}

func TestTempRenameNameCollisions(t *testing.T) {
	f, _ := newTree(t)
	root := f.Root()
	// The first three names are taken (one by a dangling symlink): the fourth is used.
	mustWrite(t, filepath.Join(root, "sub", nameFor(0)), "")
	mustMkdir(t, filepath.Join(root, "sub", nameFor(1)))
	mustSymlink(t, "/nonexistent", filepath.Join(root, "sub", nameFor(2)))
	g := f.WithHooks(Hooks{Rand: &counter{}})
	name, err := g.TempRenameName("sub")
	if err != nil || name != "sub/"+nameFor(3) {
		t.Errorf("TempRenameName = %q, %v; want sub/%s", name, err, nameFor(3))
	}
	// All eight taken: an error naming the directory and the last try.
	for i := byte(0); i < 8; i++ {
		mustWrite(t, filepath.Join(root, nameFor(i)), "")
	}
	g = f.WithHooks(Hooks{Rand: &counter{}})
	_, err = g.TempRenameName("")
	if !errors.Is(err, fs.ErrExist) || !strings.Contains(err.Error(), nameFor(7)) || !strings.Contains(err.Error(), "8 random") {
		t.Errorf("TempRenameName with all taken = %v", err)
	}
	// A ninth name is never tried.
	mustWrite(t, filepath.Join(root, "sub", nameFor(3)), "")
	g = f.WithHooks(Hooks{Rand: bytes.NewReader(bytes.Repeat([]byte{0}, 8*8))})
	if _, err := g.TempRenameName("sub"); err == nil {
		t.Error("expected an error after 8 tries of a taken name")
	}
	// A failing random source is an error, not a loop.
	g = f.WithHooks(Hooks{Rand: bytes.NewReader(nil)})
	if _, err := g.TempRenameName(""); err == nil {
		t.Error("empty random source accepted")
	}
}
