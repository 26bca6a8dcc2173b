package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/testtree"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestVersionWithoutVCS: a binary built without VCS information
// (-buildvcs=false, as from a source archive) printed "(devel)"; it says
// what it lacks and how to stamp a version, and a stamped one is printed.
func TestVersionWithoutVCS(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ name, ldflags, want string }{
		{"plain", "", "devbroker devel (this build carries no version and no commit"},
		{"stamped", "-X github.com/devbroker/devbroker/broker.Stamped=v9.9.9", "devbroker v9.9.9 "},
	} {
		bin := filepath.Join(dir, tc.name)
		args := []string{"build", "-buildvcs=false", "-o", bin}
		if tc.ldflags != "" {
			args = append(args, "-ldflags", tc.ldflags)
		}
		if out, err := exec.Command("go", append(args, ".")...).CombinedOutput(); err != nil {
			t.Fatalf("go build: %v\n%s", err, out)
		}
		out, err := exec.Command(bin, "--version").Output()
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(out), tc.want) || strings.Contains(string(out), "(devel)") {
			t.Errorf("%s: --version = %q, want it to start %q", tc.name, out, tc.want)
		}
	}
}

// TestServerInfoVersion: MCP's serverInfo names the binary's version (it
// was "devel" in every build).
func TestServerInfoVersion(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "devbroker")
	if out, err := exec.Command("go", "build", "-o", bin, "-ldflags", "-X github.com/devbroker/devbroker/broker.Stamped=v9.9.9", ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	root := testtree.New(t, map[string]string{".devbroker.toml": noDrivers})
	c := sdk.NewClient(&sdk.Implementation{Name: "version_test", Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: exec.Command(bin, "serve", "--mcp", "--root", root)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if got := cs.InitializeResult().ServerInfo.Version; got != "v9.9.9" {
		t.Errorf("serverInfo.version %q, want v9.9.9", got)
	}
}
