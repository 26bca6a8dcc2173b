package symbols

import (
	"errors"
	"strings"
	"testing"
)

func TestSupported(t *testing.T) {
	for _, f := range []string{"a.go", "b.PY", "c.tsx", "d.rs", "e.kt", "f.java", "g.cs", "h.hpp"} {
		if !Supported(f) {
			t.Errorf("Supported(%q) = false", f)
		}
	}
	for _, f := range []string{"a.txt", "Makefile", "x.yaml", "y.rb"} {
		if Supported(f) {
			t.Errorf("Supported(%q) = true", f)
		}
	}
	if _, err := Find("x.txt", "func f() {}", "f", ""); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Find(x.txt) error = %v, want ErrUnsupported", err)
	}
}

func TestErrorTypes(t *testing.T) {
	src := "package p\n\nfunc A() {}\nfunc A() {}\n"
	_, err := Lookup("x.go", src, "A", "")
	var amb *AmbiguousError
	if !errors.As(err, &amb) || len(amb.Matches) != 2 || amb.Matches[1].DeclLine != 4 {
		t.Errorf("Lookup(A) = %v, want an AmbiguousError with lines 3 and 4", err)
	}
	_, err = Lookup("x.go", src, "B", "")
	var nf *NotFoundError
	if !errors.As(err, &nf) || len(nf.Similar) != 1 {
		t.Errorf("Lookup(B) = %v, want a NotFoundError naming A once", err)
	}
}

func TestUnclosed(t *testing.T) {
	for file, src := range map[string]string{
		"x.go": "package p\n\nfunc F() {\n\tif x {\n}\n",
		"x.rs": "fn f() { let s = \"}\";\n",
		"x.ts": "class C {\n  m() { return `}` }\n",
	} {
		name := "F"
		if file != "x.go" {
			name = map[string]string{"x.rs": "f", "x.ts": "C"}[file]
		}
		_, err := Lookup(file, src, name, "")
		if !errors.Is(err, errUnclosed) || !strings.Contains(err.Error(), "line") {
			t.Errorf("%s: Lookup(%s) error = %v, want one saying the body is never closed", file, name, err)
		}
	}
}

// TestNotAtStatementStart checks that keywords in expressions, strings and
// comments do not declare anything.
func TestNotAtStatementStart(t *testing.T) {
	cases := map[string]string{
		"x.go": "package p\n\n// func F() {}\nvar s = \"func F() {}\"\nvar f = F()\n",
		"x.py": "s = '''\ndef F():\n    pass\n'''\n# def F(): pass\nF()\n",
		"x.ts": "const s = `\nfunction F() {}\n`; call(function F() {});\n",
		"x.rs": "// fn F() {}\nconst S: &str = r#\"\nfn F() {}\n\"#;\n",
	}
	for file, src := range cases {
		syms, err := Find(file, src, "F", "")
		if err != nil || len(syms) != 0 {
			t.Errorf("%s: Find(F) = %v, %v; want nothing", file, syms, err)
		}
	}
}
