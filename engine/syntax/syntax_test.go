package syntax

import (
	"errors"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/lex"
)

// checkCase is one Check expectation: valid when line is 0, otherwise the
// first error's position and a substring of its message.
type checkCase struct {
	name, file, src string
	line, col       int
	msg             string
}

func runCases(t *testing.T, wantChecker string, cases []checkCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			checker, errs := Check(c.file, []byte(c.src))
			if checker != wantChecker {
				t.Errorf("checker = %q, want %q", checker, wantChecker)
			}
			if c.line == 0 {
				if len(errs) > 0 {
					t.Fatalf("valid file rejected: %v", errs)
				}
				return
			}
			if len(errs) == 0 {
				t.Fatalf("broken file accepted; want %d:%d: %s", c.line, c.col, c.msg)
			}
			e := errs[0]
			if e.Line != c.line || e.Column != c.col || !strings.Contains(e.Msg, c.msg) {
				t.Errorf("first error = %v\nwant %d:%d: ...%s...", e, c.line, c.col, c.msg)
			}
		})
	}
}

func TestGo(t *testing.T) {
	runCases(t, "go/parser", []checkCase{
		{name: "valid", file: "a.go", src: "package a\n\nfunc f() string { return \"}\" + `{` } // {\n"},
		{name: "missing brace", file: "a.go", src: "package a\n\nfunc f() {\n\tif true {\n\t}\n", line: 5, col: 3, msg: "expected ';', found 'EOF'"},
		{name: "bad token", file: "a.go", src: "package a\n\nvar x = 1 +\n\nfunc f() {}\n", line: 5, col: 6, msg: "expected '(', found f"},
		{name: "column in characters", file: "A.GO", src: "package a\n\nvar s = \"é\" )\n", line: 3, col: 13, msg: "expected"},
		{name: "bom", file: "a.go", src: "\uFEFFpackage a\nvar x = (\n", line: 2, col: 10, msg: "expected"},
	})
}

func TestGoSeveralErrors(t *testing.T) {
	src := "package a\n\nvar x = )\n\nvar y = ]\n"
	_, errs := Check("a.go", []byte(src))
	if len(errs) < 2 || errs[0].Line != 3 || errs[1].Line != 5 {
		t.Fatalf("errors = %v, want errors on lines 4 and 5", errs)
	}
}

func TestJSON(t *testing.T) {
	runCases(t, "json", []checkCase{
		{name: "valid", file: "a.json", src: "{\n  \"a\": [1, 2, {\"b\": \"}]\"}],\n  \"c\": null\n}\n"},
		{name: "scalar", file: "a.json", src: "42"},
		{name: "trailing comma", file: "a.json", src: "{\n  \"a\": 1,\n}\n", line: 3, col: 1, msg: "invalid character '}'"},
		{name: "missing comma", file: "a.json", src: "{\n  \"a\": 1\n  \"b\": 2\n}\n", line: 3, col: 3, msg: "after object key:value pair"},
		{name: "comment", file: "tsconfig.json", src: "{\n  // no\n}\n", line: 2, col: 3, msg: "invalid character '/'"},
		{name: "unclosed", file: "a.json", src: "{\n  \"a\": [1, 2\n", line: 2, col: 13, msg: "unexpected end"},
		{name: "trailing data", file: "a.json", src: "{}\n{}\n", line: 2, col: 1, msg: "after top-level value"},
		{name: "empty", file: "a.json", src: "", line: 1, col: 1, msg: "empty file"},
		{name: "blank", file: "a.json", src: "  \n", line: 1, col: 3, msg: "empty file"},
		{name: "unicode column", file: "a.json", src: "{\"é€\": x}", line: 1, col: 8, msg: "invalid character 'x'"},
	})
}

func TestYAML(t *testing.T) {
	runCases(t, "yaml", []checkCase{
		{name: "valid", file: "a.yaml", src: "a: 1\nb: [1, 2]\nc: {d: \"}\"}\n"},
		{name: "valid multi", file: "a.yml", src: "a: 1\n---\nb: 2\n---\n- x\n"},
		{name: "empty", file: "a.yaml", src: ""},
		{name: "second document", file: "a.yaml", src: "a: 1\n---\nb: 2\n  c: 3\n", line: 4, col: 1, msg: "document 2: mapping values are not allowed"},
		{name: "second document parser error", file: "a.yaml", src: "a: 1\n---\nb: 2\nc: [1, 2\nd: 3\n", line: 4, col: 1, msg: "document 2: did not find expected ',' or ']'"},
		{name: "bad indentation", file: "a.yml", src: "a: 1\n---\nb:\n  - x\n y: 2\n", line: 3, col: 1, msg: "document 2: did not find expected key"},
		{name: "first line", file: "a.yaml", src: "\ta: 1\n", line: 1, col: 1, msg: "document 1: found character that cannot start any token"},
		{name: "unknown anchor", file: "a.yaml", src: "a: 1\nb: *x\n", line: 2, col: 1, msg: "unknown anchor 'x'"},
		{name: "third document", file: "a.yaml", src: "a: 1\n---\nb: 2\n---\nc: 'x\n", line: 5, col: 1, msg: "document 3:"},
	})
}

func TestUnrecognized(t *testing.T) {
	for _, f := range []string{"a.txt", "README.md", "Makefile", "a", "a.rb", "a.sh"} {
		if checker, errs := Check(f, []byte("(((")); checker != "" || errs != nil {
			t.Errorf("Check(%q) = %q, %v; want no check", f, checker, errs)
		}
		if err := Validate(f, nil, []byte("(((")); err != nil {
			t.Errorf("Validate(%q) = %v", f, err)
		}
	}
}

func TestValidate(t *testing.T) {
	good := []byte("package a\n")
	bad := []byte("package a\nfunc f() {\n")
	worse := []byte("package a\nfunc f() {\n\tx := (\n")

	if err := Validate("a.go", bad, good); err != nil {
		t.Errorf("fixing edit rejected: %v", err)
	}

	err := Validate("a.go", good, bad)
	var ce *CheckError
	if !errors.As(err, &ce) || ce.Checker != "go/parser" || len(ce.Before) != 0 {
		t.Fatalf("Validate(good, bad) = %#v", err)
	}
	msg := err.Error()
	if strings.Contains(msg, "already failed") || !strings.Contains(msg, "a.go fails the go/parser syntax check: 2:") ||
		!strings.Contains(msg, "passed this check before the edit") {
		t.Errorf("message for a new breakage:\n%s", msg)
	}

	err = Validate("a.go", bad, worse)
	if err == nil {
		t.Fatal("Validate(bad, worse) passed")
	}
	msg = err.Error()
	if !strings.Contains(msg, "The file already failed this check before the edit: 2:") {
		t.Errorf("message for an old breakage:\n%s", msg)
	}

	err = Validate("a.rs", []byte("fn f() {}"), []byte("fn f() {"))
	if err == nil || !strings.Contains(err.Error(), "a.rs fails the delimiters syntax check: 1:8: `{` is never closed") {
		t.Errorf("delimiter message: %v", err)
	}
}

func TestValidateList(t *testing.T) {
	after := []byte("package a\nvar a = )\nvar b = )\nvar c = )\nvar d = )\nvar e = )\nvar f = )\nvar g = )\n")
	msg := Validate("a.go", after, after).Error()
	want := "a.go fails the go/parser syntax check with 7 errors:\n  2:9: "
	if !strings.HasPrefix(msg, want) || !strings.Contains(msg, "\n  (and 2 more)\n") ||
		!strings.Contains(msg, "\nThe file already failed this check before the edit: 7 errors:\n  2:9: ") {
		t.Errorf("message:\n%s", msg)
	}
}

func TestExtensionsUnique(t *testing.T) {
	// byExt panics at init on a duplicate; here, every lex language but Go
	// (go/parser) is checked for delimiters.
	for _, l := range lex.Languages() {
		for _, ext := range l.Exts {
			want := "delimiters"
			if l.Name == "go" {
				want = "go/parser"
			}
			if got := Checker("x" + ext); got != want {
				t.Errorf("%s (%s) is checked by %q, want %q", ext, l.Name, got, want)
			}
		}
	}
}
