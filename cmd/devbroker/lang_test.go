package main

import (
	"fmt"
	"testing"
)

// A position is PATH, PATH:LINE or PATH:LINE:COL: the trailing numbers are
// the line and column, so a path may hold other colons.
func TestParsePosition(t *testing.T) {
	for _, c := range []struct {
		in, want string // want: path line column, "-" for none; "error"
	}{
		{"a.go", "a.go - -"},
		{"a.go:3", "a.go 3 -"},
		{"a.go:3:6", "a.go 3 6"},
		{"dir/a:b.go:3:6", "dir/a:b.go 3 6"},
		{"a.go:1:2:3", "a.go:1 2 3"},
		{"a.go:x", "a.go:x - -"},
		{"a.go:", "a.go: - -"},
		{"a.go:+3", "a.go:+3 - -"},
		{"a.go:-3", "a.go:-3 - -"},
		{"a.go:0:0", "a.go 0 0"}, // the engine refuses them, naming the rule
		{":3:6", "error"},
		{"", "error"},
	} {
		p, err := parsePosition(c.in)
		got := "error"
		if err == nil {
			got = fmt.Sprintf("%s %s %s", p.path, num(p.line), num(p.column))
		}
		if got != c.want {
			t.Errorf("parsePosition(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

func num(n *int) string {
	if n == nil {
		return "-"
	}
	return fmt.Sprint(*n)
}

// FuzzParsePosition: a position parses to a path and at most two numbers,
// a column only with a line, and printed back it parses the same.
func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"a.go", "a.go:3", "a.go:3:6", "a:b:1:2", ":1", "a.go:007", "a.go:99999999999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := parsePosition(s)
		if err != nil {
			return
		}
		if p.path == "" || (p.column != nil && p.line == nil) {
			t.Fatalf("parsePosition(%q) = %+v", s, p)
		}
		back := p.path
		for _, n := range []*int{p.line, p.column} {
			if n != nil {
				back += fmt.Sprintf(":%d", *n)
			}
		}
		if q, err := parsePosition(back); err != nil || q.path != p.path || num(q.line) != num(p.line) || num(q.column) != num(p.column) {
			t.Fatalf("parsePosition(%q) = %+v, which prints as %q and parses as %+v, %v", s, p, back, q, err)
		}
	})
}
