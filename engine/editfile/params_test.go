package editfile

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestParams(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\n"})
	abs := e.abs("f.txt")
	for _, tc := range []struct {
		name, json string
		want       []string
	}{
		{"unknown parameter", `{"command":"view","file_path":"` + abs + `","path":"x"}`,
			[]string{`unknown argument "path"`, "the arguments are: command (required), file_path (required), view_range, anchor", "force"}},
		{"command required", `{"file_path":"` + abs + `"}`, []string{"command is required", "str_replace"}},
		{"unknown command", `{"command":"delete","file_path":"` + abs + `"}`, []string{`command must be one of view, str_replace`, "undo_edit", `got "delete"`}},
		{"file_path required", `{"command":"view"}`, []string{"file_path is required"}},
		{"not applicable", `{"command":"view","file_path":"` + abs + `","old_str":"a","new_str":"b"}`,
			[]string{"view does not take new_str, old_str", "view takes: command (required), file_path (required), view_range", "context_after"}},
		{"not applicable to undo", `{"command":"undo_edit","file_path":"` + abs + `","dry_run":true}`, []string{"does not take dry_run"}},
		{"revision not for view", `{"command":"view","file_path":"` + abs + `","revision":"sha256:0"}`, []string{"does not take revision"}},
		{"wrong type", `{"command":"insert","file_path":"` + abs + `","insert_line":"3"}`, []string{"insert_line must be an integer, got a JSON string"}},
		{"not an object", `[1]`, []string{"edit_file"}},
		{"trailing data", `{"command":"view","file_path":"` + abs + `"} {}`, []string{"unexpected data"}},
		{"trailing brace", `{"command":"view","file_path":"` + abs + `"} }`, []string{"unexpected data"}},
		{"wrong element type", `{"command":"view","file_path":"` + abs + `","view_range":[1,"x"]}`,
			[]string{"view_range must be an array of integers, got an array holding a JSON string"}},
		{"short array", `{"command":"view","file_path":"` + abs + `","view_range":[1]}`,
			[]string{"view_range must be an array of 2 integers, got 1", "[start, end]"}},
		{"null is not given", `{"command":"view","file_path":null}`, []string{"file_path is required (a string)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.s.Call(context.Background(), []byte(tc.json))
			if err == nil || fault.KindOf(err) != fault.BadArgument {
				t.Fatalf("err = %v, want a bad_argument error", err)
			}
			contains(t, err, tc.want...)
		})
	}
	// Do validates what Call would.
	for _, p := range []*Params{{}, {Command: "x", FilePath: abs}, {Command: "view"}} {
		if _, err := e.s.Do(context.Background(), p); fault.KindOf(err) != fault.BadArgument {
			t.Errorf("Do(%+v) = %v, want bad_argument", p, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := e.s.Do(ctx, &Params{Command: "view", FilePath: abs}); err == nil {
		t.Error("Do with a cancelled context succeeded")
	}
}

func TestPaths(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\n", "sub/g.txt": "g\n"})
	// A relative path is refused with the absolute path it probably meant.
	_, err := e.s.Call(context.Background(), []byte(`{"command":"view","file_path":"sub/g.txt"}`))
	if fault.KindOf(err) != fault.BadArgument {
		t.Fatalf("relative path: %v", err)
	}
	contains(t, err, e.abs("sub/g.txt"))
	// Outside the root, lexically, by prefix trick or through a symlink.
	outside := t.TempDir()
	os.WriteFile(filepath.Join(outside, "o.txt"), []byte("o\n"), 0o644)
	os.Symlink(filepath.Join(outside, "o.txt"), e.abs("link.txt"))
	for _, p := range []string{filepath.Join(outside, "o.txt"), e.fs.Root() + "-evil/f.txt", e.abs("sub/../../x"), e.abs("link.txt")} {
		_, err := e.s.Call(context.Background(), []byte(`{"command":"view","file_path":"`+p+`"}`))
		if err == nil {
			t.Errorf("%s: view outside the root succeeded", p)
			continue
		}
		if fault.KindOf(err) != fault.BadArgument {
			t.Errorf("%s: kind %s: %v", p, fault.KindOf(err), err)
		}
	}
	// A missing file says to use write_file; a binary one is refused.
	contains(t, e.fail(fault.NotFound, "view", "nope.txt"), "does not exist", "write_file")
	e.outside("bin.dat", "a\x00b")
	contains(t, e.fail(fault.BadArgument, "view", "bin.dat"), "binary")
	e.outside("latin.txt", "caf\xe9\n")
	contains(t, e.fail(fault.BadArgument, "view", "latin.txt"), "not UTF-8")
	contains(t, e.fail(fault.BadArgument, "view", "sub"), "sub")
}
