package configs

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// A language's Defaulted names the lists that only the embedded defaults
// wrote: a list the user's or the project's file writes, even one equal
// to the default, is asked for; a file that does not inherit the
// defaults writes every list it has.
func TestDefaulted(t *testing.T) {
	all := []string{"format", "lint", "check", "test", "intelligence"}
	cfg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for name, l := range cfg.Languages {
		if !slices.Equal(l.Defaulted, all) {
			t.Errorf("defaults: %s Defaulted = %v, want %v", name, l.Defaulted, all)
		}
	}
	for name, d := range cfg.Drivers {
		if !d.Defaulted {
			t.Errorf("defaults: driver %s is not Defaulted", name)
		}
	}

	home := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", home)
	if err := os.MkdirAll(filepath.Join(home, "devbroker"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "devbroker", "config.toml"), []byte("[languages.yaml]\nlint = [\"yamllint\"]\n\n[drivers.yamllint]\ntimeout = \"5m\"\n\n[drivers.prettier]\ncommand = [\"my-prettier\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte("[languages.json]\nformat = []\n\n[languages.notes]\nfile_types = [\"*.txt\"]\nlint = [\"yamllint\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, err = Load(root); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{
		"yaml":     {"format", "check", "test", "intelligence"},
		"json":     {"lint", "check", "test", "intelligence"},
		"notes":    nil,
		"markdown": all,
	} {
		if l := cfg.Languages[name]; l == nil || !slices.Equal(l.Defaulted, want) {
			t.Errorf("%s: Defaulted = %v, want %v", name, l, want)
		}
	}

	// A timeout is no program: yamllint is still the default's; a
	// command names one.
	if !cfg.Drivers["yamllint"].Defaulted || cfg.Drivers["prettier"].Defaulted {
		t.Errorf("yamllint Defaulted = %v (want true: a timeout names no program), prettier %v (want false: its command is the user's)", cfg.Drivers["yamllint"].Defaulted, cfg.Drivers["prettier"].Defaulted)
	}

	if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte("inherit_defaults = false\n[languages.yaml]\nfile_types = [\"*.yml\"]\nlint = [\"y\"]\n[drivers.y]\ntype = \"external\"\ncommand = [\"y\"]\nerrorformat = [\"%f:%l: %m\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, err = Load(root); err != nil {
		t.Fatal(err)
	}
	if l := cfg.Languages["yaml"]; len(l.Defaulted) != 0 {
		t.Errorf("inherit_defaults = false: yaml Defaulted = %v, want none", l.Defaulted)
	}
}
