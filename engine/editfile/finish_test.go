package editfile

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestDryRun(t *testing.T) {
	src := "one\ntwo\nthree\n"
	for _, c := range [][]any{
		{"str_replace", "old_str", "two", "new_str", "TWO"},
		{"insert", "insert_line", 1, "new_str", "TWO"},
		{"patch", "patch", "@@ -2 +2 @@\n-two\n+TWO\n"},
	} {
		e := newEnv(t, map[string]string{"f.txt": src})
		e.view("f.txt")
		kv := append(append([]any{}, c[1:]...), "dry_run", true)
		r := e.ok(c[0].(string), "f.txt", kv...)
		if e.disk("f.txt") != src || e.undoDepth("f.txt") != 0 || r.Changed {
			t.Fatalf("%s dry run wrote or pushed undo", c[0])
		}
		contains(t, r, "Dry run", "nothing was written", "--- ", "+++ ", "@@", "+TWO", "revision (would be): "+r.Revision)
		if r.Diff == "" || !strings.Contains(r.Text, r.Diff) {
			t.Errorf("dry run diff %q not in text", r.Diff)
		}
		// The would-be revision is what the real edit produces.
		real := e.ok(c[0].(string), "f.txt", c[1:]...)
		if real.Revision != r.Revision || rev(e.disk("f.txt")) != r.Revision {
			t.Errorf("%s: dry run revision %s, real %s", c[0], r.Revision, real.Revision)
		}
	}
	e := newEnv(t, map[string]string{"p.go": goSymbols})
	e.view("p.go")
	r := e.ok("replace_symbol", "p.go", "symbol", "Thing2", "new_str", "func Thing2() { println() }", "dry_run", true)
	contains(t, r, "-func Thing2() {}", "+func Thing2() { println() }")
	if e.disk("p.go") != goSymbols {
		t.Error("dry run wrote")
	}
}

func TestValidateSyntax(t *testing.T) {
	for _, tc := range []struct {
		name, file, src string
		kv              []any
		want            []string
	}{
		{"go", "a.go", "package a\n\nfunc f() {}\n", []any{"str_replace", "old_str", "{}", "new_str", "{"}, []string{"go/parser", "3:"}},
		{"json", "a.json", "{\"a\": 1}\n", []any{"str_replace", "old_str", "1", "new_str", "1,"}, []string{"1:"}},
		{"yaml second document", "a.yaml", "a: 1\n---\nb: 2\n", []any{"str_replace", "old_str", "b: 2", "new_str", "b: [2"}, []string{"yaml"}},
		{"yml", "a.yml", "a: 1\n", []any{"insert", "insert_line", 1, "new_str", "  - : ]["}, []string{"yaml"}},
		{"delimiters", "a.js", "function f() {\n  return 1;\n}\n", []any{"patch", "patch", "@@ -3 +3 @@\n-}\n+\n"}, []string{"a.js"}},
		{"replace_symbol", "a.go", "package a\n\nfunc f() {}\n", []any{"replace_symbol", "symbol", "f", "new_str", "func f( {}"}, []string{"go/parser"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, map[string]string{tc.file: tc.src})
			e.view(tc.file)
			kv := append(append([]any{}, tc.kv[1:]...), "validate_syntax", true)
			err := e.fail(fault.BadArgument, tc.kv[0].(string), tc.file, kv...)
			contains(t, err, append([]string{"validate_syntax rejected", "nothing was written"}, tc.want...)...)
			if strings.Contains(err.Error(), "already failed") {
				t.Errorf("claims the original was broken: %v", err)
			}
			if e.disk(tc.file) != tc.src || e.undoDepth(tc.file) != 0 {
				t.Fatal("a rejected edit was written or pushed an undo entry")
			}
			// Without validate_syntax the same edit goes through.
			e.ok(tc.kv[0].(string), tc.file, tc.kv[1:]...)
		})
	}
}

func TestValidateSyntaxAlreadyBroken(t *testing.T) {
	src := "package a\n\nfunc f() {\n"
	e := newEnv(t, map[string]string{"a.go": src})
	e.view("a.go")
	err := e.fail(fault.BadArgument, "str_replace", "a.go", "old_str", "func f", "new_str", "func g", "validate_syntax", true)
	contains(t, err, "already failed")
	// A valid result passes, and unknown types are not checked.
	e.ok("str_replace", "a.go", "old_str", "{\n", "new_str", "{}\n", "validate_syntax", true)
	e2 := newEnv(t, map[string]string{"notes.unknownext": "(\n"})
	e2.view("notes.unknownext")
	e2.ok("insert", "notes.unknownext", "insert_line", 1, "new_str", "[[[", "validate_syntax", true)
}

// The region diff equals a whole-file diff.
func TestUnifiedDiffRegion(t *testing.T) {
	big := numberedFile(200)
	for _, tc := range []struct{ before, after string }{
		{big, strings.Replace(big, "line 100\n", "hundred\n", 1)},
		{big, strings.Replace(big, "line 1\n", "", 1)},
		{big, strings.Replace(big, "line 200\n", "line 200", 1)},
		{big, big + "more\n"},
		{big, "top\n" + big},
		{big, strings.Replace(big, "line 50\nline 51\n", "", 1)},
		{big, strings.Replace(strings.Replace(big, "line 10\n", "ten\n", 1), "line 190\n", "", 1)},
		{"a\nb", "a\nc"},
		{"a\nxb\n", "a\nyb\n"},
		{"ab\n", "b\n"},
		{"", "x\n"},
		{"x\n", ""},
		{"same\nline 5x\n", "same\nline 6x\n"},
	} {
		if got, want := unifiedDiff("f", tc.before, tc.after), udiffWhole("f", tc.before, tc.after); got != want {
			t.Errorf("region diff\n%s\nwhole diff\n%s", got, want)
		}
	}
}
