package trust

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	hashA = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
	hashB = "sha256:bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"
)

func newStore(t *testing.T) *Store {
	t.Helper()
	return &Store{Path: filepath.Join(t.TempDir(), "state", "devbroker", FileName)}
}

func TestTrustHashChange(t *testing.T) {
	s, root := newStore(t), t.TempDir()
	if v := s.Check(root, hashA); v.Trusted || !strings.Contains(v.Reason, "devbroker trust ") {
		t.Fatalf("before trust: %+v", v)
	}
	if _, err := s.Trust(root, hashA); err != nil {
		t.Fatal(err)
	}
	if v := s.Check(root, hashA); !v.Trusted {
		t.Fatalf("after trust: %+v", v)
	}
	v := s.Check(root, hashB)
	if v.Trusted || !strings.Contains(v.Reason, "changed since you trusted it") {
		t.Fatalf("edited file: %+v", v)
	}
	real, was, err := s.Untrust(root)
	if err != nil || !was || real == "" {
		t.Fatalf("untrust: %q %v %v", real, was, err)
	}
	if v := s.Check(root, hashA); v.Trusted {
		t.Fatalf("after untrust: %+v", v)
	}
}

func TestTrustRealPath(t *testing.T) {
	s, dir := newStore(t), t.TempDir()
	root := filepath.Join(dir, "real")
	if err := os.Mkdir(root, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	got, err := s.Trust(link, hashA)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := filepath.EvalSymlinks(root)
	if got != want {
		t.Fatalf("trusted %q, want the real path %q", got, want)
	}
	if v := s.Check(root, hashA); !v.Trusted {
		t.Fatalf("the real directory, trusted through a link: %+v", v)
	}
	l, err := s.Load()
	if err != nil || len(l.Roots) != 1 {
		t.Fatalf("list %+v, %v", l, err)
	}
	if _, ok := l.Roots[want]; !ok {
		t.Fatalf("list keys %v, want %q", l.Sorted(), want)
	}
}

func TestTrustCorruptList(t *testing.T) {
	s, root := newStore(t), t.TempDir()
	if err := os.MkdirAll(filepath.Dir(s.Path), 0o700); err != nil {
		t.Fatal(err)
	}
	garbage := []byte(`{"roots": [1, 2`)
	if err := os.WriteFile(s.Path, garbage, 0o600); err != nil {
		t.Fatal(err)
	}
	v := s.Check(root, hashA)
	if v.Trusted || !strings.Contains(v.Reason, "rm "+s.Path) {
		t.Fatalf("corrupt list: %+v", v)
	}
	_, err := s.Trust(root, hashA)
	var ce *CorruptError
	if !errors.As(err, &ce) || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("trust over a corrupt list: %v", err)
	}
	// A failing operation changes nothing.
	if b, _ := os.ReadFile(s.Path); string(b) != string(garbage) {
		t.Fatalf("the corrupt list was changed: %q", b)
	}
}

func TestTrustAtomicWrite(t *testing.T) {
	s, root := newStore(t), t.TempDir()
	if _, err := s.Trust(root, hashA); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trust(t.TempDir(), hashB); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(s.Path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, want 0600", st.Mode().Perm())
	}
	entries, err := os.ReadDir(filepath.Dir(s.Path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Fatalf("the state directory holds %v, want only %s (no temporaries)", names, FileName)
	}
	b, _ := os.ReadFile(s.Path)
	l, err := Parse(b)
	if err != nil || len(l.Roots) != 2 {
		t.Fatalf("written list %s: %+v %v", b, l, err)
	}
}

func TestTrustListInsideRoot(t *testing.T) {
	root := t.TempDir()
	s := &Store{Path: filepath.Join(root, ".local", "state", "devbroker", FileName)}
	if _, err := s.Trust(root, hashA); err != nil {
		t.Fatal(err)
	}
	v := s.Check(root, hashA)
	if v.Trusted || !strings.Contains(v.Reason, "inside the root") {
		t.Fatalf("a list the root holds: %+v", v)
	}
}

func TestPinned(t *testing.T) {
	root := t.TempDir()
	p := Pinned(map[string]string{root: hashA}, nil)
	if v := Pinned(nil, nil).Check(root, hashA); v.Trusted || !strings.Contains(v.Reason, "only the root given") {
		t.Fatalf("a root not given: %+v", v)
	}
	if v := p.Check(root, hashA); !v.Trusted {
		t.Fatalf("the pinned file: %+v", v)
	}
	v := p.Check(root, hashB)
	if v.Trusted || !strings.Contains(v.Reason, "changed since this devbroker started with --trust") {
		t.Fatalf("edited: %+v", v)
	}
	if v := Pinned(map[string]string{root: ""}, nil).Check(root, hashA); v.Trusted || !strings.Contains(v.Reason, "written after") {
		t.Fatalf("written after the start: %+v", v)
	}
	s := newStore(t)
	if _, err := s.Trust(root, hashB); err != nil {
		t.Fatal(err)
	}
	if v := Pinned(map[string]string{root: hashA}, s).Check(root, hashB); !v.Trusted {
		t.Fatalf("edited, but trusted in the list: %+v", v)
	}
}

func TestDefaultPath(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", "/x/state")
	if p, _ := DefaultPath(); p != "/x/state/devbroker/trust.json" {
		t.Fatalf("with XDG_STATE_HOME: %s", p)
	}
	t.Setenv("XDG_STATE_HOME", "relative")
	t.Setenv("HOME", "/home/u")
	if p, _ := DefaultPath(); p != "/home/u/.local/state/devbroker/trust.json" {
		t.Fatalf("relative XDG_STATE_HOME: %s", p)
	}
}

func TestParse(t *testing.T) {
	for _, bad := range []string{
		`[]`, `{"version": 2, "roots": {}}`, `{"version": 1, "roots": {"rel": {"hash": "` + hashA + `"}}}`,
		`{"version": 1, "roots": {"/a/../b": {"hash": "` + hashA + `"}}}`,
		`{"version": 1, "roots": {"/a": {"hash": "md5:00"}}}`, `{"version": 1, "extra": 1}`,
		`{"version": 1} {}`,
	} {
		if _, err := Parse([]byte(bad)); err == nil {
			t.Errorf("Parse(%s) accepted it", bad)
		}
	}
	l, err := Parse([]byte(`{"version": 1, "roots": {"/a": {"hash": "` + hashA + `", "trusted_at": "2025-01-02T03:04:05Z"}}}`))
	if err != nil || l.Roots["/a"].Hash != hashA {
		t.Fatalf("%+v %v", l, err)
	}
	if l2, err := Parse(l.Marshal()); err != nil || l2.Roots["/a"] != l.Roots["/a"] {
		t.Fatalf("round trip: %+v %v", l2, err)
	}
}

// FuzzParse checks that Parse never panics and that what it accepts
// encodes and parses back to the same list.
func FuzzParse(f *testing.F) {
	f.Add([]byte(`{"version": 1, "roots": {"/a": {"hash": "` + hashA + `", "trusted_at": "2025-01-02T03:04:05Z"}}}`))
	f.Add([]byte(`{"roots": [1, 2`))
	f.Add([]byte(``))
	f.Add([]byte(`{"version": 1, "roots": null}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := Parse(data)
		if err != nil {
			return
		}
		l2, err := Parse(l.Marshal())
		if err != nil {
			t.Fatalf("an accepted list does not parse back: %v\n%s", err, l.Marshal())
		}
		if len(l2.Roots) != len(l.Roots) {
			t.Fatalf("round trip changed the roots: %v vs %v", l.Sorted(), l2.Sorted())
		}
		for r, e := range l.Roots {
			if e2 := l2.Roots[r]; e2.Hash != e.Hash || !e2.TrustedAt.Equal(e.TrustedAt) {
				t.Fatalf("root %q: %+v vs %+v", r, e, e2)
			}
		}
	})
}

// A root without a project file can be trusted; a file created later is
// not trusted.
func TestTrustNoFile(t *testing.T) {
	s, root := newStore(t), t.TempDir()
	if v := s.Check(root, ""); v.Trusted {
		t.Fatalf("before trust: %+v", v)
	}
	if _, err := s.Trust(root, ""); err != nil {
		t.Fatal(err)
	}
	if v := s.Check(root, ""); !v.Trusted {
		t.Fatalf("after trust: %+v", v)
	}
	if v := s.Check(root, hashA); v.Trusted || !strings.Contains(v.Reason, "changed since you trusted it") {
		t.Fatalf("a file created later: %+v", v)
	}
	l, err := s.Load()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse(l.Marshal()); err != nil {
		t.Fatalf("the list does not read back: %v", err)
	}
}
