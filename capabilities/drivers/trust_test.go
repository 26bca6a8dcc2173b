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
	"github.com/devbroker/devbroker/engine/testtree"
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

// An untrusted project file applies not at all: the report says so, with
// the commands it would run and how to trust, and none of them runs;
// trusted, they run.
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
	if pt := rep.Project; pt == nil || pt.Trusted || !strings.Contains(pt.Reason, "devbroker trust ") || len(pt.Runs) == 0 || pt.Runs[0].Argv[0] != "sh" {
		t.Fatalf("project: %+v, want not trusted with its commands and how to trust", pt)
	}
	if d := findDriver(rep, "mark"); d != nil {
		t.Fatalf("the untrusted file's driver is in the set: %+v", d)
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

// An untrusted project file cannot weaken the verdict: an emptied check
// list and [limits] apply only once the root is trusted.
func TestUntrustedFileAppliesNothing(t *testing.T) {
	store := isolateTrust(t)
	root := testtree.New(t, map[string]string{configs.ProjectFile: `[languages.go]
file_types = ["*.go"]
format = ["gofumpt"]
lint = []
check = []

[limits]
max_files = 7
`})
	set, rep, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	if !slices.Contains(rep.Available[engine.Check], "go") || set.Limits().MaxFiles == 7 {
		t.Fatalf("untrusted, the file applied: check %v, limits %+v", rep.Available[engine.Check], set.Limits())
	}
	if l, err := Limits(root, Options{}); err != nil || l.MaxFiles == 7 {
		t.Fatalf("untrusted, Limits gave the file's: %+v %v", l, err)
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
	if slices.Contains(rep2.Available[engine.Check], "go") || set2.Limits().MaxFiles != 7 {
		t.Fatalf("trusted, the file did not apply: check %v, limits %+v", rep2.Available[engine.Check], set2.Limits())
	}
	if l, err := Limits(root, Options{}); err != nil || l.MaxFiles != 7 {
		t.Fatalf("trusted, Limits did not give the file's: %+v %v", l, err)
	}
}

// The default drivers that run the repository's code are untrusted in a
// root the user has not trusted, even one without a project file.
func TestRepositoryCodeNeedsTrust(t *testing.T) {
	store := isolateTrust(t)
	root := testtree.New(t, map[string]string{"a.css": "a{}\n"})
	set, rep, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	for _, name := range []string{"prettier", "clippy"} {
		if d := findDriver(rep, name); d == nil || d.State != capabilities.Untrusted || !strings.Contains(d.Reason, "devbroker trust ") {
			t.Fatalf("%s: %+v, want untrusted", name, d)
		}
	}
	if _, err := store.Trust(root, ""); err != nil {
		t.Fatal(err)
	}
	set2, rep2, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer set2.Close()
	if d := findDriver(rep2, "prettier"); d == nil || d.State == capabilities.Untrusted {
		t.Fatalf("trusted root: prettier %+v", d)
	}
}

// A test driver is the repository's code by its type: one the user's
// configuration adds without runs_repository_code is untrusted in a root
// the user has not trusted, as the defaults' are.
func TestTestDriversNeedTrustByType(t *testing.T) {
	isolateTrust(t)
	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	marker := filepath.Join(t.TempDir(), "ran")
	user := `[languages.python]
test = ["unit"]

[drivers.unit]
type = "pytest"
command = ["sh", "-c", "touch ` + marker + `"]

[languages.go]
test = ["gounit"]

[drivers.gounit]
type = "gotest"

[languages.typescript]
test = ["tsunit"]

[drivers.tsunit]
type = "vitest"
`
	if err := os.MkdirAll(filepath.Join(home, "devbroker"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "devbroker", "config.toml"), []byte(user), 0o644); err != nil {
		t.Fatal(err)
	}
	root := testtree.New(t, map[string]string{"test_a.py": "def test_a():\n    pass\n"})
	set, rep, err := Load(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	for _, name := range []string{"unit", "gounit", "tsunit"} {
		if d := findDriver(rep, name); d == nil || d.State != capabilities.Untrusted {
			t.Errorf("%s: %+v, want untrusted", name, d)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the untrusted root's test driver ran")
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
