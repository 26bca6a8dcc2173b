package drivers

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/trust"
	"github.com/devbroker/devbroker/engine"
)

// isolateTrust points the user's trust list at a new directory, so tests
// never read or write the real user's.
func isolateTrust(t *testing.T) *trust.Store {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	s, err := trust.Default()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// trustRoot trusts root's project file as it is now, in a trust list of
// the test's own.
func trustRoot(t *testing.T, root string) {
	t.Helper()
	s := isolateTrust(t)
	p, err := configs.LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Trust(root, p.Hash); err != nil {
		t.Fatal(err)
	}
}

// markerConfig is a project whose linter writes a marker file outside
// the root whenever any of its commands runs.
const markerConfig = `[languages.notes]
file_types = ["*.txt"]
lint = ["mark | shellcheck"]

[drivers.mark]
type = "external"
command = ["sh", "-c", "touch ../marker-run"]
version_command = ["sh", "-c", "touch ../marker-version; echo 1"]
errorformat = ["%f:%l: %m"]
smoke = { file = "a.txt", content = "x" }

[drivers.shellcheck]
type = "external"
command = ["sh", "-c", "touch ../marker-shellcheck"]
errorformat = ["%f:%l: %m"]
`

// An untrusted project's drivers are reported untrusted, with the command
// and how to trust, and never run; trusted, they run.
func TestUntrustedProjectRunsNothing(t *testing.T) {
	store := isolateTrust(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, configs.ProjectFile), []byte(markerConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	set, rep, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	for _, name := range []string{"mark", "shellcheck"} {
		d := findDriver(rep, name)
		if d == nil || d.State != capabilities.Untrusted || !strings.Contains(d.Reason, "devbroker trust ") || len(d.Command) == 0 || d.Command[0] != "sh" {
			t.Fatalf("driver %s: %+v, want untrusted with its command and how to trust", name, d)
		}
	}
	if set.Has(engine.Lint) && slices.Contains(rep.Available[engine.Lint], "notes") {
		t.Fatalf("notes is linted by an untrusted driver: %v", rep.Available)
	}
	for _, m := range []string{"marker-run", "marker-version", "marker-shellcheck"} {
		if _, err := os.Stat(filepath.Join(dir, m)); err == nil {
			t.Fatalf("%s exists: an untrusted command ran", m)
		}
	}

	p, _ := configs.LoadProject(root)
	if _, err := store.Trust(root, p.Hash); err != nil {
		t.Fatal(err)
	}
	set2, rep2, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer set2.Close()
	if d := findDriver(rep2, "mark"); d == nil || d.State != capabilities.Found {
		t.Fatalf("trusted: %+v", d)
	}
	if _, err := os.Stat(filepath.Join(dir, "marker-version")); err != nil {
		t.Fatalf("trusted, the version command did not run: %v", err)
	}
}

// A project driver that changes only how a default driver's output is
// read (timeout, severity) needs no trust.
func TestOutputKeysNeedNoTrust(t *testing.T) {
	isolateTrust(t)
	root := writeTree(t, map[string]string{configs.ProjectFile: `[drivers.go-vet]
type = "external"
command = ["go", "vet", "-overlay={overlay}", "./..."]
version_command = ["go", "version"]
input = "overlay"
stream = "stderr"
severity = "error"
timeout = "5m"
errorformat = ["%f:%l:%c: %m"]
`})
	set, rep, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if d := findDriver(rep, "go-vet"); d == nil || d.State == capabilities.Untrusted {
		t.Fatalf("go-vet: %+v", d)
	}
}

func findDriver(r *capabilities.Report, name string) *capabilities.DriverReport {
	for i := range r.Drivers {
		if r.Drivers[i].Name == name {
			return &r.Drivers[i]
		}
	}
	return nil
}
