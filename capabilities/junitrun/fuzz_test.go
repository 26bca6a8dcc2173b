package junitrun

import "testing"

// FuzzPlace: any failure text gives a line of 0 or more, never a panic.
func FuzzPlace(f *testing.F) {
	f.Add("tests/test_a.py:7: AssertionError", "tests/test_a.py")
	f.Add("Error: x\n    at f (/tree/src/a.test.js:2:5)", "src/a.test.js")
	f.Add("../../etc/passwd:3", "etc/passwd")
	f.Fuzz(func(t *testing.T, text, file string) {
		if n := Place(text, file, "/tree"); n < 0 {
			t.Fatalf("line %d", n)
		}
	})
}
