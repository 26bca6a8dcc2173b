package lex_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine/lex"
)

// notLexed are the languages of the default configuration that engine/lex
// does not lex: their files hold no brackets to balance or declarations to
// find lexically, or a real parser checks them (JSON, YAML).
var notLexed = []string{"shell", "json", "yaml", "markdown"}

// notRouted are the lex languages the default configuration has no drivers
// for: their files are still checked by validate_syntax and read by view
// and replace_symbol.
var notRouted = []string{"kotlin", "scala", "java", "c#", "swift", "php"}

// lexedAs are the lex languages each lexed language of the default
// configuration may be lexed as (a C header is lexed as C++, a superset).
var lexedAs = map[string][]string{
	"go": {"go"}, "javascript": {"javascript", "jsx"}, "typescript": {"javascript", "jsx"},
	"css": {"css", "scss"}, "python": {"python"}, "rust": {"rust"}, "c": {"c", "c++"}, "cpp": {"c++"},
}

// TestDefaultFileTypes ties the one extension table to the default
// configuration: every extension the defaults route to a lexed language
// has a lex language, and every lexed extension is routed by the defaults,
// apart from the languages listed above.
func TestDefaultFileTypes(t *testing.T) {
	cfg, err := configs.Default()
	if err != nil {
		t.Fatal(err)
	}
	routed := map[string]string{} // extension -> configured language
	for _, name := range slices.Sorted(maps.Keys(cfg.Languages)) {
		for _, pat := range cfg.Languages[name].FileTypes {
			ext, ok := strings.CutPrefix(pat, "*")
			if !ok || strings.ContainsAny(ext, "*?[") {
				continue // a whole file name (.bashrc)
			}
			routed[strings.ToLower(ext)] = name
			l := lex.ForFile("x" + ext)
			switch {
			case slices.Contains(notLexed, name) && l != nil:
				t.Errorf("%s of %s is lexed as %s, but %s is listed as not lexed", ext, name, l.Name, name)
			case !slices.Contains(notLexed, name) && l == nil:
				t.Errorf("%s of the configured language %s has no lex language: add it to engine/lex's table", ext, name)
			case l != nil && !slices.Contains(lexedAs[name], l.Name):
				t.Errorf("%s of the configured language %s is lexed as %s, not as one of %q", ext, name, l.Name, lexedAs[name])
			}
		}
	}
	for _, l := range lex.Languages() {
		for _, ext := range l.Exts {
			_, ok := routed[ext]
			switch {
			case slices.Contains(notRouted, l.Name) && ok:
				t.Errorf("%s (%s) is routed by the defaults, but %s is listed as not routed", ext, l.Name, l.Name)
			case !slices.Contains(notRouted, l.Name) && !ok:
				t.Errorf("%s (%s) is lexed, but no file_types of the default configuration lists *%s", ext, l.Name, ext)
			}
		}
	}
}
