package editfile

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

// TestFileSizeLimit: a file over the session's per-file limit is refused
// by view, every edit, read_file and write_file with a bounds error that
// names its size, the limit and the setting, and is left unchanged.
func TestFileSizeLimit(t *testing.T) {
	big := "0123456789\n" // 11 bytes
	e := newEnv(t, map[string]string{"big.txt": big, "ok.txt": "012345678\n"})
	e.s.SetMaxFileBytes(10)
	want := []string{"11 bytes", "limit of 10 bytes", "limits.max_file_bytes in .devbroker.toml"}
	check := func(what string, err error) {
		t.Helper()
		if err == nil {
			t.Fatalf("%s: succeeded, want a bounds error", what)
		}
		if fault.KindOf(err) != fault.Bounds {
			t.Fatalf("%s: kind %s, want bounds: %v", what, fault.KindOf(err), err)
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not say %q", what, err, w)
			}
		}
	}
	check("view", e.fail(fault.Bounds, "view", "big.txt"))
	check("str_replace", e.fail(fault.Bounds, "str_replace", "big.txt", "old_str", "0", "new_str", "1", "revision", "x"))
	check("insert", e.fail(fault.Bounds, "insert", "big.txt", "insert_line", 0, "new_str", "a", "revision", "x"))
	_, err := e.tool("read_file", map[string]any{"file_path": e.abs("big.txt")})
	check("read_file", err)
	_, err = e.tool("write_file", map[string]any{"file_path": e.abs("big.txt"), "content": "a\n"})
	check("write_file", err)
	if got := e.disk("big.txt"); got != big {
		t.Fatalf("big.txt changed to %q", got)
	}
	// A file within the limit is unaffected.
	e.view("ok.txt")
}

// TestDefaultFileSizeLimit: a session refuses files over 2 MiB unless told
// otherwise (the workspace's default limit).
func TestDefaultFileSizeLimit(t *testing.T) {
	e := newEnv(t, map[string]string{"big.txt": strings.Repeat("x", 2<<20) + "\n"})
	err := e.fail(fault.Bounds, "view", "big.txt")
	if !strings.Contains(err.Error(), "limit of 2097152 bytes") {
		t.Fatalf("error %q does not name the default limit", err)
	}
}
