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
		for ln, l := range cfg.Languages {
			if l.Disabled || len(l.FileTypes) == 0 {
				t.Fatalf("accepted language %q: %+v", ln, l)
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
			if d.Disabled || !slices.Contains(driverTypes, d.Type) {
				t.Fatalf("accepted driver %q: %+v", dn, d)
			}
		}
		if cfg.Limits.MaxDiagnostics <= 0 {
			t.Fatalf("accepted MaxDiagnostics %d", cfg.Limits.MaxDiagnostics)
		}
	})
}
