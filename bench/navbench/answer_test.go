package main

import (
	"fmt"
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

// TestSameSymbols: the same symbols in any order agree; a missing one or
// another count does not; at gopls's limit only gopls's first
// rankedPrefix must be listed (ties at the cut differ between processes).
func TestSameSymbols(t *testing.T) {
	g := []symbol{{"F", "a.go"}, {"G", "b.go"}, {"F", "/abs/c.go"}}
	if ok, why := sameSymbols([]symbol{{"F", "/abs/c.go"}, {"F", "a.go"}, {"G", "b.go"}}, 0, g); !ok {
		t.Errorf("same, other order: %s", why)
	}
	if ok, _ := sameSymbols([]symbol{{"F", "a.go"}, {"G", "b.go"}, {"H", "b.go"}}, 0, g); ok {
		t.Error("another symbol agrees")
	}
	if ok, _ := sameSymbols([]symbol{{"F", "a.go"}, {"G", "b.go"}}, 1, g); ok {
		t.Error("one counted, not listed, agrees")
	}
	var full, other []symbol
	for i := range goplsSymbolLimit {
		s := symbol{name: fmt.Sprint("S", i), path: "a.go"}
		full, other = append(full, s), append(other, s)
	}
	other[goplsSymbolLimit-1].name = "tie"
	if ok, why := sameSymbols(other, 0, full); !ok {
		t.Errorf("another tie at the cut: %s", why)
	}
	other[0].name = "first"
	if ok, _ := sameSymbols(other, 0, full); ok {
		t.Error("gopls's first symbol missing agrees")
	}
}
