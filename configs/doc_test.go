package configs

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"unicode"

	"github.com/devbroker/devbroker/configs/internal/configdoc"
)

// TestConfigDocUpToDate fails when docs/config.md is not what the doc
// comments of this package generate.
func TestConfigDocUpToDate(t *testing.T) {
	want, err := configdoc.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("../docs/config.md")
	if err != nil {
		t.Fatalf("%v; run %s", err, configdoc.Command)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("docs/config.md is out of date with configs/*.go; run %s", configdoc.Command)
	}
}

// TestConfigDocNamesKeys: a key's description in docs/config.md names
// it as it is written in TOML (`idle_timeout`), not by its Go field's
// name (IdleTimeout).
func TestConfigDocNamesKeys(t *testing.T) {
	doc, err := configdoc.Generate(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(doc), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) < 5 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		key := strings.Trim(strings.TrimSpace(cells[1]), "`")
		word, _, _ := strings.Cut(strings.TrimSpace(cells[3]), " ")
		word = strings.TrimRight(word, ",")
		var snake strings.Builder
		for i, r := range word {
			if unicode.IsUpper(r) && i > 0 {
				snake.WriteByte('_')
			}
			snake.WriteRune(unicode.ToLower(r))
		}
		if snake.String() == key && word != key {
			t.Errorf("the description of %s begins with its Go name %s: %q", key, word, strings.TrimSpace(cells[3]))
		}
	}
}
