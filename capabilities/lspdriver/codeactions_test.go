package lspdriver_test

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// TestCodeActionsGo: at a line with an error gopls lists a quick fix (it
// needs the line's diagnostics in the request to), and applying it by
// the Data its listing gave changes the workspace content only.
func TestCodeActionsGo(t *testing.T) {
	root, all := navWorkspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	all["c/c.go"] = text.FromString("package c\n\nfunc P() int { return missing(1) }\n")
	q := engine.Query{Path: "c/c.go", Line: 3}
	res := ask(t, d, root, all, engine.CodeActions, q, "c/c.go")
	var fix *engine.Action
	for i, a := range res.Actions {
		t.Logf("%+v", a)
		if a.Kind == "quickfix" && strings.Contains(a.Title, "missing") {
			fix = &res.Actions[i]
		}
	}
	if fix == nil {
		t.Fatalf("no quick fix for the undefined function: %+v", res.Actions)
	}
	q.Apply = fix
	res = ask(t, d, root, all, engine.CodeActions, q, "c/c.go")
	got := res.Edits["c/c.go"]
	if got == nil || !strings.Contains(got.Content(), "func missing(") || len(res.Edits) != 1 {
		t.Fatalf("applied %q: %v", fix.Title, res.Edits)
	}
	t.Logf("after %q:\n%s", fix.Title, got.Content())
}
