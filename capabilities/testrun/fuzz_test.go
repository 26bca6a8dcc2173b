package testrun

import (
	"bytes"
	"testing"
)

// FuzzReadJUnit: any report reads or fails with an error, never a panic;
// what reads has no more cases than the bound.
func FuzzReadJUnit(f *testing.F) {
	f.Add([]byte(`<?xml version="1.0"?><testsuites><testsuite><testcase classname="tests.test_a" name="test_a" file="tests/test_a.py" line="3"><failure message="assert 0 == 4">tests/test_a.py:5: AssertionError</failure></testcase><testcase name="s"><skipped/></testcase></testsuite></testsuites>`))
	f.Add([]byte(`<testsuite><testcase name="x"/></testsuite>`))
	f.Add([]byte(`<html/>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cases, err := ReadJUnit(bytes.NewReader(data))
		if err == nil && len(cases) > maxCases {
			t.Fatalf("%d cases", len(cases))
		}
	})
}
