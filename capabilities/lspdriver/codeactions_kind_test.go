package lspdriver

import (
	"testing"

	"github.com/devbroker/devbroker/lsp"
)

// Only the kinds that change code are listed; only narrows them, and
// cannot ask for the others (gopls runs their commands on the server that
// every session of the root shares: a toggle, a documentation server).
func TestEditKind(t *testing.T) {
	for _, c := range []struct {
		kind string
		only []string
		want bool
	}{
		{"quickfix", nil, true},
		{"refactor.extract.function", nil, true},
		{"source.organizeImports", nil, true},
		{"", nil, true},
		{"source.doc", nil, false},
		{"source.toggleCompilerOptDetails", nil, false},
		{"gopls.doc.features", nil, false},
		{"refactorx", nil, false},
		{"source.addTest", []string{"source.addTest"}, false},
		{"source.toggleCompilerOptDetails", []string{"source"}, false},
		{"source.doc", []string{"source.doc"}, false},
		{"source.organizeImports", []string{"source"}, true},
		{"", []string{"quickfix"}, false},
		{"quickfix", []string{"refactor"}, false},
		{"refactor.inline.call", []string{"refactor.inline"}, true},
	} {
		if got := editKind(c.kind, c.only); got != c.want {
			t.Errorf("editKind(%q, %q) = %v, want %v", c.kind, c.only, got, c.want)
		}
	}
}

// An action whose command would run the go command (or change the shared
// server's state) is not listed, so it cannot be applied; gopls's commands
// that only ask the client to apply an edit, and other servers'
// commands, are.
func TestActionsThatRunCommands(t *testing.T) {
	for _, c := range []struct {
		cmd  string
		want bool
	}{
		{"gopls.go_get_package", false},
		{"gopls.tidy", false},
		{"gopls.generate", false},
		{"gopls.add_dependency", false},
		{"gopls.toggle_compiler_opt_details", false},
		{"gopls.apply_fix", true},
		{"gopls.change_signature", true},
		{"pyright.organizeimports", true},
		{"pyright.createtypestub", false},
		{"basedpyright.createtypestub", false},
		{"pyright.restartserver", false},
		{"_typescript.applyRefactoring", true},
		{"", true},
	} {
		a := &lsp.CodeAction{Title: "t", Kind: "quickfix"}
		if c.cmd != "" {
			a.Command = &lsp.Command{Title: "t", Command: c.cmd}
		}
		if got := listed(a, nil); got != c.want {
			t.Errorf("an action running %q listed: %v, want %v", c.cmd, got, c.want)
		}
	}
}
