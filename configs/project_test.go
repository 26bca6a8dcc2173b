package configs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// loadProjectFile writes content as a root's project file and loads it.
func loadProjectFile(t *testing.T, content string) *Project {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadProject(root)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func commandNames(p *Project) []string {
	var out []string
	for _, c := range p.Commands {
		out = append(out, c.Driver+":"+strings.Join(c.Keys, ","))
	}
	return out
}

func TestLoadProjectCommands(t *testing.T) {
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"new external driver", `[languages.notes]
file_types = ["*.txt"]
lint = ["mine"]
[drivers.mine]
type = "external"
command = ["my-linter", "-"]
`, []string{"mine:"}},
		{"default command replaced", `[drivers.shellcheck]
type = "external"
command = ["evil", "-"]
version_command = ["shellcheck", "--version"]
`, []string{"shellcheck:command"}},
		{"same commands, other timeout and severity", `[drivers.shellcheck]
type = "external"
command = ["shellcheck", "--format=json1", "--external-sources", "-"]
version_command = ["shellcheck", "--version"]
input = "stdin"
timeout = "90s"
severity = "error"
`, nil},
		{"env and dir", `[drivers.shellcheck]
type = "external"
command = ["shellcheck", "--format=json1", "--external-sources", "-"]
version_command = ["shellcheck", "--version"]
dir = "sub"
env = ["PATH=/tmp"]
`, []string{"shellcheck:dir,env"}},
		{"language server settings", `[drivers.gopls]
type = "lsp"
command = ["gopls"]
version_command = ["gopls", "version"]
settings = { env = { GOFLAGS = "-toolexec=evil" } }
`, []string{"gopls:settings"}},
		{"disabled driver, lists of default drivers, limits", `[drivers.shfmt]
disabled = true
[languages.shell]
file_types = ["*.sh"]
format = []
lint = ["shellcheck"]
check = []
[limits]
max_diagnostics = 5
`, nil},
		{"linked-in types run nothing", `inherit_defaults = false
[languages.go]
file_types = ["*.go"]
format = ["fmt"]
lint = ["sc"]
[drivers.fmt]
type = "gofumpt"
[drivers.sc]
type = "staticcheck"
`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := loadProjectFile(t, tc.file)
			if got := commandNames(p); !slices.Equal(got, tc.want) {
				t.Fatalf("commands %q, want %q", got, tc.want)
			}
		})
	}
}

func TestLoadProjectRunsAndHash(t *testing.T) {
	file := `[languages.notes]
file_types = ["*.txt"]
lint = ["mine"]

[drivers.mine]
type = "external"
command = ["my-linter", "-"]
version_command = ["my-linter", "--version"]
`
	p := loadProjectFile(t, file)
	if len(p.Commands) != 1 {
		t.Fatalf("commands %+v", p.Commands)
	}
	c := p.Commands[0]
	if c.Line != 5 || len(c.Runs) != 2 || c.Runs[0].Key != "command" || c.Runs[1].Key != "version_command" || c.Runs[1].Argv[1] != "--version" {
		t.Fatalf("command %+v", c)
	}
	if !strings.HasPrefix(p.Hash, "sha256:") || len(p.Hash) != len("sha256:")+64 {
		t.Fatalf("hash %q", p.Hash)
	}
	if q := loadProjectFile(t, file+"\n"); q.Hash == p.Hash {
		t.Fatal("an edited file has the same hash")
	}
	if q := loadProjectFile(t, file); q.Hash != p.Hash {
		t.Fatal("the same content hashed differently")
	}
	none, err := LoadProject(t.TempDir())
	if err != nil || none.File != "" || none.Hash != "" || none.Commands != nil {
		t.Fatalf("no file: %+v, %v", none, err)
	}
}

// The documentation's Trust section names every default driver that runs
// the repository's code, and says that an untrusted file applies not at
// all.
func TestTrustDocNamesRepositoryCode(t *testing.T) {
	b, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(b), "// # Trust")
	if !ok {
		t.Fatal("doc.go has no Trust section")
	}
	section = strings.Join(strings.Fields(strings.ReplaceAll(section, "//", "")), " ")
	if !strings.Contains(section, "none of its .devbroker.toml applies") {
		t.Error("the Trust section does not say that an untrusted file applies not at all")
	}
	cfg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for name, d := range cfg.Drivers {
		if d.RunsRepositoryCode && !strings.Contains(section, name) {
			t.Errorf("the Trust section does not name %s, which runs the repository's code", name)
		}
	}
}

// A .devbroker.toml that is a symbolic link out of the root is refused,
// without reading what it points to; one inside the root is read.
func TestProjectFileSymlinkOutside(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o700); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "secret.toml")
	if err := os.WriteFile(secret, []byte("topsecret = [\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(root, ProjectFile)); err != nil {
		t.Fatal(err)
	}
	_, err := LoadProject(root)
	if err == nil || !strings.Contains(err.Error(), "inside the root") || strings.Contains(err.Error(), "topsecret") {
		t.Fatalf("LoadProject: %v", err)
	}
	if _, err := FileHash(root); err == nil {
		t.Fatal("FileHash read through the link")
	}
	inside := filepath.Join(root, "conf.toml")
	if err := os.WriteFile(inside, []byte("[limits]\nmax_files = 7\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(root, ProjectFile)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("conf.toml", filepath.Join(root, ProjectFile)); err != nil {
		t.Fatal(err)
	}
	p, err := LoadProject(root)
	if err != nil || p.Config.Limits.MaxFiles != 7 {
		t.Fatalf("a link inside the root: %+v, %v", p, err)
	}
}

// A project that names its own language server in a language's
// intelligence names a command like any other: trusting the root runs
// it, and until then the defaults' list applies.
func TestProjectIntelligenceIsUntrusted(t *testing.T) {
	userConfig(t, "")
	p := loadProjectFile(t, `[languages.go]
intelligence = ["mine"]

[drivers.mine]
type = "lsp"
command = ["./tools/my-gopls"]
`)
	if got := commandNames(p); !slices.Equal(got, []string{"mine:"}) {
		t.Errorf("commands = %q, want the project's language server", got)
	}
	if got := p.Config.Languages["go"].Intelligence; !slices.Equal(got, []string{"mine"}) {
		t.Errorf("trusted, go's intelligence = %q, want [mine]", got)
	}
	if got := p.Untrusted.Languages["go"].Intelligence; !slices.Equal(got, []string{"gopls"}) {
		t.Errorf("untrusted, go's intelligence = %q, want the default [gopls]", got)
	}
}
