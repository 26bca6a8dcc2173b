package configs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// homeInRoot makes root the home directory (HOME, no XDG_CONFIG_HOME) and
// writes files under it.
func homeInRoot(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	t.Setenv("HOME", root)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("GOENV", "")
	t.Setenv("NPM_CONFIG_USERCONFIG", "")
	t.Setenv("PIP_CONFIG_FILE", "")
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const homeDriver = `
[drivers.mylint]
type = "external"
command = ["mylint", "{path}"]
input = "stdin"
errorformat = ["%f:%l: %m"]

[languages.text]
file_types = ["*.txt"]
lint = ["mylint"]
`

// TestUserFileInsideTheRootIsTheProjects: with the home directory as the
// root, the user's devbroker configuration is writable by whatever edits
// the root, so it applies only once the root is trusted, lists what it
// runs, and its content is part of what trust is given to (its driver
// ran in an untrusted root before).
func TestUserFileInsideTheRootIsTheProjects(t *testing.T) {
	root := homeInRoot(t, map[string]string{".config/devbroker/config.toml": homeDriver})
	p, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.Untrusted.Drivers["mylint"]; ok {
		t.Error("the user file inside the root applies untrusted")
	}
	if _, ok := p.Config.Drivers["mylint"]; !ok {
		t.Error("the user file inside the root does not apply once trusted")
	}
	if got := commandNames(p); !slices.Equal(got, []string{"mylint:"}) {
		t.Errorf("commands %v, want mylint", got)
	}
	if len(p.HomeFiles) != 1 || !strings.Contains(p.HomeFiles[0].What, "devbroker user configuration") {
		t.Errorf("home files %+v", p.HomeFiles)
	}
	h1 := p.Hash
	if h1 == "" {
		t.Fatal("no hash: trust could not cover the file")
	}
	if h, _ := FileHash(root); h != h1 {
		t.Errorf("FileHash %s, LoadProject %s: trust would not match", h, h1)
	}
	if err := os.WriteFile(filepath.Join(root, ".config/devbroker/config.toml"), []byte(homeDriver+"\n# edited\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if h2, _ := FileHash(root); h2 == h1 {
		t.Error("an edit of the user file inside the root leaves the hash: the root would stay trusted")
	}
}

// TestToolConfigsInsideTheRootAreInert: the go command's env file (which
// can set GOFLAGS=-toolexec=...), npm's and pip's configuration inside the
// root are made inert until trusted, and are part of the trusted content.
func TestToolConfigsInsideTheRootAreInert(t *testing.T) {
	root := homeInRoot(t, map[string]string{
		".config/go/env":           "GOFLAGS=-toolexec=/tmp/evil\n",
		".npmrc":                   "script-shell=/tmp/evil\n",
		".config/pip/pip.conf":     "[global]\n",
		".devbroker.toml":          "",
		"unrelated/.config/go/env": "x",
	})
	p, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GOENV=off", "NPM_CONFIG_USERCONFIG=" + os.DevNull, "PIP_CONFIG_FILE=" + os.DevNull} {
		if !slices.Contains(p.InertEnv, want) {
			t.Errorf("inert env %v lacks %s", p.InertEnv, want)
		}
	}
	h1 := p.Hash
	if h1 == hashOf(nil) {
		t.Error("the hash is the project file's alone")
	}
	os.WriteFile(filepath.Join(root, ".config/go/env"), []byte("GOFLAGS=-toolexec=/tmp/other\n"), 0o644)
	if h2, _ := FileHash(root); h2 == h1 {
		t.Error("an edit of the go env file inside the root leaves the hash")
	}

	// Outside the root, nothing changes: no inert env, the plain hash.
	other := t.TempDir()
	os.WriteFile(filepath.Join(other, ProjectFile), nil, 0o644)
	q, err := LoadProject(other)
	if err != nil {
		t.Fatal(err)
	}
	if len(q.InertEnv) != 0 || len(q.HomeFiles) != 0 || q.Hash != hashOf(nil) {
		t.Errorf("a root outside the home: inert %v, home %v, hash %s", q.InertEnv, q.HomeFiles, q.Hash)
	}
}

// TestUnreadableUserFileIsAWarning: a user configuration that cannot be
// read for want of permission (an unreadable home) no longer stops every
// command: the defaults serve, and the load says so.
func TestUnreadableUserFileIsAWarning(t *testing.T) {
	userConfig(t, homeDriver)
	saved := readUser
	t.Cleanup(func() { readUser = saved })
	readUser = func(string) ([]byte, error) { return nil, &fs.PathError{Op: "open", Path: "x", Err: fs.ErrPermission} }
	p, err := LoadProject(t.TempDir())
	if err != nil {
		t.Fatalf("an unreadable user file stopped the load: %v", err)
	}
	if len(p.Warnings) != 1 || !strings.Contains(p.Warnings[0], "cannot be read") || !strings.Contains(p.Warnings[0], "XDG_CONFIG_HOME") {
		t.Errorf("warnings %q", p.Warnings)
	}
	if _, ok := p.Config.Drivers["gopls"]; !ok {
		t.Error("the defaults do not serve")
	}
	// Another error still stops it.
	readUser = func(string) ([]byte, error) { return nil, errors.New("disk on fire") }
	if _, err := LoadProject(t.TempDir()); err == nil {
		t.Error("an I/O error of the user file was ignored")
	}
}

// TestHomeFileNotYetWrittenIsInert: with the home directory as the root,
// the tools are told to ignore their configuration files inside it even
// when none exists yet: one written while a server runs (an agent writes
// ~/.config/go/env with GOFLAGS=-toolexec) would otherwise be read by the
// next lint, the configuration being loaded only at start.
func TestHomeFileNotYetWrittenIsInert(t *testing.T) {
	root := homeInRoot(t, nil)
	p, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GOENV=off", "NPM_CONFIG_USERCONFIG=" + os.DevNull, "PIP_CONFIG_FILE=" + os.DevNull} {
		if !slices.Contains(p.InertEnv, want) {
			t.Errorf("InertEnv %v: want %s, for a file that may appear inside the root", p.InertEnv, want)
		}
	}
	if len(p.HomeFiles) != 0 {
		t.Errorf("HomeFiles %v: want none, no file exists", p.HomeFiles)
	}
	// A root that is not the home directory makes nothing inert.
	other := t.TempDir()
	if p, err = LoadProject(other); err != nil {
		t.Fatal(err)
	}
	if len(p.InertEnv) != 0 {
		t.Errorf("a root outside the home directory: InertEnv %v, want none", p.InertEnv)
	}
}
