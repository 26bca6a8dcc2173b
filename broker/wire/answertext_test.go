package wire_test

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
)

// An answer reads plainly: one "path:line:column: text" line per place,
// the outline as positions with kinds and names, hover as its text, code
// actions as "id  title (kind)", and a line for what is left out or empty
// (a search's also says how many files it searched).
func TestAnswerText(t *testing.T) {
	for _, c := range []struct {
		a    engine.Answer
		want string
	}{
		{engine.Answer{Name: engine.StepReferences, Omitted: 3, Locations: []engine.Location{
			{Path: "a.go", Line: 3, Column: 6, Text: "func Add(a, b int) int {"},
			{Path: "b/b.go", Line: 9, Column: 12, Text: "\treturn a.Add(1, 2)"},
		}}, "a.go:3:6: func Add(a, b int) int {\nb/b.go:9:12: \treturn a.Add(1, 2)\n... and 3 more not listed\n"},
		{engine.Answer{Name: engine.StepSymbols, Symbols: []engine.Symbol{
			{Name: "Server", Kind: "struct", Path: "s.go", Line: 5, Column: 6},
			{Name: "Server.Start", Kind: "method", Detail: "func() error", Path: "s.go", Line: 9, Column: 18},
			{Name: "Start", Kind: "method", Container: "Server", Path: "s.go", Line: 9, Column: 18},
		}}, "s.go:5:6: struct Server\ns.go:9:18: method Server.Start  func() error\ns.go:9:18: method Start  (in Server)\n"},
		{engine.Answer{Name: engine.StepHover, Hover: "func Add(a, b int) int\n\nAdd adds.\n"}, "func Add(a, b int) int\n\nAdd adds.\n"},
		{engine.Answer{Name: engine.StepCodeActions, Actions: []engine.Action{
			{ID: "ca-1", Title: "Organize imports", Kind: "source.organizeImports", Preferred: true},
			{ID: "ca-2", Title: "Extract function", Kind: "refactor.extract", Disabled: "no selection"},
		}}, "ca-1  Organize imports (source.organizeImports) [preferred]\nca-2  Extract function (refactor.extract) [cannot apply now: no selection]\n"},
		{engine.Answer{Name: engine.StepCodeActions, Applied: "Organize imports"}, "applied \"Organize imports\" to the workspace (written only by a write)\n"},
		{engine.Answer{Name: engine.StepRename}, "renamed in the workspace (written only by a write)\n"},
		{engine.Answer{Name: engine.StepDefinition}, "definition: nothing found\n"},
		{engine.Answer{Name: engine.StepSearch, Files: 1, Omitted: 2, Locations: []engine.Location{
			{Path: "a.go", Line: 3, Column: 6, Text: "func Add(a, b int) int {"},
		}}, "a.go:3:6: func Add(a, b int) int {\n... and 2 more not listed\n(1 file searched)\n"},
		{engine.Answer{Name: engine.StepSearch, Files: 4}, "search: nothing found in 4 files\n"},
		{engine.Answer{Name: engine.StepCodeActions}, "no code actions are offered there\n"},
		{engine.Answer{Name: engine.StepSymbols, ServerLimit: 100, Omitted: 2, Symbols: []engine.Symbol{
			{Name: "Foo1", Kind: "function", Path: "f.go", Line: 3, Column: 6},
		}}, "f.go:3:6: function Foo1\n... and 2 more not listed\nthe language server stopped at 100; more may match: narrow the query\n"},
	} {
		dr := wire.NewDevResult(&engine.Result{OK: true, Answers: []engine.Answer{c.a}}, nil, wire.Options{})
		var b strings.Builder
		dr.Answers[0].WriteText(&b)
		if b.String() != c.want {
			t.Errorf("%s answer:\n%s\nwant:\n%s", c.a.Name, b.String(), c.want)
		}
	}
}
