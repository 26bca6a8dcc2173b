package configs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// userConfig points XDG_CONFIG_HOME at a new directory holding content
// (none when content is "") as the user's configuration, and returns the
// file's path.
func userConfig(t *testing.T, content string) string {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	file := filepath.Join(dir, "devbroker", "config.toml")
	if content != "" {
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return file
}

func TestOverrideOneKeyOfADefaultDriver(t *testing.T) {
	userConfig(t, "")
	p := loadProjectFile(t, "[drivers.gopls]\ncommand = [\"/opt/go/bin/gopls\", \"-remote=auto\"]\n")
	d := p.Config.Drivers["gopls"]
	if !slices.Equal(d.Command, []string{"/opt/go/bin/gopls", "-remote=auto"}) {
		t.Errorf("command = %q, want the project's", d.Command)
	}
	if d.Type != "lsp" || d.Install == "" || !slices.Equal(d.VersionCommand, []string{"gopls", "version"}) || d.Settings["diagnosticsDelay"] != "0s" {
		t.Errorf("gopls = %+v: the keys the project did not write lost the default's values", d)
	}
	// Repository-chosen code: trusting the root is what lets it run, and
	// until then the default command serves.
	if got := commandNames(p); !slices.Equal(got, []string{"gopls:command"}) {
		t.Errorf("commands %q, want gopls:command", got)
	}
	if u := p.Untrusted.Drivers["gopls"]; !slices.Equal(u.Command, []string{"gopls"}) {
		t.Errorf("untrusted gopls command = %q, want the default", u.Command)
	}
}

func TestOverrideKeysOfALanguage(t *testing.T) {
	userConfig(t, "")
	p := loadProjectFile(t, "[languages.go]\nlint = [\"staticcheck\"]\n")
	g := p.Config.Languages["go"]
	if !slices.Equal(g.Lint, []string{"staticcheck"}) || !slices.Equal(g.FileTypes, []string{"*.go"}) || len(g.Check) != 1 {
		t.Errorf("go = %+v, want lint [staticcheck] and the default's other keys", g)
	}
}

func TestParserKeysExcludeEachOther(t *testing.T) {
	userConfig(t, "")
	p := loadProjectFile(t, "[drivers.shellcheck]\ncommand = [\"shellcheck\", \"--format=gcc\", \"-\"]\nerrorformat = [\"%f:%l:%c: %m\"]\n")
	d := p.Config.Drivers["shellcheck"]
	if d.JSON != nil || len(d.Errorformat) != 1 {
		t.Errorf("shellcheck json %+v, errorformat %q: writing errorformat must drop the default's json", d.JSON, d.Errorformat)
	}
}

func TestDisabledDriverLeavesEveryList(t *testing.T) {
	userConfig(t, "")
	for _, tc := range []struct {
		name, file string
		lang       string
		format     []string
		lint       []string
		check      []string
	}{
		{"the first alternative", "[drivers.gopls]\ndisabled = true\n", "go",
			[]string{"gofumpt"}, []string{"staticcheck", "go-vet"}, []string{"go-build + go-vet"}},
		{"a driver that runs with another", "[drivers.go-vet]\ndisabled = true\n", "go",
			[]string{"gofumpt"}, []string{"staticcheck"}, []string{"gopls | go-build"}},
		{"a list's only driver", "[drivers.shellcheck]\ndisabled = true\n", "shell",
			[]string{"shfmt"}, []string{}, []string{}},
		{"every language that names it", "[drivers.prettier]\ndisabled = true\n", "yaml",
			[]string{}, []string{"yamllint"}, []string{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := loadProjectFile(t, tc.file)
			l := p.Config.Languages[tc.lang]
			if !slices.Equal(l.Format, tc.format) || !slices.Equal(l.Lint, tc.lint) || !slices.Equal(l.Check, tc.check) {
				t.Errorf("%s = format %q lint %q check %q, want %q %q %q", tc.lang, l.Format, l.Lint, l.Check, tc.format, tc.lint, tc.check)
			}
		})
	}
	if l := loadProjectFile(t, "[drivers.pyright]\ndisabled = true\n").Config.Languages["python"]; l.Intelligence == nil || len(l.Intelligence) != 0 {
		t.Errorf("python's intelligence without pyright = %#v, want an empty list", l.Intelligence)
	}
	p := loadProjectFile(t, "[drivers.prettier]\ndisabled = true\n")
	for name, l := range p.Config.Languages {
		if slices.Contains(slices.Concat(l.Format, l.Lint, l.Check), "prettier") {
			t.Errorf("%s still names prettier", name)
		}
	}
}

func TestUserConfigBetweenDefaultsAndProject(t *testing.T) {
	file := userConfig(t, "[drivers.gopls]\ncommand = [\"/home/me/bin/gopls\"]\n[drivers.ruff]\ntimeout = \"45s\"\n[limits]\nmax_diagnostics = 50\nmax_files = 900\n")
	p := loadProjectFile(t, "[drivers.ruff]\ntimeout = \"10s\"\n[limits]\nmax_files = 7\n")
	c := p.Config
	if got := c.Drivers["gopls"].Command; !slices.Equal(got, []string{"/home/me/bin/gopls"}) {
		t.Errorf("gopls command = %q, want the user's", got)
	}
	if got := c.Drivers["ruff"].Timeout.String(); got != "10s" {
		t.Errorf("ruff timeout = %s, want the project's 10s", got)
	}
	if c.Limits.MaxDiagnostics != 50 || c.Limits.MaxFiles != 7 {
		t.Errorf("limits %+v, want max_diagnostics 50 (user) and max_files 7 (project)", c.Limits)
	}
	// The user's own file is trusted: its command is no project command,
	// and it applies in an untrusted root, where none of the project's
	// file does.
	if len(p.Commands) != 0 {
		t.Errorf("commands %q, want none", commandNames(p))
	}
	u := p.Untrusted
	if !slices.Equal(u.Drivers["gopls"].Command, []string{"/home/me/bin/gopls"}) || u.Drivers["ruff"].Timeout.String() != "45s" {
		t.Errorf("untrusted: gopls %q, ruff timeout %s: want the user's", u.Drivers["gopls"].Command, u.Drivers["ruff"].Timeout)
	}
	if u.Limits.MaxFiles != 900 || u.Limits.MaxDiagnostics != 50 {
		t.Errorf("untrusted limits %+v, want the user's", u.Limits)
	}
	// An error in the user's file names it.
	if err := os.WriteFile(file, []byte("[drivers.gopls]\ncommand = \"gopls\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(t.TempDir()); err == nil || !strings.HasPrefix(err.Error(), file+":2:") {
		t.Errorf("Load with a bad user file: %v, want an error at %s:2", err, file)
	}
}

func TestUserFileLocation(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, tc := range []struct{ xdg, want string }{
		{"/x/conf", "/x/conf/devbroker/config.toml"},
		{"", filepath.Join(home, ".config", "devbroker", "config.toml")},
		{"relative/conf", filepath.Join(home, ".config", "devbroker", "config.toml")},
	} {
		t.Setenv("XDG_CONFIG_HOME", tc.xdg)
		if got := UserFile(); got != tc.want {
			t.Errorf("XDG_CONFIG_HOME=%q: UserFile() = %q, want %q", tc.xdg, got, tc.want)
		}
	}
}

// [mcp] tools merges key by key like [limits]: the user's file sets it for
// every root, a trusted project's over it, and an untrusted root keeps the
// user's.
func TestMCPToolsLayers(t *testing.T) {
	userConfig(t, "[mcp]\ntools = \"lean\"\n")
	p := loadProjectFile(t, "[mcp]\ntools = \"full\"\n")
	if got := p.Config.MCP.Tools; got != "full" {
		t.Errorf("trusted: tools %q, want the project's full", got)
	}
	if got := p.Untrusted.MCP.Tools; got != "lean" {
		t.Errorf("untrusted: tools %q, want the user's lean", got)
	}
	p = loadProjectFile(t, "[limits]\nmax_files = 7\n")
	if got := p.Config.MCP.Tools; got != "lean" {
		t.Errorf("a project that does not set it: tools %q, want the user's lean", got)
	}
}
