package symbols

// This file defines the errors of [Lookup] and the search for similar names
// that makes "not found" useful.

import (
	"fmt"
	"sort"
	"strings"
)

// NotFoundError reports that no declaration matches a symbol.
type NotFoundError struct {
	File, Name, Kind string
	// OtherKinds are the declarations of Name that Kind excluded.
	OtherKinds []Symbol
	// Similar are declarations with similar names, closest first (at most 8),
	// when OtherKinds is empty.
	Similar []Symbol
}

func (e *NotFoundError) Error() string {
	var b strings.Builder
	if e.Kind != "" {
		fmt.Fprintf(&b, "no %s declaration of %q found in %s", e.Kind, e.Name, e.File)
	} else {
		fmt.Fprintf(&b, "no declaration of %q found in %s", e.Name, e.File)
	}
	switch {
	case len(e.OtherKinds) > 0:
		fmt.Fprintf(&b, "; %s is declared as: %s; change symbol_kind or leave it out",
			e.Name, list(e.OtherKinds, false))
	case len(e.Similar) > 0:
		fmt.Fprintf(&b, "; similar declarations: %s", list(e.Similar, true))
	default:
		b.WriteString("; no declaration with a similar name was found either")
	}
	return b.String()
}

// AmbiguousError reports that several declarations match a symbol.
type AmbiguousError struct {
	File, Name, Kind string
	Matches          []Symbol
}

func (e *AmbiguousError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%q is declared %d times in %s: %s", e.Name, len(e.Matches), e.File,
		list(e.Matches, false))
	kinds := map[string]int{}
	quals := map[string]int{}
	for _, s := range e.Matches {
		kinds[s.Kind]++
		quals[s.Qualified]++
	}
	var unique []string
	for _, s := range e.Matches {
		if kinds[s.Kind] == 1 {
			unique = append(unique, fmt.Sprintf("%q", s.Kind))
		}
	}
	var qualified []string
	for _, s := range e.Matches {
		if s.Qualified != "" && s.Qualified != e.Name && quals[s.Qualified] == 1 {
			qualified = append(qualified, fmt.Sprintf("%q", s.Qualified))
		}
	}
	switch {
	case len(unique) > 0 && e.Kind == "":
		fmt.Fprintf(&b, "; pass symbol_kind (%s) to choose one", strings.Join(unique, " or "))
		if len(qualified) > 0 {
			fmt.Fprintf(&b, ", or a qualified symbol (%s)", strings.Join(qualified, ", "))
		}
	case len(qualified) > 0:
		fmt.Fprintf(&b, "; pass a qualified symbol (%s) to choose one", strings.Join(qualified, ", "))
	default:
		b.WriteString("; symbol_kind cannot tell them apart: view or edit them by line range")
	}
	return b.String()
}

// list formats symbols as "line 3 (type Foo), line 9 (function Foo)".
func list(syms []Symbol, names bool) string {
	parts := make([]string, len(syms))
	for i, s := range syms {
		n := s.Name
		if s.Qualified != "" {
			n = s.Qualified
		}
		if names || s.Qualified != "" {
			parts[i] = fmt.Sprintf("%s (%s, line %d)", n, s.Kind, s.DeclLine)
		} else {
			parts[i] = fmt.Sprintf("line %d (%s)", s.DeclLine, s.Kind)
		}
	}
	return strings.Join(parts, ", ")
}

// similar returns the declarations of src whose names are close to name.
func similar(filename, src, name string) []Symbol {
	lang := languageFor(filename)
	want := strings.ToLower(baseName(name))
	type scored struct {
		sym  Symbol
		dist int
	}
	var found []scored
	seen := map[string]bool{}
	_ = scan(src, lang, func(d *decl) error {
		for _, n := range append([]string{d.name}, d.more...) {
			ln := strings.ToLower(n)
			dist := levenshtein(want, ln)
			if len(want) >= 3 && (strings.Contains(ln, want) || strings.Contains(want, ln) && len(ln) >= 3) {
				dist = min(dist, 2)
			}
			if dist > max(1, len(want)/3) || seen[n+d.kind] {
				continue
			}
			seen[n+d.kind] = true
			s := d.symbol(n, d.declLine)
			found = append(found, scored{s, dist})
		}
		return nil
	})
	sort.SliceStable(found, func(i, j int) bool { return found[i].dist < found[j].dist })
	var out []Symbol
	for i := 0; i < len(found) && i < 8; i++ {
		out = append(out, found[i].sym)
	}
	return out
}

// levenshtein returns the edit distance between a and b (bytes), a
// transposition of neighbours counting as one edit.
func levenshtein(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		if a == b {
			return 0
		}
		return 64
	}
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}
