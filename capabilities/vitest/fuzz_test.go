package vitest

import (
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/capabilities/testrun"
)

// FuzzFailed: any failure text gives a diagnostic inside the root, at a
// line and column of at least 1.
func FuzzFailed(f *testing.F) {
	f.Add("src/a.test.ts", "expected 1 to be 2", "AssertionError\n ❯ src/a.test.ts:6:15\n")
	f.Add("../x.ts", "", "    at /tree/src/a.ts:1:2\n")
	f.Fuzz(func(t *testing.T, file, msg, text string) {
		d := &Driver{name: "vitest"}
		diag := d.failed(testrun.Case{Classname: file, Name: "t", Failure: &testrun.Problem{Message: msg, Text: text}}, "/tree", []string{"src/a.ts"})
		if !filepath.IsLocal(filepath.FromSlash(diag.Path)) || diag.Line < 1 || diag.Column < 1 {
			t.Fatalf("diagnostic %+v", diag)
		}
	})
}
