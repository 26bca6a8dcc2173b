package main

import (
	"strings"
	"testing"
)

// TestSameAs: devbroker's listing agrees with gopls's when it lists the
// same places, or a sorted prefix of them and counts the rest.
func TestSameAs(t *testing.T) {
	g := newListing([]place{{"b.go", 3, 1}, {"a.go", 9, 2}, {"a.go", 2, 5}}, 0)
	cases := []struct {
		name string
		d    listing
		ok   bool
		why  string
	}{
		{"same, other order", newListing([]place{{"a.go", 9, 2}, {"b.go", 3, 1}, {"a.go", 2, 5}}, 0), true, ""},
		{"a prefix, the rest counted", newListing([]place{{"a.go", 2, 5}, {"a.go", 9, 2}}, 1), true, ""},
		{"a place missing", newListing([]place{{"a.go", 2, 5}, {"a.go", 9, 2}}, 0), false, "2 places"},
		{"not the first ones", newListing([]place{{"a.go", 2, 5}, {"b.go", 3, 1}}, 1), false, "place 2 is b.go:3:1, gopls's is a.go:9:2"},
		{"another column", newListing([]place{{"a.go", 2, 6}, {"a.go", 9, 2}, {"b.go", 3, 1}}, 0), false, "place 1 is a.go:2:6"},
	}
	for _, c := range cases {
		ok, why := c.d.sameAs(g)
		if ok != c.ok || !strings.Contains(why, c.why) {
			t.Errorf("%s: sameAs = %t, %q; want %t, %q", c.name, ok, why, c.ok, c.why)
		}
	}
}

// TestCharColumn: LSP's UTF-16 offsets become 1-based character columns.
func TestCharColumn(t *testing.T) {
	cases := []struct {
		line string
		char int
		want int
	}{
		{"func F()", 5, 6},
		{"x := \"é\"; F()", 10, 11}, // é is one UTF-16 unit
		{"x := \"😀\"; F()", 11, 11}, // 😀 is two
		{"", 0, 1},
	}
	for _, c := range cases {
		if got := charColumn(c.line, c.char); got != c.want {
			t.Errorf("charColumn(%q, %d) = %d, want %d", c.line, c.char, got, c.want)
		}
	}
}
