package configs

import (
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
)

// FuzzParse checks that Parse never panics, that every error names the
// file, and that a configuration it accepts is whole: every driver a
// language names is defined and nothing disabled is left.
func FuzzParse(f *testing.F) {
	f.Add(defaultsTOML)
	if b, err := os.ReadFile("testdata/example.devbroker.toml"); err == nil {
		f.Add(b)
	}
	f.Add([]byte(valid))
	f.Add([]byte(mergeBase))
	f.Add([]byte(strings.Replace(valid, `lint = ["sc"]`, `lint = ["sc | x + sc2", "|"]`, 1)))
	f.Add([]byte(valid + "errorformat = [\"%f:%l:%c: %m\", \"%-G%.%#\"]\njson = { message = \"m\" }\n"))
	f.Add([]byte("[drivers.\"a.b\"]\ntype = \"lsp\"\nsettings = { x = { y = [1, 2] } }\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const name = "fuzz.toml"
		cfg, err := Parse(name, data)
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !strings.HasPrefix(line, name+":") {
					t.Fatalf("error line %q does not name the file", line)
				}
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error is %T, want ErrorList", err)
			}
			return
		}
		checkWhole(t, cfg)
	})
}

// checkWhole fails unless an accepted configuration is whole: every driver
// a language names is defined and nothing disabled is left.
func checkWhole(t *testing.T, cfg *Config) {
	t.Helper()
	for ln, l := range cfg.Languages {
		if l.Disabled || len(l.FileTypes) == 0 {
			t.Fatalf("accepted language %q: %+v", ln, l)
		}
		for _, dn := range l.Intelligence {
			if d := cfg.Drivers[dn]; d == nil || d.Type != "lsp" {
				t.Fatalf("accepted language %q whose intelligence names %q, not a defined language server", ln, dn)
			}
		}
		for _, entry := range slices.Concat(l.Format, l.Lint, l.Check) {
			slot, err := ParseSlot(entry)
			if err != nil {
				t.Fatalf("accepted language %q with the entry %q: %v", ln, entry, err)
			}
			for _, dn := range slot.Drivers() {
				if cfg.Drivers[dn] == nil {
					t.Fatalf("accepted language %q naming undefined driver %q", ln, dn)
				}
			}
		}
	}
	for dn, d := range cfg.Drivers {
		if d.Disabled || !slices.Contains(DriverTypes, d.Type) {
			t.Fatalf("accepted driver %q: %+v", dn, d)
		}
	}
	if cfg.Limits.MaxDiagnostics <= 0 {
		t.Fatalf("accepted MaxDiagnostics %d", cfg.Limits.MaxDiagnostics)
	}
}

// FuzzLoadLayers checks the merge of a user's file and a project's file
// over the defaults, key by key: it never panics, every error names one of
// the files, and a configuration it accepts is whole (a disabled driver
// left no language naming it).
func FuzzLoadLayers(f *testing.F) {
	f.Add([]byte(""), []byte("[drivers.gopls]\ncommand = [\"/opt/gopls\"]\n"))
	f.Add([]byte("[drivers.go-vet]\ndisabled = true\n"), []byte("[languages.go]\nlint = [\"go-vet\"]\n"))
	f.Add([]byte("[limits]\nmax_files = 3\n"), []byte("[drivers.shellcheck]\nerrorformat = [\"%f:%l: %m\"]\n"))
	f.Add([]byte("inherit_defaults = false\n"), []byte("[drivers.gopls]\ntype = \"external\"\n"))
	f.Add([]byte("[drivers.x]\ndisabled = true\n"), []byte("[drivers.gopls]\ndisabled = false\n"))
	f.Fuzz(func(t *testing.T, user, project []byte) {
		names := []string{DefaultsName, "user.toml", ProjectFile}
		m, err := loadLayers(&source{name: "user.toml", data: user}, &source{name: ProjectFile, data: project})
		if err != nil {
			for _, line := range strings.Split(err.Error(), "\n") {
				if !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(line, n+":") }) {
					t.Fatalf("error line %q names none of the files", line)
				}
			}
			return
		}
		checkWhole(t, m.cfg)
	})
}
