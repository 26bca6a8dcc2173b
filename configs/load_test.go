package configs

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDefault(t *testing.T) {
	cfg, err := Default()
	if err != nil {
		t.Fatalf("the embedded defaults do not load: %v", err)
	}
	if len(cfg.Languages) == 0 || len(cfg.Drivers) == 0 {
		t.Fatalf("defaults have %d languages and %d drivers, want some of each", len(cfg.Languages), len(cfg.Drivers))
	}
	// Checked here again, independently of validate, so that a weakened
	// validator cannot let broken defaults through.
	for name, l := range cfg.Languages {
		if len(l.FileTypes) == 0 {
			t.Errorf("language %s has no file_types", name)
		}
		for _, entry := range slices.Concat(l.Format, l.Lint, l.Check) {
			slot, err := ParseSlot(entry)
			if err != nil {
				t.Errorf("language %s: %v", name, err)
			}
			for _, dn := range slot.Drivers() {
				if cfg.Drivers[dn] == nil {
					t.Errorf("language %s names driver %q, which is not defined", name, dn)
				}
			}
		}
	}
	for name, d := range cfg.Drivers {
		if !slices.Contains(DriverTypes, d.Type) {
			t.Errorf("driver %s has type %q", name, d.Type)
		}
		if d.Doc == "" {
			t.Errorf("driver %s has no doc", name)
		}
		if d.Timeout.Duration <= 0 {
			t.Errorf("driver %s: timeout %v not filled in", name, d.Timeout)
		}
	}
	if cfg.Limits.MaxDiagnostics <= 0 {
		t.Errorf("MaxDiagnostics = %d", cfg.Limits.MaxDiagnostics)
	}
}

// writeProject writes a project file into a new root and loads it.
func writeProject(t *testing.T, content string) (*Config, error) {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load(root)
}

func TestLoadWithoutProjectFile(t *testing.T) {
	got, err := Load(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Default()
	if len(got.Languages) != len(want.Languages) || len(got.Drivers) != len(want.Drivers) {
		t.Errorf("Load without a file = %d languages, %d drivers; Default = %d, %d",
			len(got.Languages), len(got.Drivers), len(want.Languages), len(want.Drivers))
	}
}

func TestLoadUnreadable(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ProjectFile), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(root); err == nil || !strings.Contains(err.Error(), ProjectFile) {
		t.Errorf("Load with a directory for %s: err = %v, want one naming it", ProjectFile, err)
	}
}

func TestLoadReplacesDriverWhole(t *testing.T) {
	cfg, err := writeProject(t, `
[drivers.staticcheck]
type = "external"
command = ["staticcheck", "./..."]
input = "overlay"
errorformat = ["%f:%l:%c: %m"]
`)
	if err != nil {
		t.Fatal(err)
	}
	d := cfg.Drivers["staticcheck"]
	if d.Type != "external" || d.Input != "overlay" {
		t.Errorf("staticcheck = %+v, want the project's external driver", d)
	}
	if d.Doc != "" {
		t.Errorf("staticcheck.doc = %q: the default's doc leaked into the replacement", d.Doc)
	}
	if d.PerFile != nil {
		t.Errorf("per_file = %v, want it left to the driver", *d.PerFile)
	}
	if g := cfg.Drivers["gofumpt"]; g == nil || g.Type != "gofumpt" {
		t.Errorf("gofumpt = %+v, want the default kept", g)
	}
}

func TestLoadChangesLintList(t *testing.T) {
	cfg, err := writeProject(t, `
[languages.go]
file_types = ["*.go"]
format = ["gofumpt"]
lint = ["vet"]

[drivers.vet]
type = "external"
command = ["go", "vet", "./..."]
input = "overlay"
errorformat = ["%f:%l:%c: %m"]
`)
	if err != nil {
		t.Fatal(err)
	}
	g := cfg.Languages["go"]
	// Check, which the table leaves out, keeps the default's value.
	if !slices.Equal(g.Lint, []string{"vet"}) || !slices.Equal(g.Format, []string{"gofumpt"}) || !slices.Equal(g.Check, []string{"gopls | go-build + go-vet"}) {
		t.Errorf("go = %+v, want lint [vet], format [gofumpt], the default check", g)
	}
}

func TestLoadDisablesLanguage(t *testing.T) {
	cfg, err := writeProject(t, "[languages.go]\ndisabled = true\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := cfg.Languages["go"]; ok {
		t.Error("languages.go is still there after disabled = true")
	}
	if cfg.Drivers["gofumpt"] == nil {
		t.Error("disabling a language removed its drivers")
	}
}

func TestLoadDisablesDriverAndLanguage(t *testing.T) {
	cfg, err := writeProject(t, "[languages.go]\ndisabled = true\n[drivers.staticcheck]\ndisabled = true\ntype = \"bogus\"\n")
	if err != nil {
		t.Fatalf("a disabled driver is not validated, and no language uses it: %v", err)
	}
	if _, ok := cfg.Drivers["staticcheck"]; ok {
		t.Error("drivers.staticcheck is still there after disabled = true")
	}
}

func TestLoadChangesLimits(t *testing.T) {
	cfg, err := writeProject(t, "[limits]\nmax_diagnostics = 7\n")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Limits.MaxDiagnostics != 7 {
		t.Errorf("MaxDiagnostics = %d, want 7", cfg.Limits.MaxDiagnostics)
	}
}

func TestLoadExample(t *testing.T) {
	data, err := os.ReadFile("testdata/example.devbroker.toml")
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := writeProject(t, string(data))
	if err != nil {
		t.Fatalf("the example in docs/config.md does not load: %v", err)
	}
	if cfg.Limits.MaxDiagnostics != 100 || cfg.Languages["shell"] == nil || cfg.Drivers["gopls"] == nil {
		t.Errorf("example loaded as %+v", cfg)
	}
	if _, ok := cfg.Languages["python"]; ok {
		t.Error("example disables python, but it is there")
	}
}

// mergeBase is a stand-in for the embedded defaults, so that the expected
// positions do not move when defaults.toml changes.
const mergeBase = `[limits]
max_diagnostics = 123

[languages.sh]
file_types = ["*.sh"]
lint = ["sc"]

[drivers.sc]
type = "external"
command = ["shellcheck", "-"]
`

func loadOver(base, over string) (*Config, error) {
	m, err := load(&source{name: DefaultsName, data: []byte(base)}, &source{name: ProjectFile, data: []byte(over)})
	if err != nil {
		return nil, err
	}
	return m.cfg, nil
}

func TestMergeLimitsKeyByKey(t *testing.T) {
	for _, tt := range []struct {
		over string
		want int
	}{
		{"", 123},
		{"[limits]\n", 123},
		{"[limits]\nmax_diagnostics = 5\n", 5},
		{"[limits]\nmax_diagnostics = 0\n", DefaultMaxDiagnostics},
	} {
		cfg, err := loadOver(mergeBase, tt.over)
		if err != nil {
			t.Fatalf("%q: %v", tt.over, err)
		}
		if cfg.Limits.MaxDiagnostics != tt.want {
			t.Errorf("%q: MaxDiagnostics = %d, want %d", tt.over, cfg.Limits.MaxDiagnostics, tt.want)
		}
	}
}

func TestMergeErrors(t *testing.T) {
	for _, tt := range []struct {
		name, over, want string
	}{
		{"emptied file types", "[languages.sh]\nfile_types = []\n",
			`.devbroker.toml:2:1: languages.sh.file_types: must list at least one file name pattern, like "*.go"`},
		{"a new type replaces the driver whole", "[drivers.sc]\ntype = \"lsp\"\n",
			`.devbroker.toml:1:10: drivers.sc.command: a language server needs a command, an argv list like ["pyright-langserver", "--stdio"] (this table changes the driver's type, so it replaces [drivers.sc] whole: repeat the keys you keep)`},
		{"an overridden key's error is in the file that wrote it", "[drivers.sc]\ncommand = [\"\"]\n",
			`.devbroker.toml:2:12: drivers.sc.command[0]: the program name is empty`},
		{"error in each file", "[languages.sh]\nfile_types = [\"*.sh\"]\nlint = [\"sc\", \"nope\"]\n[limits]\nmax_diagnostics = -2\n",
			".devbroker.toml:3:15: languages.sh.lint[1]: driver \"nope\" is not defined under [drivers]; defined: sc\n" +
				".devbroker.toml:5:1: limits.max_diagnostics: must not be negative, got -2 (0 means the default, 200)"},
		{"strict in the project file", "[drivers.sc]\ntype = \"external\"\ncommand = [\"x\"]\ncmd = [\"y\"]\n",
			`.devbroker.toml:4:1: drivers.sc.cmd: unknown key; this table takes canonical, command, dir, disabled, doc, env, errorformat, exit_codes, fix_command, idle_timeout, input, install, json, lanes, language_id, max_project_servers, output, per_file, project_markers, project_scope, range_args, runs_repository_code, server_root, settings, severity, smoke, stream, timeout, type, url, version_command`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := loadOver(mergeBase, tt.over)
			if err == nil {
				t.Fatalf("load succeeded, want\n%s", tt.want)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("load error\n got: %s\nwant: %s", got, tt.want)
			}
		})
	}
}

// The defaults name a language server for the languages devbroker
// answers questions about, and every entry is a defined lsp driver.
func TestDefaultIntelligence(t *testing.T) {
	cfg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"go":         {"gopls"},
		"python":     {"pyright"},
		"javascript": {"typescript-language-server"},
		"typescript": {"typescript-language-server"},
		"rust":       {"rust-analyzer"},
		"c":          {"clangd"},
		"cpp":        {"clangd"},
	}
	for name, l := range cfg.Languages {
		if !slices.Equal(l.Intelligence, want[name]) {
			t.Errorf("languages.%s.intelligence = %q, want %q", name, l.Intelligence, want[name])
		}
		for _, dn := range l.Intelligence {
			if d := cfg.Drivers[dn]; d == nil || d.Type != "lsp" {
				t.Errorf("languages.%s.intelligence names %q, which is not a defined language server", name, dn)
			}
		}
	}
}

// A project's intelligence list replaces the default's whole, as every
// list does; the language's other keys stay.
func TestLoadChangesIntelligence(t *testing.T) {
	cfg, err := writeProject(t, `
[languages.python]
intelligence = ["pylsp", "pyright"]

[languages.go]
intelligence = []

[drivers.pylsp]
type = "lsp"
command = ["pylsp"]
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Languages["python"].Intelligence; !slices.Equal(got, []string{"pylsp", "pyright"}) {
		t.Errorf("python's intelligence = %q, want the project's [pylsp pyright]", got)
	}
	if got := cfg.Languages["python"].Check; !slices.Equal(got, []string{"pyright"}) {
		t.Errorf("python's check = %q, want the default kept", got)
	}
	if got := cfg.Languages["go"].Intelligence; got == nil || len(got) != 0 {
		t.Errorf("go's intelligence = %#v, want the project's empty list", got)
	}
}

// fail_on is one more key of a language: a project that writes it alone
// keeps the language's lists.
func TestFailOnMergesKeyByKey(t *testing.T) {
	cfg, err := writeProject(t, "[languages.go]\nfail_on = \"introduced\"\n")
	if err != nil {
		t.Fatal(err)
	}
	def, _ := Default()
	goLang := cfg.Languages["go"]
	if goLang.FailOn != "introduced" || len(goLang.Check) == 0 || !slices.Equal(goLang.Check, def.Languages["go"].Check) {
		t.Errorf("go after fail_on: %+v, want fail_on introduced and the defaults' check list %v", goLang, def.Languages["go"].Check)
	}
	if def.Languages["go"].FailOn != "" {
		t.Errorf("the defaults set fail_on %q for go, want none (any)", def.Languages["go"].FailOn)
	}
}
