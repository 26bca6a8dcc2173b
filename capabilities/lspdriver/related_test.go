package lspdriver_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// TestRelatedInformationGo: gopls's related information reaches the
// diagnostic: a name declared twice is reported with the other
// declaration's place (workspace path, line, character column after
// characters outside the BMP) and gopls's message for it, and the second
// error points back at the first.
func TestRelatedInformationGo(t *testing.T) {
	root, all := tree(t, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a.go":   "package m\n\nvar s = \"𝄞é\"; func F() {}\n",
		"b.go":   "package m\n\nfunc F() {}\n",
	})
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	res := d.Run(t.Context(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"a.go", "b.go"}, All: all})
	if res.Status != engine.StatusOK {
		t.Fatalf("check: %s: %s", res.Status, res.Message)
	}
	col := column("var s = \"𝄞é\"; func F() {}", "F()")
	byPath := map[string]engine.Diagnostic{}
	for _, dg := range res.Diagnostics {
		byPath[dg.Path] = dg
	}
	b, a := byPath["b.go"], byPath["a.go"]
	if !strings.HasPrefix(b.Message, "F redeclared") || !slices.Equal(b.Related, []engine.Related{{Path: "a.go", Line: 3, Column: col, Message: "other declaration of F"}}) {
		t.Errorf("b.go's diagnostic: %+v, want the other declaration at a.go:3:%d", b, col)
	}
	if !strings.HasPrefix(a.Message, "F redeclared") || !slices.Equal(a.Related, []engine.Related{{Path: "b.go", Line: 3, Column: 6}}) {
		t.Errorf("a.go's diagnostic: %+v, want it to point at b.go:3:6", a)
	}
}

// TestWorkspaceSymbolsServerLimit: gopls stops a workspace symbol search
// at 100; an answer that reached it says so (ServerLimit), since nothing
// counts what the server did not list. A query with fewer matches does
// not.
func TestWorkspaceSymbolsServerLimit(t *testing.T) {
	var src strings.Builder
	src.WriteString("package foo\n\n")
	for i := range 150 {
		fmt.Fprintf(&src, "func Foo%d() {}\n", i)
	}
	root, all := tree(t, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n", "foo/foo.go": src.String()})
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	res := ask(t, d, root, all, engine.Symbols, engine.Query{Text: "Foo"})
	if len(res.Symbols) != 100 || res.ServerLimit != 100 {
		t.Fatalf("search for Foo: %d symbols, server limit %d; want 100 and 100", len(res.Symbols), res.ServerLimit)
	}
	res = ask(t, d, root, all, engine.Symbols, engine.Query{Text: "Foo14"})
	if len(res.Symbols) == 0 || len(res.Symbols) >= 100 || res.ServerLimit != 0 {
		t.Fatalf("search for Foo14: %d symbols, server limit %d; want fewer than 100 and none", len(res.Symbols), res.ServerLimit)
	}
	// An outline is the whole file, whatever its length.
	res = ask(t, d, root, map[string]*text.Doc{"foo/foo.go": all["foo/foo.go"]}, engine.Symbols, engine.Query{Path: "foo/foo.go"})
	if len(res.Symbols) != 150 || res.ServerLimit != 0 {
		t.Fatalf("outline: %d symbols, server limit %d; want 150 and none", len(res.Symbols), res.ServerLimit)
	}
}
