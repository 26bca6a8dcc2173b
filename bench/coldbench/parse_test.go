package main

import (
	"strings"
	"testing"
)

// TestParseGoplsLine: gopls check's ranges on one line and over several.
func TestParseGoplsLine(t *testing.T) {
	for _, tc := range []struct {
		line string
		want finding
		ok   bool
	}{
		{"/m/a/b.go:3:26-28: fmt.Printf format %d", finding{"a/b.go", 3, 26, "fmt.Printf format %d"}, true},
		{"/m/cmd/bundle/main.go:195:2-197:3: should replace this if statement", finding{"cmd/bundle/main.go", 195, 2, "should replace this if statement"}, true},
		{"/m/x.go:7:1: plain", finding{"x.go", 7, 1, "plain"}, true},
		{"/m/x.go:7:1: plain [windows]", finding{"x.go", 7, 1, "plain"}, true},
		{"\tcontinued message", finding{}, false},
		{"", finding{}, false},
	} {
		got, ok := parseGoplsLine("/m", tc.line)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%q: got %+v %v, want %+v %v", tc.line, got, ok, tc.want, tc.ok)
		}
	}
}

// FuzzParseGoplsLine: any line is read or refused without a panic, and a
// finding read has a one-line message.
func FuzzParseGoplsLine(f *testing.F) {
	f.Add("/m/a/b.go:3:26-28: msg")
	f.Add("/m/a.go:195:2-197:3: msg")
	f.Add("a:b:c")
	f.Fuzz(func(t *testing.T, l string) {
		got, ok := parseGoplsLine("/m", l)
		if !ok {
			return
		}
		if strings.Contains(got.what, "\n") {
			t.Errorf("%q: message %q", l, got.what)
		}
	})
}
