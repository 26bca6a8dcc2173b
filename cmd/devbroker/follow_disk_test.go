package main

// End-to-end: a check follows what is written to disk, by edit_file and
// by another process, for files the language server does not have open.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// importedModule is a module whose package b calls package a's F.
var importedModule = map[string]string{
	"go.mod": "module example.com/m\n\ngo 1.22\n",
	"a/a.go": "package a\n\n// F is used by b.\nfunc F() int { return 1 }\n",
	"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n",
}

func TestServeCheckFollowsDisk(t *testing.T) {
	root := testtree.New(t, importedModule)
	if !probeAvailable(t, root)["driver:gopls"] {
		t.Skip("no gopls driver found by the probe")
	}
	cs := connectSettled(t, root)
	check := func(what string, tool bool, want string) {
		t.Helper()
		var dr devResult
		if tool {
			dr = decodeStructured[devResult](t, callTool(t, cs, "check", map[string]any{"paths": []string{"b/b.go"}}))
		} else {
			dr = decodeStructured[devResult](t, callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"b/b.go"}, "ops": []any{map[string]any{"step": "check"}}}))
		}
		var got []string
		for _, d := range dr.Diagnostics {
			if d.Severity == "error" {
				got = append(got, d.Path+": "+d.Message)
			}
		}
		joined := strings.Join(got, "\n")
		switch {
		case want == "" && len(got) > 0:
			t.Fatalf("%s: got errors, want none:\n%s", what, joined)
		case want != "" && !strings.Contains(joined, want):
			t.Fatalf("%s: got %q, want an error containing %q", what, got, want)
		}
	}
	check("before", false, "")

	// edit_file changes the signature; b/b.go is the only file checked.
	a := filepath.Join(root, "a/a.go")
	view := callTool(t, cs, "edit_file", map[string]any{"command": "view", "file_path": a})
	if view.IsError {
		t.Fatalf("view: %s", resultText(view))
	}
	ed := callTool(t, cs, "edit_file", map[string]any{"command": "str_replace", "file_path": a,
		"old_str": "func F() int { return 1 }", "new_str": "func F(x int) int { return x }"})
	if ed.IsError {
		t.Fatalf("str_replace: %s", resultText(ed))
	}
	check("after edit_file (dev_plan)", false, "b/b.go: not enough arguments in call to a.F")
	check("after edit_file (check tool)", true, "b/b.go: not enough arguments in call to a.F")

	// Another process restores it, then breaks it differently.
	if err := os.WriteFile(a, []byte(importedModule["a/a.go"]), 0o644); err != nil {
		t.Fatal(err)
	}
	check("after another process restored a/a.go", true, "")
	if err := os.WriteFile(a, []byte("package a\n\nfunc G() int { return 1 }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	check("after another process renamed F", false, "b/b.go: undefined: a.F")
}
