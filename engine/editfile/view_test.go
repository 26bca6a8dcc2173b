package editfile

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

// numberedFile is n lines "line 1" ... "line n".
func numberedFile(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

// shown returns the line numbers a view's text shows.
func shown(t *testing.T, r *Result) (first, last int) {
	t.Helper()
	first = -1
	for _, l := range strings.Split(r.Text, "\n") {
		var n int
		if _, err := fmt.Sscanf(l, "%d\t", &n); err == nil && strings.Contains(l, "\t") {
			if first < 0 {
				first = n
			}
			last = n
		}
	}
	return first, last
}

func TestViewWhole(t *testing.T) {
	src := "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"
	e := newEnv(t, map[string]string{"a.go": src})
	r := e.view("a.go")
	want := "1\tpackage main\n2\t\n3\tfunc main() {\n4\t\tprintln(\"hi\")\n5\t}\nrevision: " + rev(src) + "\n"
	if r.Text != want {
		t.Errorf("view:\n%q\nwant\n%q", r.Text, want)
	}
	if r.Revision != rev(src) || r.Changed || r.Path != e.abs("a.go") {
		t.Errorf("result %+v", r)
	}
}

func TestViewRange(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": numberedFile(10)})
	for _, tc := range []struct {
		rng         []int
		first, last int
	}{
		{[]int{3, 5}, 3, 5},
		{[]int{4, -1}, 4, 10}, // -1 = to the end
		{[]int{8, 99}, 8, 10}, // end past EOF clamps
		{[]int{10, 10}, 10, 10},
		{[]int{1, 1}, 1, 1},
	} {
		r := e.ok("view", "f.txt", "view_range", tc.rng)
		if f, l := shown(t, r); f != tc.first || l != tc.last {
			t.Errorf("view_range %v shows %d-%d, want %d-%d:\n%s", tc.rng, f, l, tc.first, tc.last, r.Text)
		}
		contains(t, r, "revision: "+rev(numberedFile(10)))
		if tc.first > 1 || tc.last < 10 {
			contains(t, r, fmt.Sprintf("(lines %d-%d of 10)", tc.first, tc.last))
		}
	}
	err := e.fail(fault.Bounds, "view", "f.txt", "view_range", []int{11, -1})
	contains(t, err, "11", "has 10 lines")
	contains(t, e.fail(fault.BadArgument, "view", "f.txt", "view_range", []int{0, 3}), "1-based")
	contains(t, e.fail(fault.BadArgument, "view", "f.txt", "view_range", []int{5, 3}), "before start")
	contains(t, e.fail(fault.BadArgument, "view", "f.txt", "view_range", []int{5}), "[start, end]")
	contains(t, e.fail(fault.BadArgument, "view", "f.txt", "view_range", []int{1, 2}, "context_after", 3), "anchor or symbol")
	contains(t, e.fail(fault.BadArgument, "view", "f.txt", "view_range", []int{1, 2}, "anchor", "line 3"), "one of")
}

func TestViewEmptyFile(t *testing.T) {
	e := newEnv(t, map[string]string{"e.txt": ""})
	r := e.view("e.txt")
	contains(t, r, "(empty file)", "revision: "+rev(""))
	contains(t, e.fail(fault.Bounds, "view", "e.txt", "view_range", []int{1, -1}), "0 lines")
}

func TestViewAnchor(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": numberedFile(60)})
	r := e.ok("view", "f.txt", "anchor", "line 30\n")
	if f, l := shown(t, r); f != 10 || l != 50 {
		t.Errorf("anchor default context shows %d-%d, want 10-50 (20 each side)", f, l)
	}
	contains(t, r, "anchor at line 30")
	r = e.ok("view", "f.txt", "anchor", "line 30\n", "context_before", 2, "context_after", 1)
	if f, l := shown(t, r); f != 28 || l != 31 {
		t.Errorf("anchor 2/1 shows %d-%d, want 28-31", f, l)
	}
	// A two-line anchor: context counts from its last line.
	r = e.ok("view", "f.txt", "anchor", "line 30\nline 31", "context_before", 0, "context_after", 0)
	if f, l := shown(t, r); f != 30 || l != 31 {
		t.Errorf("two-line anchor shows %d-%d, want 30-31", f, l)
	}
	// Context clamps at both ends.
	r = e.ok("view", "f.txt", "anchor", "line 2\n")
	if f, l := shown(t, r); f != 1 || l != 22 {
		t.Errorf("anchor near the top shows %d-%d, want 1-22", f, l)
	}
	contains(t, e.fail(fault.Ambiguous, "view", "f.txt", "anchor", "line 3"), "3, 30, 31, 32", "not unique")
	contains(t, e.fail(fault.NoMatch, "view", "f.txt", "anchor", "line 99"), "not found")
	contains(t, e.fail(fault.BadArgument, "view", "f.txt", "anchor", "line 30", "context_before", -1), "negative")
}

const goSymbols = `package p

// T is a type.
type T struct{ n int }

// Get returns n.
func (t *T) Get() int {
	if t.n > 0 {
		return t.n // }
	}
	return 0
}

func Get() int { return 1 }

type Thing int

func Thing2() {}
`

func TestViewSymbol(t *testing.T) {
	e := newEnv(t, map[string]string{"p.go": goSymbols})
	r := e.ok("view", "p.go", "symbol", "T.Get", "context_before", 0, "context_after", 0)
	if f, l := shown(t, r); f != 6 || l != 12 {
		t.Errorf("symbol T.Get shows %d-%d, want 6-12 (doc comment to closing brace):\n%s", f, l, r.Text)
	}
	contains(t, r, "lines 6-12")
	// Default context: 20 lines each side, clamped to the file.
	r = e.ok("view", "p.go", "symbol", "Thing", "symbol_kind", "type")
	if f, l := shown(t, r); f != 1 || l != 18 {
		t.Errorf("symbol Thing shows %d-%d, want 1-18", f, l)
	}
	// Get is a method and a function: ambiguous, lines listed; the
	// kind narrows.
	err := e.fail(fault.Ambiguous, "view", "p.go", "symbol", "Get")
	contains(t, err, "7", "14")
	r = e.ok("view", "p.go", "symbol", "Get", "symbol_kind", "function", "context_before", 0, "context_after", 0)
	if f, l := shown(t, r); f != 14 || l != 14 {
		t.Errorf("symbol Get (function) shows %d-%d, want 14-14:\n%s", f, l, r.Text)
	}
	contains(t, e.fail(fault.NotFound, "view", "p.go", "symbol", "Nope"), "Nope")
	contains(t, e.fail(fault.NotFound, "view", "p.go", "symbol", "Thing", "symbol_kind", "function"), "Thing")
}

func TestViewHidesCRAndBOM(t *testing.T) {
	e := newEnv(t, map[string]string{"w.txt": "\ufeffa\r\nb\r\n", "m.txt": "a\r\nb\n"})
	for _, p := range []string{"w.txt", "m.txt"} {
		r := e.view(p)
		if !strings.HasPrefix(r.Text, "1\ta\n2\tb\n") {
			t.Errorf("%s: view shows \\r or the BOM: %q", p, r.Text)
		}
	}
}

// A view or read_file over MaxOutput is refused with the range that fits;
// a single line over it is refused as such.
func TestViewCapped(t *testing.T) {
	line := strings.Repeat("x", 199) + "\n"
	e := newEnv(t, map[string]string{"big.txt": strings.Repeat(line, 5000), "one.txt": strings.Repeat("y", MaxOutput+1) + "\n"})
	_, err := e.s.Do(context.Background(), &Params{Command: "view", FilePath: e.abs("big.txt")})
	if fault.KindOf(err) != fault.Bounds || !strings.Contains(err.Error(), "view_range [1, ") {
		t.Fatalf("view of a large file: %v", err)
	}
	var first, fit int
	if _, serr := fmt.Sscanf(err.Error()[strings.Index(err.Error(), "view_range ["):], "view_range [%d, %d]", &first, &fit); serr != nil {
		t.Fatal(serr)
	}
	res, err := e.s.Do(context.Background(), &Params{Command: "view", FilePath: e.abs("big.txt"), ViewRange: []int{first, fit}})
	if err != nil || len(res.Text) > MaxOutput+200 {
		t.Fatalf("the suggested range does not fit: %v", err)
	}
	_, err = e.s.Do(context.Background(), &Params{Command: "view", FilePath: e.abs("one.txt")})
	if fault.KindOf(err) != fault.Bounds || !strings.Contains(err.Error(), "line 1 alone") {
		t.Fatalf("view of one long line: %v", err)
	}
	_, err = e.s.ReadFile(context.Background(), []byte(`{"file_path": "`+e.abs("big.txt")+`"}`))
	if fault.KindOf(err) != fault.Bounds || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("read_file of a large file: %v", err)
	}
}
