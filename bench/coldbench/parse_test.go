package main

import (
	"slices"
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
		{"/m/a/b.go:3:26-28: fmt.Printf format %d", finding{path: "a/b.go", line: 3, col: 26, what: "fmt.Printf format %d"}, true},
		{"/m/cmd/bundle/main.go:195:2-197:3: should replace this if statement", finding{path: "cmd/bundle/main.go", line: 195, col: 2, what: "should replace this if statement"}, true},
		{"/m/x.go:7:1: plain", finding{path: "x.go", line: 7, col: 1, what: "plain"}, true},
		{"/m/x.go:7:1: plain [windows]", finding{path: "x.go", line: 7, col: 1, what: "plain"}, true},
		{"/elsewhere/y.go:2:3: - other", finding{path: "/elsewhere/y.go", line: 2, col: 3, what: "- other"}, true},
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

// TestParseGoplsOutput: the related places gopls check prints under a
// finding ("path:line:col: - message") belong to it, in path order, and
// are not findings; a finding printed again for another build
// configuration is read once, with its related places.
func TestParseGoplsOutput(t *testing.T) {
	out := `/m/a.go:10:5-20: impossible type assertion
/m/b.go:3:1-4: - could eliminate this type assertion
/m/a.go:2:1: - first
/m/a.go:10:5-20: impossible type assertion [windows]
/m/b.go:3:1-4: - could eliminate this type assertion
/m/a.go:2:1: - first
/m/c.go:1:1: other declaration
  of x
/m/c.go:4:2: x redeclared
/elsewhere/d.go:7:8: - 
/m/e.go:9:9: no related
`
	want := []finding{
		{path: "a.go", line: 10, col: 5, what: "impossible type assertion", related: "a.go:2:1: first; b.go:3:1: could eliminate this type assertion"},
		{path: "c.go", line: 1, col: 1, what: "other declaration"},
		{path: "c.go", line: 4, col: 2, what: "x redeclared", related: "/elsewhere/d.go:7:8: "},
		{path: "e.go", line: 9, col: 9, what: "no related"},
	}
	if got := parseGoplsOutput("/m", out); !slices.Equal(got, want) {
		t.Errorf("got\n%+v\nwant\n%+v", got, want)
	}
	// A related line before any finding is a finding of its own (it has
	// nothing to belong to).
	if got := parseGoplsOutput("/m", "/m/a.go:1:1: - lone\n"); len(got) != 1 || got[0].what != "- lone" {
		t.Errorf("a lone related line: got %+v", got)
	}
}

// FuzzParseGoplsOutput: any output is read without a panic; no finding
// read is a related place that had a finding to belong to, and every
// finding is read once.
func FuzzParseGoplsOutput(f *testing.F) {
	f.Add("/m/a.go:10:5-20: msg\n/m/b.go:3:1-4: - rel\n")
	f.Add("/m/a.go:1:1: - lone\n/m/a.go:2:2: - rel\n")
	f.Add("/m/a.go:1:1: x\n\tcont\n/m/a.go:1:1: x [darwin]\n")
	f.Fuzz(func(t *testing.T, out string) {
		got := parseGoplsOutput("/m", out)
		seen := map[finding]bool{}
		for i, g := range got {
			if seen[g] {
				t.Errorf("%q: %+v twice", out, g)
			}
			seen[g] = true
			if i > 0 && strings.HasPrefix(g.what+" ", relatedMark) {
				t.Errorf("%q: related place %+v read as a finding after %+v", out, g, got[i-1])
			}
			if strings.Contains(g.related, "\n") {
				t.Errorf("%q: related %q spans lines", out, g.related)
			}
		}
	})
}

// TestParsePyright: pyright --outputjson's errors and warnings, 1-based,
// relative to the project, the message's first line; information left out.
func TestParsePyright(t *testing.T) {
	out := `{"version": "1.1.414", "generalDiagnostics": [
 {"file": "/p/src/requests/help.py", "severity": "error", "message": "Import \"chardet\" could not be resolved", "range": {"start": {"line": 19, "character": 11}, "end": {"line": 19, "character": 18}}, "rule": "reportMissingImports"},
 {"file": "/p/src/requests/models.py", "severity": "warning", "message": "Type of \"detect\" is unknown\n  more", "range": {"start": {"line": 899, "character": 19}, "end": {"line": 899, "character": 25}}},
 {"file": "/p/src/requests/models.py", "severity": "information", "message": "info", "range": {"start": {"line": 1, "character": 0}, "end": {"line": 1, "character": 1}}}
], "summary": {"errorCount": 1}}`
	got, err := parsePyright("/p", []byte(out))
	want := []finding{
		{path: "src/requests/help.py", line: 20, col: 12, what: `Import "chardet" could not be resolved`},
		{path: "src/requests/models.py", line: 900, col: 20, what: `Type of "detect" is unknown`},
	}
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("got %+v, %v; want %+v", got, err, want)
	}
	if _, err := parsePyright("/p", []byte("No configuration file found.\n")); err == nil {
		t.Error("text that is not pyright's JSON read without an error")
	}
}

// TestParseTSC: tsc --pretty false's errors; continuation lines and
// anything else are not findings.
func TestParseTSC(t *testing.T) {
	out := "src/main.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n" +
		"src/a b.ts(10,1): error TS2345: Argument of type 'X' is not assignable to parameter of type 'Y'.\r\n" +
		"  Property 'p' is missing in type 'X' but required in type 'Y'.\n" +
		"error TS5083: Cannot read file '/x/tsconfig.json'.\n" +
		"\n"
	want := []finding{
		{path: "src/main.ts", line: 3, col: 7, what: "Type 'string' is not assignable to type 'number'."},
		{path: "src/a b.ts", line: 10, col: 1, what: "Argument of type 'X' is not assignable to parameter of type 'Y'."},
	}
	if got := parseTSC(out); !slices.Equal(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}

// FuzzParseTSC: any output is read without a panic, each finding with a
// one-line message at a positive place.
func FuzzParseTSC(f *testing.F) {
	f.Add("src/main.ts(3,7): error TS2322: msg\n  more\n")
	f.Add("a(1,1): warning TS1: (2,3): x")
	f.Fuzz(func(t *testing.T, out string) {
		for _, g := range parseTSC(out) {
			if strings.ContainsAny(g.what, "\r\n") || g.line < 0 || g.col < 0 {
				t.Errorf("%q: %+v", out, g)
			}
		}
	})
}
