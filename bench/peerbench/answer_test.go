package main

import (
	"slices"
	"strings"
	"testing"
)

// The file the tests edit: its last line, "}", is not unique.
const testFile = "package p\n\nfunc A() {\n}\n\nfunc B() {\n}\n"

func testEdit(t *testing.T) *edit {
	t.Helper()
	anchor, err := uniqueTail(testFile)
	if err != nil {
		t.Fatal(err)
	}
	return &edit{file: "p/p.go", clean: testFile, anchor: anchor}
}

func TestEditRoundTrips(t *testing.T) {
	e := testEdit(t)
	if e.anchor != "func B() {\n}" {
		t.Fatalf("anchor %q", e.anchor)
	}
	find, replace := e.replacement(true)
	broken := strings.Replace(e.clean, find, replace, 1)
	if broken != e.broken() {
		t.Fatalf("adding gives %q, want %q", broken, e.broken())
	}
	if got := strings.Split(broken, "\n")[e.errLine()-1]; got != errorLine {
		t.Fatalf("line %d is %q", e.errLine(), got)
	}
	find, replace = e.replacement(false)
	if strings.Count(broken, find) != 1 || strings.Replace(broken, find, replace, 1) != e.clean {
		t.Fatal("removing does not give the clean file back")
	}
}

func TestUniqueTailRefusesCRLF(t *testing.T) {
	if _, err := uniqueTail("package p\r\n"); err == nil {
		t.Fatal("CRLF accepted")
	}
}

func TestGoplsAnswer(t *testing.T) {
	text := "File `/r/p/p.go` has the following diagnostics:\n" +
		"8:12-8:29: [Error] cannot use \"devbroker-bench\" (untyped string constant) as int value in variable declaration\n" +
		"2:0-2:4: [Hint] something\n\n" +
		"File `/elsewhere/q.go` has the following diagnostics:\n" +
		"0:0-0:1: [Error] outside\n"
	got := goplsAnswer(text, "/r").errs
	want := []diag{{"p/p.go", 9, `cannot use "devbroker-bench" (untyped string constant) as int value in variable declaration`}, {"/elsewhere/q.go", 1, "outside"}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if a := goplsAnswer("No diagnostics.", "/r"); len(a.errs) != 0 {
		t.Fatalf("no diagnostics: %v", a.errs)
	}
}

func TestAgentLSPAnswer(t *testing.T) {
	text := `{"file:///r/p/p.go":[{"range":{"start":{"line":8,"character":12},"end":{"line":8,"character":29}},"severity":1,"message":"cannot use \"devbroker-bench\""},{"range":{"start":{"line":1}},"severity":4,"message":"hint"}]}` + "\n\nUse suggest_fixes at each error location for quick fixes."
	a, err := agentLSPAnswer(text, "/r")
	if err != nil {
		t.Fatal(err)
	}
	if want := []diag{{"p/p.go", 9, `cannot use "devbroker-bench"`}}; !slices.Equal(a.errs, want) {
		t.Fatalf("got %v, want %v", a.errs, want)
	}
	if _, err := agentLSPAnswer("LSP not initialized", "/r"); err == nil {
		t.Fatal("an answer without JSON was read")
	}
}

func TestJudge(t *testing.T) {
	e := testEdit(t)
	want := diag{e.file, e.errLine(), `cannot use "devbroker-bench" (untyped string constant) as int value`}
	old := diag{"q/q.go", 3, "an error the module had"}
	other := diag{"p/p.go", 2, "a new error"}
	for _, c := range []struct {
		name   string
		a      answer
		broken bool
		ok     bool
	}{
		{"broken, named", answer{errs: []diag{want, old}}, true, true},
		{"broken, not named", answer{errs: []diag{old}}, true, false},
		{"broken, named twice", answer{errs: []diag{want, want}}, true, false},
		{"broken, another new error", answer{errs: []diag{want, other}}, true, false},
		{"clean, none", answer{errs: []diag{old}}, false, true},
		{"clean, still named", answer{errs: []diag{want}}, false, false},
		{"incomplete", answer{incomplete: "indexing"}, false, false},
	} {
		if ok, why := judge(c.a, e, c.broken, []diag{old}, false); ok != c.ok {
			t.Errorf("%s: ok %v (%s), want %v", c.name, ok, why, c.ok)
		}
	}
	// Limited to the edited file, other files' errors do not count.
	if ok, why := judge(answer{errs: []diag{want, {"q/q.go", 1, "a neighbour's"}}}, e, true, nil, true); !ok {
		t.Errorf("only the edited file: %s", why)
	}
}

func FuzzGoplsAnswer(f *testing.F) {
	f.Add("File `/r/a.go` has the following diagnostics:\n1:2-3:4: [Error] boom\n")
	f.Add("No diagnostics.")
	f.Fuzz(func(t *testing.T, text string) {
		for _, d := range goplsAnswer(text, "/r").errs {
			if d.line < 1 {
				t.Fatalf("line %d from %q", d.line, text)
			}
		}
	})
}

func FuzzAgentLSPAnswer(f *testing.F) {
	f.Add(`{"file:///r/a.go":[{"range":{"start":{"line":0}},"severity":1,"message":"m"}]}`)
	f.Add(`x {"a": null} y`)
	f.Fuzz(func(t *testing.T, text string) {
		a, err := agentLSPAnswer(text, "/r")
		if err != nil && len(a.errs) > 0 {
			t.Fatalf("errors with a failure: %v", a.errs)
		}
	})
}
