package main

// End-to-end tests of the language tools through the real binary over
// MCP stdio, with the Go SDK's client, on real language servers: gopls
// and pyright.

import (
	"context"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine/testtree"
)

// langResult is the part of a DevResult the language tests read.
type langResult struct {
	devResult
	Changes []struct {
		Path string `json:"path"`
		Kind string `json:"kind"`
	} `json:"changes"`
	Answers []struct {
		Name      string `json:"name"`
		Locations []struct {
			At   string `json:"at"`
			Text string `json:"text"`
		} `json:"locations"`
		Symbols []langSymbol `json:"symbols"`
		Hover   string       `json:"hover"`
		Actions []struct {
			ID    string `json:"id"`
			Title string `json:"title"`
		} `json:"actions"`
		Applied string `json:"applied"`
	} `json:"answers"`
}

// langSymbol is a symbol of an answer.
type langSymbol struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
	At   string `json:"at"`
}

// connectWithTools connects to a server on root and waits until it
// advertises the tools named (the probe of the root's languages runs in
// the background). The server offers the full profile: each step its
// own tool.
func connectWithTools(t *testing.T, root string, want ...string) *sdk.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	w, err := connectWatching(ctx, t, root, nil, "--tools", "full")
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	w.waitTools(ctx, t, func(tools []string) bool {
		for _, n := range want {
			if !slices.Contains(tools, n) {
				return false
			}
		}
		return true
	})
	return w.cs
}

// langCall calls a language tool and fails the test unless it answered ok.
func langCall(t *testing.T, cs *sdk.ClientSession, tool string, args map[string]any) langResult {
	t.Helper()
	res := callTool(t, cs, tool, args)
	r := decodeStructured[langResult](t, res)
	if res.IsError || !r.OK {
		t.Fatalf("%s %v: %s", tool, args, resultText(res))
	}
	return r
}

var langTools = []string{"definition", "references", "hover", "symbols", "rename", "code_actions"}

const (
	goA = "package a\n\n// Add returns the sum of x and y.\nfunc Add(x, y int) int {\n\treturn x + y\n}\n\n// Calc keeps a running total.\ntype Calc struct{ total int }\n\n// Reset sets the total to zero.\nfunc (c *Calc) Reset() { c.total = 0 }\n\n// Meter counts.\ntype Meter struct{ n int }\n\n// Reset sets the count to zero.\nfunc (m *Meter) Reset() { m.n = 0 }\n"
	goB = "package b\n\nimport \"example.com/m/a\"\n\n// Sum adds three numbers.\nfunc Sum(x, y, z int) int {\n\treturn a.Add(a.Add(x, y), z)\n}\n"
	goC = "package c\n\nimport (\n\t\"fmt\"\n\t\"os\"\n)\n\n// Hello prints a greeting.\nfunc Hello() { fmt.Println(\"hello\") }\n"
)

// Every language tool through MCP on gopls: definition, references, hover,
// symbols (outline and search), an ambiguous symbol, a code action listed
// and applied (it fixes c/c.go's unused import), and a rename across two
// packages that leaves the disk untouched until write, checked clean.
func TestServeLanguageToolsGopls(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("needs gopls (make tools installs it)")
	}
	disk := map[string]string{"go.mod": goModule, "a/a.go": goA, "b/b.go": goB, "c/c.go": goC}
	root := testtree.New(t, disk)
	cs := connectWithTools(t, root, langTools...)

	r := langCall(t, cs, "definition", map[string]any{"path": "b/b.go", "line": 7, "column": 11})
	if l := r.Answers[0].Locations; len(l) != 1 || l[0].At != "a/a.go:4:6" || l[0].Text != "func Add(x, y int) int {" {
		t.Errorf("definition: %+v", r.Answers)
	}
	r = langCall(t, cs, "references", map[string]any{"path": "a/a.go", "symbol": "Add"})
	var at []string
	for _, l := range r.Answers[0].Locations {
		at = append(at, l.At)
	}
	if !slices.Equal(at, []string{"b/b.go:7:11", "b/b.go:7:17"}) {
		t.Errorf("references of Add: %v", at)
	}
	r = langCall(t, cs, "hover", map[string]any{"path": "b/b.go", "symbol": "Sum"})
	if h := r.Answers[0].Hover; !strings.Contains(h, "func Sum(") || !strings.Contains(h, "Sum adds three numbers") {
		t.Errorf("hover of Sum: %q", h)
	}
	r = langCall(t, cs, "symbols", map[string]any{"path": "a/a.go"})
	if !slices.ContainsFunc(r.Answers[0].Symbols, func(s langSymbol) bool { return s.Name == "Add" && s.At == "a/a.go:4:6" }) {
		t.Errorf("outline of a/a.go: %+v", r.Answers[0].Symbols)
	}
	r = langCall(t, cs, "symbols", map[string]any{"query": "Sum"})
	if !slices.ContainsFunc(r.Answers[0].Symbols, func(s langSymbol) bool { return s.Name == "Sum" && s.At == "b/b.go:6:6" }) {
		t.Errorf("search for Sum: %+v", r.Answers[0].Symbols)
	}

	// An ambiguous symbol is an error that lists the candidates.
	res := callTool(t, cs, "references", map[string]any{"path": "a/a.go", "symbol": "Reset"})
	if dr := decodeStructured[devResult](t, res); !res.IsError || dr.Error == nil || dr.Error.Kind != "ambiguous" ||
		!strings.Contains(resultText(res), "line 12") || !strings.Contains(resultText(res), "line 18") {
		t.Errorf("an ambiguous symbol: %s", resultText(res))
	}

	// code_actions: list, then apply one by its id (the workspace only).
	r = langCall(t, cs, "code_actions", map[string]any{"path": "c/c.go", "only": []string{"source.organizeImports"}})
	if len(r.Answers[0].Actions) != 1 {
		t.Fatalf("organize imports offered %+v", r.Answers[0].Actions)
	}
	r = langCall(t, cs, "code_actions", map[string]any{"apply": r.Answers[0].Actions[0].ID})
	if r.Answers[0].Applied == "" || !slices.Equal(r.Unwritten, []string{"c/c.go"}) || testtree.Read(t, root)["c/c.go"] != goC {
		t.Fatalf("apply: %+v unwritten %v", r.Answers, r.Unwritten)
	}
	r = langCall(t, cs, "read_lines", map[string]any{"path": "c/c.go", "start": 1})
	if strings.Contains(r.Reads["c/c.go"], `"os"`) {
		t.Errorf("organize imports kept the unused import: %q", r.Reads["c/c.go"])
	}
	if r = langCall(t, cs, "write", map[string]any{}); !slices.Equal(r.Written, []string{"c/c.go"}) {
		t.Fatalf("write after the code action: %v", r.Written)
	}

	// rename across two packages: the workspace only, until write.
	r = langCall(t, cs, "rename", map[string]any{"path": "a/a.go", "symbol": "Add", "new_name": "Plus"})
	if len(r.Written) != 0 || !slices.Equal(r.Unwritten, []string{"a/a.go", "b/b.go"}) {
		t.Fatalf("rename: written %v unwritten %v\n%s", r.Written, r.Unwritten, resultText(callTool(t, cs, "check", map[string]any{})))
	}
	if got := testtree.Read(t, root); got["a/a.go"] != goA || got["b/b.go"] != goB {
		t.Fatalf("rename wrote the disk")
	}
	if r = langCall(t, cs, "check", map[string]any{}); len(r.Written) != 0 {
		t.Fatalf("check wrote %v", r.Written)
	}
	r = langCall(t, cs, "write", map[string]any{})
	if !slices.Equal(r.Written, []string{"a/a.go", "b/b.go"}) {
		t.Fatalf("write after rename: %v", r.Written)
	}
	if got := testtree.Read(t, root); !strings.Contains(got["a/a.go"], "func Plus(x, y int) int {") || !strings.Contains(got["b/b.go"], "a.Plus(a.Plus(x, y), z)") {
		t.Fatalf("after write: %q, %q", got["a/a.go"], got["b/b.go"])
	}

}

// The language tools on pyright: definition, hover and rename (a rename
// across two modules, unwritten until write).
func TestServeLanguageToolsPyright(t *testing.T) {
	if _, err := exec.LookPath("pyright-langserver"); err != nil {
		t.Skip("needs pyright (npm install -g pyright; make tools installs it)")
	}
	greet := "def greet(name: str) -> str:\n    \"\"\"Say hello to name.\"\"\"\n    return \"hello \" + name\n"
	use := "from greeting import greet\n\nprint(greet(\"you\"))\n"
	root := testtree.New(t, map[string]string{"greeting.py": greet, "main.py": use})
	cs := connectWithTools(t, root, "definition", "hover", "rename")

	r := langCall(t, cs, "definition", map[string]any{"path": "main.py", "line": 3, "column": 7})
	if l := r.Answers[0].Locations; len(l) != 1 || l[0].At != "greeting.py:1:5" {
		t.Errorf("definition: %+v", r.Answers)
	}
	r = langCall(t, cs, "hover", map[string]any{"path": "greeting.py", "symbol": "greet"})
	if h := r.Answers[0].Hover; !strings.Contains(h, "greet") || !strings.Contains(h, "Say hello to name.") {
		t.Errorf("hover: %q", h)
	}
	r = langCall(t, cs, "rename", map[string]any{"path": "greeting.py", "symbol": "greet", "new_name": "salute"})
	if len(r.Written) != 0 || !slices.Equal(r.Unwritten, []string{"greeting.py", "main.py"}) {
		t.Fatalf("rename: written %v unwritten %v", r.Written, r.Unwritten)
	}
	if got := testtree.Read(t, root); got["greeting.py"] != greet || got["main.py"] != use {
		t.Fatal("rename wrote the disk")
	}
	langCall(t, cs, "write", map[string]any{})
	if m, g := readFile(t, root, "main.py"), readFile(t, root, "greeting.py"); m != "from greeting import salute\n\nprint(salute(\"you\"))\n" || !strings.HasPrefix(g, "def salute(") {
		t.Fatalf("after write: %q, %q", m, g)
	}
}

// search through MCP sees the session's unwritten changes: a file that
// dev_plan edited and one it added, neither written, are searched as the
// workspace holds them, and what .gitignore ignores is not searched. It
// needs no driver: the root has none.
func TestServeSearchSeesUnwrittenChanges(t *testing.T) {
	root := testtree.New(t, map[string]string{
		".gitignore": "*.log\n",
		"a.txt":      "one\nold needle\n",
		"docs/b.md":  "# needle\n",
		"trace.log":  "needle in the log\n",
	})
	cs := connectWithTools(t, root, "search")
	langCall(t, cs, "dev_plan", map[string]any{"paths": []string{"a.txt"}, "ops": []any{
		map[string]any{"step": "edit", "args": map[string]any{"path": "a.txt", "edits": []any{map[string]any{"find": "old needle", "replace": "new needle"}}}},
		map[string]any{"step": "apply_patch", "args": map[string]any{"patch": "*** Begin Patch\n*** Add File: c/c.txt\n+a needle added\n*** End Patch\n"}},
	}})
	res := callTool(t, cs, "search", map[string]any{"pattern": "needle"})
	r := decodeStructured[langResult](t, res)
	if res.IsError || !r.OK || len(r.Answers) != 1 {
		t.Fatalf("search: %s", resultText(res))
	}
	var got []string
	for _, l := range r.Answers[0].Locations {
		got = append(got, l.At+": "+l.Text)
	}
	want := []string{"a.txt:2:5: new needle", "c/c.txt:1:3: a needle added", "docs/b.md:1:3: # needle"}
	if !slices.Equal(got, want) {
		t.Errorf("search found %q, want %q", got, want)
	}
	text := "ok: true\n" + strings.Join(want, "\n") + "\n(4 files searched)\nchange: modified a.txt (+1 -1)\nchange: added c/c.txt (+1 -0)\nunwritten (in the workspace, not on disk): a.txt, c/c.txt"
	if resultText(res) != text {
		t.Errorf("search's text:\n%s\nwant:\n%s", resultText(res), text)
	}
	if testtree.Read(t, root)["a.txt"] != "one\nold needle\n" {
		t.Error("search wrote a.txt")
	}
	// Named, the ignored file is searched; a bad expression says what to give.
	r = langCall(t, cs, "search", map[string]any{"pattern": "needle", "paths": []string{"trace.log"}})
	if l := r.Answers[0].Locations; len(l) != 1 || l[0].At != "trace.log:1:1" {
		t.Errorf("search of trace.log: %+v", r.Answers)
	}
	res = callTool(t, cs, "search", map[string]any{"pattern": "needle(", "regex": true})
	if !res.IsError || !strings.Contains(resultText(res), "does not compile; give an RE2 regular expression") {
		t.Errorf("a bad regex: %s", resultText(res))
	}
}

// What gopls says beyond a finding's own place reaches the MCP client: a
// name declared twice carries the other declaration's place (related, and
// its indented line in the text), and a workspace symbol search that
// reached gopls's limit of 100 says it may have been cut (truncated,
// server_limit, and a line of text), which omitted cannot count.
func TestServeRelatedAndServerLimit(t *testing.T) {
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("needs gopls (make tools installs it)")
	}
	var foo strings.Builder
	foo.WriteString("package foo\n\n")
	for i := range 150 {
		fmt.Fprintf(&foo, "func Foo%d() {}\n", i)
	}
	root := testtree.New(t, map[string]string{
		"go.mod": goModule, "d/a.go": "package d\n\nfunc F() {}\n", "d/b.go": "package d\n\nfunc F() {}\n", "foo/foo.go": foo.String(),
	})
	cs := connectWithTools(t, root, "check", "symbols")

	res := callTool(t, cs, "check", map[string]any{"paths": []string{"d/*.go"}})
	dr := decodeStructured[struct {
		Diagnostics []struct {
			Path    string `json:"path"`
			Message string `json:"message"`
			Related []struct {
				Path    string `json:"path"`
				Line    int    `json:"line"`
				Column  int    `json:"column"`
				Message string `json:"message"`
			} `json:"related"`
		} `json:"diagnostics"`
	}](t, res)
	found := false
	for _, d := range dr.Diagnostics {
		if d.Path == "d/b.go" && d.Message == "F redeclared in this block" && len(d.Related) == 1 {
			r := d.Related[0]
			found = r.Path == "d/a.go" && r.Line == 3 && r.Column == 6 && r.Message == "other declaration of F"
		}
	}
	if !found || !strings.Contains(resultText(res), "d/b.go:3:6: error: F redeclared in this block (gopls DuplicateDecl)\n\td/a.go:3:6: other declaration of F") {
		t.Errorf("check: no related place for the redeclared F:\n%s", resultText(res))
	}

	res = callTool(t, cs, "symbols", map[string]any{"query": "Foo"})
	ans := decodeStructured[struct {
		Answers []struct {
			Symbols     []langSymbol `json:"symbols"`
			Omitted     int          `json:"omitted"`
			Truncated   bool         `json:"truncated"`
			ServerLimit int          `json:"server_limit"`
		} `json:"answers"`
	}](t, res)
	if len(ans.Answers) != 1 || len(ans.Answers[0].Symbols) != 100 || !ans.Answers[0].Truncated || ans.Answers[0].ServerLimit != 100 ||
		!strings.Contains(resultText(res), "the language server stopped at 100; more may match: narrow the query") {
		t.Errorf("symbols Foo: %+v\n%s", ans.Answers, resultText(res))
	}
}
