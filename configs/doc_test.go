package configs

import (
	"bytes"
	"os"
	"testing"

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
