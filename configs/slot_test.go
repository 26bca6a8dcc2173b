package configs

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseSlot(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Slot
		err  string
	}{
		{in: "staticcheck", want: Slot{{"staticcheck"}}},
		{in: " gopls ", want: Slot{{"gopls"}}},
		{in: "gopls | go-build + go-vet", want: Slot{{"gopls"}, {"go-build", "go-vet"}}},
		{in: "a|b|c", want: Slot{{"a"}, {"b"}, {"c"}}},
		{in: "", err: "the entry is empty"},
		{in: "gopls |", err: `alternative 2 is empty`},
		{in: "| gopls", err: `alternative 1 is empty`},
		{in: "go-build + ", err: `a driver name is missing around "+"`},
		{in: "g++", err: `a driver name is missing`},
		{in: "gopls | gopls", err: `driver "gopls" appears twice`},
	} {
		got, err := ParseSlot(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseSlot(%q) error = %v, want %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseSlot(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
	}
}

// FuzzParseSlot checks that the slot parser never panics, that what it
// accepts has non-empty, distinct, trimmed names and no separator in them,
// and that its String form parses back to the same slot.
func FuzzParseSlot(f *testing.F) {
	for _, s := range []string{"gopls", "gopls | go-build + go-vet", "a|b", "a+", "|", " + ", "x | x", "\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		s, err := ParseSlot(in)
		if err != nil {
			return
		}
		if len(s) == 0 {
			t.Fatalf("ParseSlot(%q) accepted an empty slot", in)
		}
		seen := map[string]bool{}
		for _, n := range s.Drivers() {
			if n == "" || n != strings.TrimSpace(n) || strings.ContainsAny(n, "|+") || seen[n] {
				t.Fatalf("ParseSlot(%q) gave the name %q in %v", in, n, s)
			}
			seen[n] = true
		}
		back, err := ParseSlot(s.String())
		if err != nil || !reflect.DeepEqual(back, s) {
			t.Fatalf("ParseSlot(%q) = %v, whose String %q parses to %v, %v", in, s, s.String(), back, err)
		}
	})
}
