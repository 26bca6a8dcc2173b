package lspdriver_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
)

// TestNavigatePython: definition, hover, references and rename from
// pyright on a small project, the caller on a line with characters
// outside the BMP.
func TestNavigatePython(t *testing.T) {
	bin, err := exec.LookPath("pyright-langserver")
	if err != nil {
		t.Skip("no pyright-langserver on PATH (npm install -g pyright)")
	}
	files := map[string]string{
		"pkg/m.py": "def greet(name: str) -> str:\n    \"\"\"Say hello.\"\"\"\n    return \"hi \" + name\n",
		"main.py":  "from pkg.m import greet\n\nlabel = \"𝄞\"; print(greet(label))\n",
	}
	root, all := tree(t, files)
	d, err := lspdriver.Type.New("pyright", configtest.Driver(&configs.Driver{Type: "lsp", Command: []string{bin, "--stdio"}, LanguageID: "python"}), capabilities.Env{Root: root, Language: "python"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	call := engine.Query{Path: "main.py", Line: 3, Column: column("label = \"𝄞\"; print(greet(label))", "greet")}
	res := ask(t, d, root, all, engine.Definition, call)
	want := engine.Location{Path: "pkg/m.py", Line: 1, Column: 5, EndLine: 1, EndColumn: 10, Text: "def greet(name: str) -> str:"}
	if len(res.Locations) != 1 || res.Locations[0] != want {
		t.Fatalf("definition: %+v, want %+v", res.Locations, want)
	}
	res = ask(t, d, root, all, engine.Hover, call)
	if !strings.Contains(res.Hover, "def greet(name: str) -> str") || !strings.Contains(res.Hover, "Say hello.") {
		t.Fatalf("hover: %q", res.Hover)
	}
	def := engine.Query{Path: "pkg/m.py", Line: 1, Column: 5, IncludeDeclaration: true}
	res = ask(t, d, root, all, engine.References, def)
	var places []string
	for _, l := range res.Locations {
		places = append(places, l.Path+":"+l.Text)
	}
	if len(res.Locations) != 3 || !strings.Contains(strings.Join(places, "\n"), "main.py:label = \"𝄞\"; print(greet(label))") {
		t.Fatalf("references: %+v", res.Locations)
	}
	res = ask(t, d, root, all, engine.Symbols, engine.Query{Path: "pkg/m.py"})
	if len(res.Symbols) == 0 || res.Symbols[0].Name != "greet" || res.Symbols[0].Kind != "function" {
		t.Fatalf("outline: %+v", res.Symbols)
	}
	res = ask(t, d, root, all, engine.Rename, engine.Query{Path: "main.py", Line: call.Line, Column: call.Column, NewName: "hello"})
	if got := res.Edits["main.py"].Content(); got != strings.ReplaceAll(files["main.py"], "greet", "hello") {
		t.Fatalf("main.py after the rename:\n%s", got)
	}
	if got := res.Edits["pkg/m.py"].Content(); got != strings.Replace(files["pkg/m.py"], "greet", "hello", 1) {
		t.Fatalf("pkg/m.py after the rename:\n%s", got)
	}
}
