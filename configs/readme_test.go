package configs

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// readmeLanguages returns the rows of the README's per-language table:
// for each language named in a row's first cell, the row's cells.
func readmeLanguages(t *testing.T) map[string][]string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "\n| Language | format | lint | check |")
	if !ok {
		t.Fatal("README.md has no per-language table (a header row | Language | format | lint | check | …)")
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(table, "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for _, lang := range codeSpans(cells[0]) {
			rows[lang] = cells
		}
	}
	return rows
}

var codeSpan = regexp.MustCompile("`([^`]+)`")

// codeSpans returns the text of the code spans in s.
func codeSpans(s string) []string {
	var out []string
	for _, m := range codeSpan.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1])
	}
	return out
}

// TestReadmeLanguageTable keeps the README's per-language table true to
// the embedded defaults: it has a row for every default language and no
// other, and each row's format, lint and check cells name exactly the
// drivers the language lists for that kind ("—" for none).
func TestReadmeLanguageTable(t *testing.T) {
	cfg, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeLanguages(t)
	for name, lang := range cfg.Languages {
		cells, ok := rows[name]
		if !ok {
			t.Errorf("the README's language table has no row for %s", name)
			continue
		}
		if len(cells) < 5 {
			t.Errorf("the README's row for %s has %d cells, want 5", name, len(cells))
			continue
		}
		for i, kind := range []struct {
			name    string
			entries []string
		}{{"format", lang.Format}, {"lint", lang.Lint}, {"check", lang.Check}} {
			var want []string
			for _, e := range kind.entries {
				slot, err := ParseSlot(e)
				if err != nil {
					t.Fatal(err)
				}
				want = append(want, slot.Drivers()...)
			}
			got := codeSpans(cells[i+1])
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("the README says %s's %s drivers are %q; configs/defaults.toml says %q", name, kind.name, got, want)
			}
			if len(want) == 0 && strings.TrimSpace(cells[i+1]) != "—" {
				t.Errorf("the README's %s cell for %s is %q; write — for none", kind.name, name, cells[i+1])
			}
		}
	}
	for name := range rows {
		if _, ok := cfg.Languages[name]; !ok {
			t.Errorf("the README's language table has a row for %s, which is not a default language", name)
		}
	}
}
