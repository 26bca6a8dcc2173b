package engine

import (
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

// A search step in a plan sees the plan's own unwritten edit, its answer
// lists the locations and counts the files, and the workspace and the disk
// are left as they were.
func TestSearchStepInAPlan(t *testing.T) {
	e, root := setup(t, map[string]string{
		"a.go":       "package a\n\nfunc Old() {}\n",
		"b.go":       "package a\n\nvar _ = Old\n",
		".gitignore": "gen/\n",
		"gen/g.go":   "package gen // Old\n",
	}, Options{})
	r := run(t, e, `{"paths": ["a.go"], "ops": [
		{"step": "edit", "args": {"path": "a.go", "edits": [{"find": "func Old() {}", "replace": "func New() {}"}]}},
		{"step": "search", "args": {"pattern": "Old"}},
		{"step": "search", "args": {"pattern": "func \\w+\\(", "regex": true, "paths": ["*.go"]}}]}`)
	if !r.OK || len(r.Answers) != 2 {
		t.Fatalf("result %+v", r)
	}
	first := r.Answers[0]
	if first.Step != 2 || first.Name != StepSearch || first.Files != 3 || first.Omitted != 0 || len(first.Locations) != 1 {
		t.Fatalf("first answer %+v", first)
	}
	if l := first.Locations[0]; l.Path != "b.go" || l.Line != 3 || l.Column != 9 || l.EndLine != 3 || l.EndColumn != 12 || l.Text != "var _ = Old" {
		t.Errorf("location %+v", l)
	}
	if l := r.Answers[1].Locations; len(l) != 1 || l[0].Path != "a.go" || l[0].Text != "func New() {}" {
		t.Errorf("regex answer %+v", r.Answers[1])
	}
	if got := readFile(t, root, "a.go"); got != "package a\n\nfunc Old() {}\n" {
		t.Errorf("the disk changed: %q", got)
	}
	if len(r.Changes) != 1 {
		t.Errorf("changes %+v, want a.go's edit alone", r.Changes)
	}
}

func TestSearchStepErrors(t *testing.T) {
	e, _ := setup(t, map[string]string{"a.go": "package a\n"}, Options{})
	wantError(t, run(t, e, `{"paths": [], "ops": [{"step": "search", "args": {"pattern": ""}}]}`), fault.BadArgument, "pattern is required")
	wantError(t, run(t, e, `{"paths": [], "ops": [{"step": "search", "args": {"pattern": "(", "regex": true}}]}`), fault.BadArgument, "missing closing )", "RE2")
	wantError(t, run(t, e, `{"paths": [], "ops": [{"step": "search", "args": {"pattern": "x", "paths": ["nope/**"]}}]}`), fault.NotFound, `"nope/**" matches no file`)
}
