package engine

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPackageDocNamesEverySubpackage keeps the package doc's list of the
// parts true: every directory of Go code below engine/ is named in it.
func TestPackageDocNamesEverySubpackage(t *testing.T) {
	f, err := parser.ParseFile(token.NewFileSet(), "engine.go", nil, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(f.Doc.Text()), " ")
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "testdata" {
			continue
		}
		if gos, _ := filepath.Glob(filepath.Join(e.Name(), "*.go")); len(gos) == 0 {
			continue
		}
		n++
		if !regexp.MustCompile(`\b` + e.Name() + ` \(`).MatchString(doc) {
			t.Errorf("the package doc (engine.go) does not name engine/%s, in the form \"%s (what it holds)\"", e.Name(), e.Name())
		}
	}
	if n < 10 {
		t.Fatalf("found %d subpackages: the walk proves nothing", n)
	}
}
