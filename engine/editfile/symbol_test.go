package editfile

import (
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestReplaceSymbolGoMethod(t *testing.T) {
	e := newEnv(t, map[string]string{"p.go": goSymbols})
	e.view("p.go")
	newGet := "// Get returns n, or -1.\nfunc (t *T) Get() int {\n\treturn -1\n}"
	r := e.ok("replace_symbol", "p.go", "symbol", "T.Get", "new_str", newGet)
	want := "package p\n\n// T is a type.\ntype T struct{ n int }\n\n" + newGet + "\n\nfunc Get() int { return 1 }\n\ntype Thing int\n\nfunc Thing2() {}\n"
	if got := e.disk("p.go"); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	contains(t, r, "6\t// Get returns n, or -1.", "9\t}")
	// Ambiguous lists the lines; symbol_kind narrows.
	e2 := newEnv(t, map[string]string{"p.go": goSymbols})
	e2.view("p.go")
	contains(t, e2.fail(fault.Ambiguous, "replace_symbol", "p.go", "symbol", "Get", "new_str", "x"), "7", "14")
	if e2.disk("p.go") != goSymbols {
		t.Fatal("an ambiguous replace_symbol wrote")
	}
	e2.ok("replace_symbol", "p.go", "symbol", "Get", "symbol_kind", "function", "new_str", "func Get() int { return 2 }")
	contains(t, e2.disk("p.go"), "func Get() int { return 2 }\n\ntype Thing int", "func (t *T) Get() int {\n\tif t.n")
	contains(t, e2.fail(fault.NotFound, "replace_symbol", "p.go", "symbol", "Missing", "new_str", "x"), "Missing")
	contains(t, e2.fail(fault.BadArgument, "replace_symbol", "p.go", "new_str", "x"), "symbol")
}

func TestReplaceSymbolPythonDecorated(t *testing.T) {
	src := "import x\n\n\n@app.route(\"/\")\n@cached\ndef handler(req):\n    if req:\n        return 1\n\n    return 2\n\n\ndef other():\n    pass\n"
	e := newEnv(t, map[string]string{"app.py": src})
	e.view("app.py")
	e.ok("replace_symbol", "app.py", "symbol", "handler", "new_str", "def handler(req):\n    return 3\n")
	want := "import x\n\n\ndef handler(req):\n    return 3\n\n\ndef other():\n    pass\n"
	if got := e.disk("app.py"); got != want {
		t.Fatalf("the decorators belong to the symbol:\ngot\n%s\nwant\n%s", got, want)
	}
}

func TestReplaceSymbolKind(t *testing.T) {
	src := "class Foo:\n    pass\n\n\ndef Foo():\n    pass\n"
	e := newEnv(t, map[string]string{"m.py": src})
	e.view("m.py")
	contains(t, e.fail(fault.Ambiguous, "replace_symbol", "m.py", "symbol", "Foo", "new_str", "x = 1"), "1", "5")
	e.ok("replace_symbol", "m.py", "symbol", "Foo", "symbol_kind", "class", "new_str", "class Foo:\n    x = 1")
	if got := e.disk("m.py"); got != "class Foo:\n    x = 1\n\n\ndef Foo():\n    pass\n" {
		t.Errorf("got %q", got)
	}
}

func TestReplaceSymbolCRLF(t *testing.T) {
	src := "package p\r\n\r\nfunc A() {\r\n\treturn\r\n}\r\n\r\nfunc B() {}\r\n"
	e := newEnv(t, map[string]string{"p.go": src})
	e.view("p.go")
	e.ok("replace_symbol", "p.go", "symbol", "A", "new_str", "func A() {\n\tprintln()\n}\n")
	if got, want := e.disk("p.go"), "package p\r\n\r\nfunc A() {\r\n\tprintln()\r\n}\r\n\r\nfunc B() {}\r\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestReplaceSymbolKeepsFinalNewlineState covers a symbol that ends the
// file: the file keeps its final-newline state whether or not new_str ends
// in a newline (docs/line-endings.md: a file without a final newline stays without
// one).
func TestReplaceSymbolKeepsFinalNewlineState(t *testing.T) {
	for _, tc := range []struct{ name, src, newStr, want string }{
		{"no final newline, new_str with one", "package p\n\nfunc F() {\n}", "func F() {\n\treturn\n}\n", "package p\n\nfunc F() {\n\treturn\n}"},
		{"no final newline, new_str without", "package p\n\nfunc F() {\n}", "func F() {\n\treturn\n}", "package p\n\nfunc F() {\n\treturn\n}"},
		{"final newline, new_str without", "package p\n\nfunc F() {\n}\n", "func F() {\n\treturn\n}", "package p\n\nfunc F() {\n\treturn\n}\n"},
		{"final newline, new_str with one", "package p\n\nfunc F() {\n}\n", "func F() {\n\treturn\n}\n", "package p\n\nfunc F() {\n\treturn\n}\n"},
		{"crlf, no final newline", "package p\r\n\r\nfunc F() {\r\n}", "func F() {\r\n\treturn\r\n}\r\n", "package p\r\n\r\nfunc F() {\r\n\treturn\r\n}"},
		{"mixed, no final newline", "package p\n\r\nfunc F() {\r\n}", "func F() {\r\n\treturn\r\n}\r\n", "package p\n\r\nfunc F() {\r\n\treturn\r\n}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, map[string]string{"p.go": tc.src})
			e.view("p.go")
			r := e.ok("replace_symbol", "p.go", "symbol", "F", "new_str", tc.newStr)
			if got := e.disk("p.go"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			contains(t, r, "5\t}", "revision: "+rev(tc.want))
		})
	}
}
