package configtest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/configs"
)

// The layer gives every default driver Timeout; a project's own timeout
// wins; a user file's own driver tables are kept, not repeated.
func TestLayer(t *testing.T) {
	dir := t.TempDir()
	user := filepath.Join(dir, "devbroker", "config.toml")
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte("[drivers.shellcheck]\ncommand = [\"other-shellcheck\", \"-\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Install(dir); err != nil {
		t.Fatal(err)
	}
	if err := Install(dir); err != nil { // again: nothing repeated
		t.Fatal(err)
	}
	b, _ := os.ReadFile(user)
	if n := strings.Count(string(b), "[drivers.gopls]"); n != 1 {
		t.Fatalf("[drivers.gopls] %d times in\n%s", n, b)
	}
	if n := strings.Count(string(b), "timeout = "); n != len(mustDefault(t).Drivers) {
		t.Fatalf("%d timeouts, want one per default driver, in\n%s", n, b)
	}
	t.Setenv("XDG_CONFIG_HOME", dir)
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ".devbroker.toml"), []byte("[drivers.go-vet]\ntimeout = \"3s\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := configs.LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if p.Invalid != nil {
		t.Fatal(p.Invalid)
	}
	cfg := p.Config
	def := mustDefault(t)
	for name := range def.Drivers {
		want := Timeout
		switch name {
		case "go-vet":
			want = 3 * time.Second
		}
		if got := cfg.Drivers[name].Timeout.Duration; got != want {
			t.Errorf("%s: timeout %s, want %s", name, got, want)
		}
	}
	if got := cfg.Drivers["shellcheck"].Command[0]; got != "other-shellcheck" {
		t.Errorf("the user's own table was lost: shellcheck runs %s", got)
	}
}

func mustDefault(t *testing.T) *configs.Config {
	t.Helper()
	def, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	return def
}
