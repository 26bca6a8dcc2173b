package symbols

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// goFound renders the declarations that name matches, with their extents
// (or the extent's error), as scanned by scan.
func goFound(src, name string, scan func(visit func(*decl) error) error) []string {
	var out []string
	_ = scan(func(d *decl) error {
		if n := d.matches(name); n != "" {
			end, err := d.extent(src, goLex)
			out = append(out, fmt.Sprintf("%+v %v", d.symbol(n, end), err))
		}
		return nil
	})
	return out
}

// goLookupNames returns the names to look up in src: every name, more name and
// qualified name a scan of the whole file declares, and name.
func goLookupNames(src, name string) []string {
	names := []string{name}
	_ = scan(src, goLex, func(d *decl) error {
		names = append(names, d.name, d.qualified())
		names = append(names, d.more...)
		return nil
	})
	slices.Sort(names)
	return slices.Compact(names)
}

// checkGoAround compares, for every name src declares and for name, the
// declarations found around the name's occurrences with those found by
// a scan of the whole file.
func checkGoAround(t *testing.T, src, name string) {
	for _, n := range goLookupNames(src, name) {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		want := goFound(src, n, func(v func(*decl) error) error { return scan(src, goLex, v) })
		got := goFound(src, n, func(v func(*decl) error) error {
			return scanGoAround(src, goLex, baseName(n), v)
		})
		if !slices.Equal(got, want) {
			t.Fatalf("%q in %q:\naround its occurrences: %q\nwhole file:            %q", n, src, got, want)
		}
	}
}

var goAroundCases = []string{
	"package p\n\nfunc a() {}\n\nfunc target() int {\n\treturn 1\n}\n\nfunc b() {}\n",
	"package p\n\nfunc a() {\n}\n// Target is.\nfunc Target() {}\n",
	"func a() {} // c\nfunc target() {}\n",
	"func a() {} /* c\n*/ func target() {}\n",
	"var s = `\n}\nfunc target() {\n`\nfunc target() {}\n",
	"func a() { x := \"}\\\n}\" }\nfunc target() {}\n",
	"func ([ ) { }\nName ] X() {}\n",
	"func ([ ) { }\nfunc ] X() {}\n",
	"func a() {\n}\ntype (\n\ttarget int\n\tb = target\n)\nvar x, target = 1, 2\n",
	"func (r *T) M() {}\n}\nfunc (r *T) M() {}\n",
	") func x() {}\n}\nfunc x() {}\n",
	"#!/bin/sh }\nfunc x() {}\n}\nfunc x() {}\n",
	"func a() { '}' }\nfunc x() {}\n",
	"x := []int{1}\n}\nvar x = 1\n",
}

func TestGoAround(t *testing.T) {
	for _, src := range goAroundCases {
		checkGoAround(t, src, "target")
	}
	for _, sym := range []string{"Target", "M", "Item3.Method3"} {
		checkGoAround(t, generate(8<<10), sym)
	}
}

// FuzzGoAround checks that a Go lookup that scans only around the name's
// occurrences finds what a scan of the whole file finds.
func FuzzGoAround(f *testing.F) {
	for _, src := range goAroundCases {
		f.Add(src, "target")
	}
	if data, err := os.ReadFile("testdata/go.txtar"); err == nil {
		for _, file := range parseArchive(string(data)).files {
			f.Add(file.data, "Foo")
		}
	}
	f.Fuzz(func(t *testing.T, src, name string) {
		checkGoAround(t, src, name)
	})
}

// goLex is Go's language with its lexer.
var goLex = languageFor("x.go")

// TestIndexName: indexName finds what strings.Index finds.
func TestIndexName(t *testing.T) {
	src := "func target() {}\nvar xtarget, targ = 1, 2 // target\n"
	for _, name := range []string{"target", "targ", "t", "", "x", "zz", "2 //", "\n", "func target() {}\nvar"} {
		for from := 0; from <= len(src); from++ {
			want := strings.Index(src[from:], name)
			if want >= 0 {
				want += from
			}
			if got := indexName(src, name, from); got != want {
				t.Fatalf("indexName(%q, from %d) = %d, want %d", name, from, got, want)
			}
		}
	}
}
