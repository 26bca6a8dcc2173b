package editor_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// navigator is a language server's side as the engine sees it, for the
// endpoint's plumbing (the real servers' answers are lsp's and the
// end-to-end tests'): a.txt's outline holds Alpha at 1:1; rename replaces
// "alpha" in a.txt and b.txt and moves b.txt to c.txt; its one code
// action upper-cases a.txt.
type navigator struct{}

func (navigator) Has(k engine.Kind) bool { return slices.Contains(engine.LanguageKinds(), k) }
func (navigator) Run(_ context.Context, req engine.Request) (*engine.Response, error) {
	resp := &engine.Response{Drivers: []engine.DriverStatus{{Driver: "nav", Status: engine.StatusOK}}}
	q := req.Query
	content := func(p string) string {
		if d, ok := req.Files[p]; ok {
			return d.Content()
		}
		b, _ := os.ReadFile(filepath.Join(req.Root, p))
		return string(b)
	}
	switch {
	case req.Kind == engine.Symbols:
		resp.Symbols = []engine.Symbol{{Name: "Alpha", Kind: "function", Path: q.Path, Line: 1, Column: 1, EndLine: 1}}
	case req.Kind == engine.Definition:
		resp.Locations = []engine.Location{{Path: "a.txt", Line: 1, Column: 1, EndLine: 1, EndColumn: 6, Text: strings.SplitN(content("a.txt"), "\n", 2)[0]}}
	case req.Kind == engine.Rename:
		resp.Edits = map[string]*text.Doc{}
		for _, p := range []string{"a.txt", "b.txt"} {
			resp.Edits[p] = text.FromString(strings.ReplaceAll(content(p), "alpha", q.NewName))
		}
		resp.Renames = []engine.FileRename{{From: "b.txt", To: "c.txt"}}
	case q.Apply != nil:
		resp.Edits = map[string]*text.Doc{q.Path: text.FromString(strings.ToUpper(content(q.Path)))}
	default:
		resp.Actions = []engine.Action{{Title: "Upper-case it", Kind: "quickfix", Data: []byte(`{"n":1}`)}}
	}
	return resp, nil
}
func (navigator) Report() *capabilities.Report { return &capabilities.Report{} }
func (navigator) Close() error                 { return nil }

// The language steps run through devbroker/plan: their answers are in the
// result, and a rename's or an applied code action's change comes back as
// the WorkspaceEdit of any other change (a file it moves as a RenameFile),
// made against the editor's buffers; the disk is never written.
func TestLanguageStepsThroughPlan(t *testing.T) {
	disk := map[string]string{"a.txt": "alpha one\n", "b.txt": "alpha two\n"}
	root := testtree.New(t, disk)
	c := startWith(t, root, broker.Options{Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) { return navigator{}, nil }})
	if info := c.init(nil); !slices.Contains(info.Devbroker.Steps, "rename") || !slices.Contains(info.Devbroker.Steps, "code_actions") {
		t.Fatalf("steps %v lack the language steps", info.Devbroker.Steps)
	}
	buf := "alpha one\nunsaved\n"
	c.open("a.txt", buf, 2)

	var r planResult
	c.must("devbroker/plan", map[string]any{"paths": []string{}, "ops": []any{
		map[string]any{"step": "definition", "args": map[string]any{"path": "a.txt", "symbol": "Alpha"}},
	}}, &r)
	if !r.OK || len(r.Answers) != 1 || len(r.Answers[0].Locations) != 1 || r.Answers[0].Locations[0].At != "a.txt:1:1" || r.Answers[0].Locations[0].Text != "alpha one" {
		t.Fatalf("definition: ok %v answers %+v error %+v", r.OK, r.Answers, r.Error)
	}

	r = planResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{}, "ops": []any{
		map[string]any{"step": "rename", "args": map[string]any{"path": "a.txt", "symbol": "Alpha", "new_name": "omega"}},
	}}, &r)
	if !r.OK || len(r.Answers) != 1 || r.Answers[0].Name != "rename" {
		t.Fatalf("rename: ok %v answers %+v error %+v", r.OK, r.Answers, r.Error)
	}
	kinds := changeKinds(t, r.Edit)
	if !slices.Equal(kinds, []string{"rename", "", ""}) {
		t.Errorf("rename's documentChanges kinds = %q, want a RenameFile, then two text edits", kinds)
	}
	view := c.applyWorkspaceEdit(map[string]string{"a.txt": buf, "b.txt": disk["b.txt"]}, r.Edit)
	if want := map[string]string{"a.txt": "omega one\nunsaved\n", "c.txt": "omega two\n"}; len(view) != 2 || view["a.txt"] != want["a.txt"] || view["c.txt"] != want["c.txt"] {
		t.Fatalf("the editor's files after rename's edit = %q, want %q", view, want)
	}
	if d := testtree.Read(t, root); len(d) != 2 || d["a.txt"] != disk["a.txt"] || d["b.txt"] != disk["b.txt"] {
		t.Fatalf("rename wrote the disk: %v", d)
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri("a.txt"), "version": 3}, "contentChanges": []any{map[string]any{"text": view["a.txt"]}}})

	// A code action listed in one plan is applied by its id in the next.
	r = planResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{}, "ops": []any{
		map[string]any{"step": "code_actions", "args": map[string]any{"path": "a.txt", "line": 1}},
	}}, &r)
	if !r.OK || len(r.Answers) != 1 || len(r.Answers[0].Actions) != 1 || len(r.Edit) > 0 && len(changeKinds(t, r.Edit)) > 0 {
		t.Fatalf("code_actions list: ok %v answers %+v edit %s error %+v", r.OK, r.Answers, r.Edit, r.Error)
	}
	id := r.Answers[0].Actions[0].ID
	r = planResult{}
	c.must("devbroker/plan", map[string]any{"paths": []string{}, "ops": []any{
		map[string]any{"step": "code_actions", "args": map[string]any{"apply": id}},
	}}, &r)
	if !r.OK || len(r.Answers) != 1 || r.Answers[0].Applied != "Upper-case it" {
		t.Fatalf("code_actions apply %s: ok %v answers %+v error %+v", id, r.OK, r.Answers, r.Error)
	}
	if got := c.applyWorkspaceEdit(view, r.Edit); got["a.txt"] != "OMEGA ONE\nUNSAVED\n" || got["c.txt"] != view["c.txt"] {
		t.Fatalf("the editor's files after the action's edit = %q", got)
	}
	if d := testtree.Read(t, root); len(d) != 2 || d["a.txt"] != disk["a.txt"] {
		t.Fatalf("the code action wrote the disk: %v", d)
	}
}

// On gopls, a rename across two packages through devbroker/plan renames the
// unsaved buffer's code (the server sees the buffers) and comes back as
// the edit to apply; the disk is untouched.
func TestRenameThroughPlanOnGopls(t *testing.T) {
	disk := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\n// Add adds.\nfunc Add(x, y int) int { return x + y }\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nfunc Sum(x, y int) int { return a.Add(x, y) }\n",
	}
	root := testtree.New(t, disk)
	c := startWith(t, root, broker.Options{Load: realDrivers})
	c.init(nil)
	buf := strings.Replace(disk["b/b.go"], "return a.Add(x, y)", "return a.Add(y, x) + a.Add(x, 1)", 1) // unsaved
	c.open("b/b.go", buf, 7)

	var r planResult
	c.must("devbroker/plan", map[string]any{"paths": []string{}, "ops": []any{
		map[string]any{"step": "rename", "args": map[string]any{"path": "a/a.go", "symbol": "Add", "new_name": "Plus"}},
	}}, &r)
	if !r.OK {
		t.Fatalf("rename: %+v", r.Error)
	}
	view := c.applyWorkspaceEdit(map[string]string{"a/a.go": disk["a/a.go"], "b/b.go": buf}, r.Edit)
	if want := strings.ReplaceAll(buf, "a.Add(", "a.Plus("); view["b/b.go"] != want || !strings.Contains(view["a/a.go"], "func Plus(x, y int) int") {
		t.Fatalf("the editor's files after the edit: %q, want b/b.go %q", view, want)
	}
	if d := testtree.Read(t, root); d["a/a.go"] != disk["a/a.go"] || d["b/b.go"] != disk["b/b.go"] {
		t.Fatalf("rename wrote the disk: %v", d)
	}
}
