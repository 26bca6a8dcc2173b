package configs

import (
	"os"
	"path/filepath"
	"testing"
)

func TestInheritDefaultsFalse(t *testing.T) {
	root := t.TempDir()
	err := os.WriteFile(filepath.Join(root, ProjectFile), []byte(`inherit_defaults = false

[languages.shell]
file_types = ["*.sh"]
lint = ["sc"]

[drivers.sc]
type = "external"
command = ["shellcheck", "--format=gcc", "-"]
errorformat = ["%f:%l:%c: %m"]
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Languages) != 1 || len(cfg.Drivers) != 1 || cfg.Languages["go"] != nil {
		t.Errorf("languages %v, drivers %v: the defaults were loaded", cfg.Languages, cfg.Drivers)
	}
	// With the defaults inherited (the default), go is there.
	if err := os.WriteFile(filepath.Join(root, ProjectFile), []byte("inherit_defaults = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if cfg, err = Load(root); err != nil || cfg.Languages["go"] == nil {
		t.Errorf("inherit_defaults = true: %v, %v", cfg, err)
	}
}
