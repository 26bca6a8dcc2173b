package main

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
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
		if ok, why := judge(c.a, e, wantOf(c.broken), []diag{old}, false); ok != c.ok {
			t.Errorf("%s: ok %v (%s), want %v", c.name, ok, why, c.ok)
		}
	}
	// Limited to the edited file, other files' errors do not count.
	if ok, why := judge(answer{errs: []diag{want, {"q/q.go", 1, "a neighbour's"}}}, e, wantMessage, nil, true); !ok {
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

// Every mode's steps chain (each change starts from the line its file
// has), the distinct and put-back states never repeat, and the reset
// leaves every file clean; each find is found once, giving the next text.
func TestSteps(t *testing.T) {
	main := testEdit(t)
	other := &edit{file: "p/q.go", clean: "package p\n\nvar Q = 1\n", anchor: "var Q = 1"}
	seq := 0
	seen := map[string]bool{}
	for _, mode := range modes {
		ss := steps(mode, 3, main, other, &seq)
		if len(ss) != 6 {
			t.Fatalf("%s: %d steps, want 6", mode, len(ss))
		}
		text := map[*edit]string{main: main.clean, other: other.clean}
		line := map[*edit]string{}
		apply := func(cs []change) {
			for _, c := range cs {
				if line[c.e] != c.from {
					t.Fatalf("%s: %s changes from %q, the file has %q", mode, c.e.file, c.from, line[c.e])
				}
				find, replace := c.e.change(c.from, c.to)
				if strings.Count(text[c.e], find) != 1 {
					t.Fatalf("%s: %q not found once in %q", mode, find, text[c.e])
				}
				text[c.e] = strings.Replace(text[c.e], find, replace, 1)
				if text[c.e] != c.e.text(c.to) {
					t.Fatalf("%s: %q, want %q", mode, text[c.e], c.e.text(c.to))
				}
				line[c.e] = c.to
			}
		}
		for _, s := range ss {
			apply(s.changes)
			if s.want != want(line[main]) {
				t.Fatalf("%s, %s: want %q for line %q", mode, s.label, s.want, line[main])
			}
			state := text[main] + "\x00" + text[other]
			if mode != modeToggle && seen[state] {
				t.Fatalf("%s, %s: a state seen before", mode, s.label)
			}
			seen[state] = true
		}
		apply(resetChanges(ss))
		if text[main] != main.clean || text[other] != other.clean {
			t.Fatalf("%s: the reset leaves %q and %q", mode, text[main], text[other])
		}
	}
}

// A distinct edit's error is told from the others: the previous step's
// error, still named, is wrong, and so is one whose string only begins
// with the wanted one.
func TestJudgeDistinct(t *testing.T) {
	e := testEdit(t)
	named := func(k int) diag {
		return diag{e.file, e.errLine(), `cannot use "devbroker-bench-` + strconv.Itoa(k) + `" (untyped string constant) as int value`}
	}
	if ok, why := judge(answer{errs: []diag{named(1)}}, e, want(errorLineN(1)), nil, false); !ok {
		t.Fatalf("the error: %s", why)
	}
	if ok, _ := judge(answer{errs: []diag{named(17)}}, e, want(errorLineN(1)), nil, false); ok {
		t.Fatal("devbroker-bench-17 taken for devbroker-bench-1")
	}
	if ok, _ := judge(answer{errs: []diag{named(1)}}, e, want(cleanLineN(2)), nil, false); ok {
		t.Fatal("the previous step's error accepted for a clean state")
	}
	if want(cleanLineN(2)) != "" || want(otherLineN(3)) != "" || want(errorLine) != wantMessage {
		t.Fatal("want")
	}
}

// A smoke run fails on a wrong devbroker answer in any mode, the
// baseline binary's included, and never on a peer's wrong answer or on a
// timing.
func TestDevbrokerWrong(t *testing.T) {
	r := newResults(options{})
	r.series(r.mode(modeToggle), "`gopls mcp` (write the file + `go_diagnostics`)", "remove it").add(time.Hour, false, "a peer's")
	r.series(r.mode(modeDistinct), "devbroker `edit_file` + `check` (on disk)", "a new error").add(time.Hour, true, "")
	if err := r.devbrokerWrong(); err != nil {
		t.Fatalf("failed on a peer's answer or a timing: %v", err)
	}
	for _, name := range []string{"devbroker `dev_plan [edit, check]` (in memory)", "baseline devbroker `edit_file` + `check` (old, on disk)"} {
		r := newResults(options{})
		r.series(r.mode(modePutBack), name, "put back, the other file still changed").add(time.Millisecond, false, "stale")
		if err := r.devbrokerWrong(); err == nil {
			t.Fatalf("%s: a wrong answer passed", name)
		}
	}
}
