package editfile

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestReadFile(t *testing.T) {
	src := numberedFile(5)
	e := newEnv(t, map[string]string{"f.txt": src, "e.txt": "", "w.txt": "\ufeffa\r\nb\r\n"})
	r := mustTool(e, "read_file", map[string]any{"file_path": e.abs("f.txt")})
	if !strings.HasPrefix(r.Text, "1\tline 1\n") || !strings.HasSuffix(r.Text, "5\tline 5\nrevision: "+rev(src)+"\n") || r.Revision != rev(src) {
		t.Errorf("read_file:\n%s", r.Text)
	}
	r = mustTool(e, "read_file", map[string]any{"file_path": e.abs("f.txt"), "offset": 2, "limit": 2})
	if f, l := shown(t, r); f != 2 || l != 3 {
		t.Errorf("offset 2 limit 2 shows %d-%d", f, l)
	}
	contains(t, r, "(lines 2-3 of 5; pass offset to read more)")
	r = mustTool(e, "read_file", map[string]any{"file_path": e.abs("f.txt"), "offset": 4, "limit": 100})
	if f, l := shown(t, r); f != 4 || l != 5 {
		t.Errorf("offset 4 shows %d-%d", f, l)
	}
	contains(t, mustTool(e, "read_file", map[string]any{"file_path": e.abs("e.txt")}), "(empty file)", rev(""))
	contains(t, mustTool(e, "read_file", map[string]any{"file_path": e.abs("w.txt")}), "1\ta\n2\tb\n")
	for _, tc := range []struct {
		m    map[string]any
		kind fault.Kind
		want string
	}{
		{map[string]any{"file_path": e.abs("f.txt"), "offset": 6}, fault.Bounds, "has 5 lines"},
		{map[string]any{"file_path": e.abs("f.txt"), "offset": 0}, fault.BadArgument, "1 or more"},
		{map[string]any{"file_path": e.abs("f.txt"), "limit": 0}, fault.BadArgument, "1 or more"},
		{map[string]any{"file_path": e.abs("f.txt"), "lines": 3}, fault.BadArgument, `unknown argument "lines"; the arguments are: file_path (required), offset, limit`},
		{map[string]any{}, fault.BadArgument, "file_path is required"},
		{map[string]any{"file_path": "f.txt"}, fault.BadArgument, e.abs("f.txt")},
		{map[string]any{"file_path": e.abs("missing.txt")}, fault.NotFound, "does not exist"},
	} {
		_, err := e.tool("read_file", tc.m)
		if fault.KindOf(err) != tc.kind {
			t.Errorf("read_file %v: %v, want %s", tc.m, err, tc.kind)
			continue
		}
		contains(t, err, tc.want)
	}
	if DefaultReadLimit != 2000 {
		t.Errorf("DefaultReadLimit %d", DefaultReadLimit)
	}
}

func TestReadFileDefaultLimit(t *testing.T) {
	e := newEnv(t, map[string]string{"big.txt": numberedFile(DefaultReadLimit + 10)})
	r := mustTool(e, "read_file", map[string]any{"file_path": e.abs("big.txt")})
	if f, l := shown(t, r); f != 1 || l != DefaultReadLimit {
		t.Errorf("default read shows %d-%d", f, l)
	}
	contains(t, r, "of 2010")
}

func TestWriteFile(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\n"})
	w := func(m map[string]any) (*Result, error) { return e.tool("write_file", m) }
	// An existing file must be read first (or its revision given).
	_, err := w(map[string]any{"file_path": e.abs("f.txt"), "content": "b\n"})
	if fault.KindOf(err) != fault.Conflict {
		t.Fatalf("write_file without a read: %v", err)
	}
	r, err := w(map[string]any{"file_path": e.abs("f.txt"), "content": "b\n", "revision": rev("a\n")})
	if err != nil {
		t.Fatal(err)
	}
	contains(t, r, "Wrote", "revision: "+rev("b\n"))
	if r.Revision != rev("b\n") || e.disk("f.txt") != "b\n" {
		t.Fatalf("write_file: %+v", r)
	}
	// Same content is an error; stale revision is refused.
	_, err = w(map[string]any{"file_path": e.abs("f.txt"), "content": "b\n"})
	contains(t, err, "already has exactly this content")
	_, err = w(map[string]any{"file_path": e.abs("f.txt"), "content": "c\n", "revision": rev("a\n")})
	if fault.KindOf(err) != fault.Conflict {
		t.Fatalf("stale revision: %v", err)
	}
	contains(t, err, rev("a\n"), rev("b\n"))
	// Creation needs no read; a revision for a missing file is refused.
	_, err = w(map[string]any{"file_path": e.abs("gone.txt"), "content": "x", "revision": rev("x")})
	contains(t, err, "does not exist")
	for _, tc := range []struct {
		m    map[string]any
		want string
	}{
		{map[string]any{"file_path": e.abs("n.txt")}, "content is required"},
		{map[string]any{"content": "x"}, "file_path is required"},
		{map[string]any{"file_path": e.abs("n.txt"), "content": "a\x00"}, "binary"},
		{map[string]any{"file_path": e.abs("n.txt"), "content": "x", "mode": "0755"}, `unknown argument "mode"; the arguments are: file_path (required), content (required), revision, force`},
		{map[string]any{"file_path": "n.txt", "content": "x"}, e.abs("n.txt")},
	} {
		_, err := w(tc.m)
		if fault.KindOf(err) != fault.BadArgument {
			t.Errorf("write_file %v: %v", tc.m, err)
			continue
		}
		contains(t, err, tc.want)
	}
	// write_file keeps exactly the bytes given (no conversion).
	mustTool(e, "write_file", map[string]any{"file_path": e.abs("d/crlf.txt"), "content": "\ufeffa\r\nb"})
	if e.disk("d/crlf.txt") != "\ufeffa\r\nb" {
		t.Errorf("write_file converted: %q", e.disk("d/crlf.txt"))
	}
}
