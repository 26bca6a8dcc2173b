package pytest

import (
	"bytes"
	"testing"

	"github.com/devbroker/devbroker/capabilities/testrun"
)

// FuzzReadJUnit: any report reads or fails with an error, never a panic.
func FuzzReadJUnit(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><testsuites><testsuite><testcase classname="tests.test_a" name="test_a" file="tests/test_a.py" line="3"><failure message="assert 0 == 4">tests/test_a.py:5: AssertionError</failure></testcase><testcase name="s"><skipped/></testcase></testsuite></testsuites>`))
	f.Add([]byte(`<testsuite><testcase name="x"/></testsuite>`))
	f.Add([]byte(`<html/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cases, err := testrun.ReadJUnit(bytes.NewReader(data))
		if err != nil {
			return
		}
		d := &Driver{name: "pytest"}
		for _, c := range cases {
			if c.Failure != nil || c.Error != nil {
				diag := d.failed(c, "/tree", []string{"tests/test_a.py"}, func(string) []byte { return nil })
				if diag.Line < 1 || diag.Path == "" {
					t.Fatalf("diagnostic %+v", diag)
				}
			}
		}
	})
}

// FuzzImports: any source reads without a panic.
func FuzzImports(f *testing.F) {
	f.Add([]byte("from . import a\nfrom ..b.c import (d, e as f)\nimport g.h, i\n"), "pkg/sub")
	f.Fuzz(func(t *testing.T, src []byte, dir string) {
		for _, m := range imports(src, dir) {
			if m == "" {
				t.Fatal("an empty module name")
			}
		}
	})
}
