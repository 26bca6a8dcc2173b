package engine

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// langCaps is a scripted language server for the engine's side of the
// language steps: it records each query and answers from its fields. The
// real servers are tested in lsp/, capabilities/lspdriver and through MCP.
type langCaps struct {
	outline []Symbol
	locs    []Location
	edits   map[string]string
	bases   map[string]string
	renames []FileRename
	actions []Action
	none    bool   // no driver answers
	refuse  string // the driver declines the request, saying why
	omitted int    // the further locations the driver left out
	queries []Query
	kinds   []Kind              // the kind of each request
	seen    []map[string]string // the content each request was given
}

func (c *langCaps) Has(Kind) bool { return true }

func (c *langCaps) Run(_ context.Context, req Request) (*Response, error) {
	c.queries = append(c.queries, *req.Query)
	c.kinds = append(c.kinds, req.Kind)
	files := map[string]string{}
	for p, d := range req.Files {
		files[p] = d.String()
	}
	c.seen = append(c.seen, files)
	if c.none {
		return &Response{Output: Output{Diagnostics: []Diagnostic{{Message: "no definition driver for shell files"}}}}, nil
	}
	resp := &Response{Drivers: []DriverStatus{{Driver: "fake", Status: StatusOK}}}
	if c.refuse != "" && req.Kind != Symbols {
		resp.Drivers[0].Status, resp.Drivers[0].Message = StatusUnchecked, c.refuse
		return resp, nil
	}
	switch req.Kind {
	case Symbols:
		resp.Symbols = c.outline
	case Definition, References:
		resp.Locations, resp.Omitted = slices.Clone(c.locs), c.omitted
	case Rename, CodeActions:
		if req.Kind == CodeActions && req.Query.Apply == nil {
			resp.Actions = c.actions
			break
		}
		resp.Edits = map[string]*text.Doc{}
		for p, s := range c.edits {
			d, err := text.Parse([]byte(s))
			if err != nil {
				return nil, err
			}
			resp.Edits[p] = d
		}
		resp.Bases, resp.Renames = c.bases, c.renames
	}
	return resp, nil
}

func langPlan(t *testing.T, e *Engine, src string) *Result {
	t.Helper()
	return e.Run(context.Background(), plan(t, src))
}

// A symbol is looked up in the file's outline: a method by its dotted
// path, whatever decoration the server gives the receiver; an ambiguous
// name lists the candidates with their lines; a missing one names what
// the outline has.
func TestSymbolResolves(t *testing.T) {
	caps := &langCaps{outline: []Symbol{
		{Name: "Server", Kind: "struct", Path: "a.go", Line: 3, Column: 6},
		{Name: "(*Server).Start", Kind: "method", Path: "a.go", Line: 5, Column: 19},
		{Name: "(*Client).Start", Kind: "method", Path: "a.go", Line: 9, Column: 19},
	}}
	e, _ := setup(t, map[string]string{"a.go": "package a\n"}, Options{Capabilities: caps})
	r := langPlan(t, e, `{"ops": [{"step": "definition", "args": {"path": "a.go", "symbol": "Server.Start"}}]}`)
	if !r.OK || len(r.Answers) != 1 || r.Answers[0].Step != 1 || r.Answers[0].Name != StepDefinition {
		t.Fatalf("definition: %+v", r)
	}
	if q := caps.queries[len(caps.queries)-1]; q.Line != 5 || q.Column != 19 || q.Path != "a.go" {
		t.Errorf("definition asked at %+v, want a.go:5:19", q)
	}
	r = langPlan(t, e, `{"ops": [{"step": "hover", "args": {"path": "a.go", "symbol": "Start"}}]}`)
	wantError(t, r, fault.Ambiguous, "(*Server).Start (method, line 5)", "(*Client).Start (method, line 9)")
	r = langPlan(t, e, `{"ops": [{"step": "hover", "args": {"path": "a.go", "symbol": "Stop"}}]}`)
	wantError(t, r, fault.NotFound, `no symbol "Stop"`, "Server, (*Server).Start")
}

// A symbol's lookup in an outline is asked of the server once per content
// of the file: the same content takes the position from the outline it
// got (with the same driver statuses), and a file changed since, in the
// workspace or on disk, is asked again and resolves in its new outline.
func TestSymbolOutlineFollowsContent(t *testing.T) {
	caps := &langCaps{outline: []Symbol{{Name: "F", Kind: "function", Path: "a.go", Line: 3, Column: 6}}}
	e, root := setup(t, map[string]string{"a.go": "package a\n\nfunc F() {}\n"}, Options{Capabilities: caps})
	refs := `{"ops": [{"step": "references", "args": {"path": "a.go", "symbol": "F"}}]}`
	at := func(r *Result, what string, line, outlines int) {
		t.Helper()
		if !r.OK || len(r.Drivers) != 1 || r.Drivers[0].Driver != "fake" {
			t.Fatalf("%s: %+v (%+v)", what, r, r.Error)
		}
		if q := caps.queries[len(caps.queries)-1]; q.Line != line || q.Column != 6 {
			t.Errorf("%s: references asked at %d:%d, want %d:6", what, q.Line, q.Column, line)
		}
		if n := strings.Count(fmt.Sprint(caps.kinds), string(Symbols)); n != outlines {
			t.Errorf("%s: %d outlines asked, want %d", what, n, outlines)
		}
	}
	at(langPlan(t, e, refs), "first", 3, 1)
	at(langPlan(t, e, refs), "same content", 3, 1)

	caps.outline = []Symbol{{Name: "F", Kind: "function", Path: "a.go", Line: 4, Column: 6}}
	at(langPlan(t, e, `{"paths": ["a.go"], "ops": [
		{"step": "edit", "args": {"path": "a.go", "edits": [{"find": "func F() {}", "replace": "\nfunc F() {}"}]}},
		{"step": "references", "args": {"path": "a.go", "symbol": "F"}}]}`), "edited", 4, 2)
	at(langPlan(t, e, refs), "edited, same content", 4, 2)

	e.Workspace().Discard(nil)
	caps.outline = []Symbol{{Name: "F", Kind: "function", Path: "a.go", Line: 5, Column: 6}}
	testtree.Put(t, root, "a.go", "package a\n\n\n\nfunc F() {}\n")
	at(langPlan(t, e, refs), "changed on disk", 5, 3)
}

// A symbol on a line is its first whole-word occurrence there, its
// column counted in characters; a name not on the line says what the
// line reads.
func TestSymbolOnLine(t *testing.T) {
	caps := &langCaps{}
	e, _ := setup(t, map[string]string{"a.go": "package a\n\nvar ééx, x = 1, 2 // x\n"}, Options{Capabilities: caps})
	r := langPlan(t, e, `{"ops": [{"step": "references", "args": {"path": "a.go", "symbol": "x", "line": 3, "include_declaration": true}}]}`)
	if !r.OK {
		t.Fatalf("references: %+v", r.Error)
	}
	if q := caps.queries[0]; q.Line != 3 || q.Column != 10 || !q.IncludeDeclaration {
		t.Errorf("references asked at %+v, want line 3 column 10 (after the characters of ééx, )", q)
	}
	r = langPlan(t, e, `{"ops": [{"step": "references", "args": {"path": "a.go", "symbol": "y", "line": 3}}]}`)
	wantError(t, r, fault.NotFound, `"y" is not on line 3 of a.go, which reads: var ééx`)
	r = langPlan(t, e, `{"ops": [{"step": "references", "args": {"path": "a.go", "line": 9, "column": 1}}]}`)
	wantError(t, r, fault.Bounds, "line 9 is past the end of a.go, which has 3 lines")
}

// Locations come back sorted, without repeats, capped with a count of
// the rest.
func TestLocationsSortedAndCapped(t *testing.T) {
	var locs []Location
	for i := MaxLocations + 5; i > 0; i-- {
		locs = append(locs, Location{Path: "b.go", Line: i, Column: 1})
	}
	locs = append(locs, Location{Path: "a.go", Line: 2, Column: 1}, Location{Path: "a.go", Line: 2, Column: 1})
	caps := &langCaps{locs: locs}
	e, _ := setup(t, map[string]string{"a.go": "package a\n"}, Options{Capabilities: caps})
	r := langPlan(t, e, `{"ops": [{"step": "references", "args": {"path": "a.go", "line": 1, "column": 9}}]}`)
	a := r.Answers[0]
	if len(a.Locations) != MaxLocations || a.Omitted != 6 || a.Locations[0].Path != "a.go" || a.Locations[1].Line != 1 || a.Locations[2].Line != 2 {
		t.Fatalf("got %d locations, omitted %d, first %+v", len(a.Locations), a.Omitted, a.Locations[:3])
	}
}

// A capability that lists the first locations only and counts the rest
// (Response.Omitted) gets the same answer as one that lists them all: the
// engine lists what it is given, in its order, and adds the count.
func TestLocationsOmittedByCapability(t *testing.T) {
	var locs []Location
	for i := MaxLocations; i > 0; i-- {
		locs = append(locs, Location{Path: "b.go", Line: i, Column: 1})
	}
	caps := &langCaps{locs: locs, omitted: 121}
	e, _ := setup(t, map[string]string{"a.go": "package a\n"}, Options{Capabilities: caps})
	r := langPlan(t, e, `{"ops": [{"step": "references", "args": {"path": "a.go", "line": 1, "column": 9}}]}`)
	a := r.Answers[0]
	if len(a.Locations) != MaxLocations || a.Omitted != 121 || a.Locations[0].Line != 1 {
		t.Fatalf("got %d locations, omitted %d, first %+v", len(a.Locations), a.Omitted, a.Locations[0])
	}
}

// A language step no driver answers for is unavailable, with the reason.
func TestLanguageStepUnavailable(t *testing.T) {
	e, _ := setup(t, map[string]string{"s.sh": "echo\n"}, Options{Capabilities: &langCaps{none: true}})
	r := langPlan(t, e, `{"ops": [{"step": "definition", "args": {"path": "s.sh", "line": 1, "column": 1}}]}`)
	wantError(t, r, fault.Unavailable, "definition is not available for s.sh: no definition driver for shell files")
}

// A rename changes the workspace, all or nothing, and never the disk: it
// edits files the plan did not acquire (checked against the content the
// server changed) and moves files; a later write writes it.
func TestRenameChangesTheWorkspaceOnly(t *testing.T) {
	files := map[string]string{"a.go": "package a\n\nfunc F() {}\n", "b/b.go": "package b\n\nvar _ = a.F\n"}
	caps := &langCaps{
		edits:   map[string]string{"a.go": "package a\n\nfunc G() {}\n", "b/b.go": "package b\n\nvar _ = a.G\n"},
		bases:   map[string]string{"b/b.go": text.Revision([]byte(files["b/b.go"]))},
		renames: []FileRename{{From: "b/b.go", To: "b/c.go"}},
	}
	e, root := setup(t, files, Options{Capabilities: caps})
	r := langPlan(t, e, `{"ops": [{"step": "rename", "args": {"path": "a.go", "line": 3, "column": 6, "new_name": "G"}}]}`)
	if !r.OK || len(r.Changes) != 2 {
		t.Fatalf("rename: %+v", r)
	}
	if readFile(t, root, "a.go") != files["a.go"] || readFile(t, root, "b/b.go") != files["b/b.go"] {
		t.Fatal("rename touched the disk")
	}
	if q := caps.queries[0]; q.NewName != "G" {
		t.Errorf("rename asked %+v", q)
	}
	r = langPlan(t, e, `{"ops": [{"step": "write"}]}`)
	if !r.OK || readFile(t, root, "b/c.go") != "package b\n\nvar _ = a.G\n" || readFile(t, root, "a.go") != caps.edits["a.go"] {
		t.Fatalf("write after rename: %+v", r)
	}

	// The server's edit of a file it read before the disk changed is
	// refused, and nothing changes.
	e, root = setup(t, files, Options{Capabilities: caps})
	caps.bases = map[string]string{"b/b.go": text.Revision([]byte("older\n"))}
	r = langPlan(t, e, `{"ops": [{"step": "rename", "args": {"path": "a.go", "line": 3, "column": 6, "new_name": "G"}}]}`)
	wantError(t, r, fault.Conflict, "b/b.go changed on disk while the language server computed the change")
	if e.Workspace().Dirty() || readFile(t, root, "a.go") != files["a.go"] {
		t.Fatal("a refused rename changed something")
	}
}

// code_actions lists actions with ids that the same listing gives again;
// apply applies the listed one to the workspace, and refuses an unknown
// id or one listed for content that has changed since.
func TestCodeActionsListAndApply(t *testing.T) {
	caps := &langCaps{
		actions: []Action{{Title: "Extract function", Kind: "refactor.extract", Data: []byte("x")}, {Title: "Inline", Kind: "refactor.inline"}},
		edits:   map[string]string{"a.go": "package a\n\nfunc f() { g() }\n"},
	}
	e, root := setup(t, map[string]string{"a.go": "package a\n\nfunc f() { x := 1 }\n"}, Options{Capabilities: caps})
	list := `{"ops": [{"step": "code_actions", "args": {"path": "a.go", "line": 3}}]}`
	r := langPlan(t, e, list)
	if !r.OK || len(r.Answers[0].Actions) != 2 {
		t.Fatalf("list: %+v", r)
	}
	acts := r.Answers[0].Actions
	if !strings.HasPrefix(acts[0].ID, "ca-") || acts[0].ID == acts[1].ID || acts[0].Data != nil {
		t.Fatalf("ids: %+v", acts)
	}
	if again := langPlan(t, e, list).Answers[0].Actions; again[0].ID != acts[0].ID {
		t.Errorf("the same listing gave id %s, then %s", acts[0].ID, again[0].ID)
	}
	r = langPlan(t, e, `{"ops": [{"step": "code_actions", "args": {"apply": "ca-nope"}}]}`)
	wantError(t, r, fault.NotFound, `no code action "ca-nope" was listed`)
	r = langPlan(t, e, `{"ops": [{"step": "code_actions", "args": {"apply": "`+acts[0].ID+`"}}]}`)
	if !r.OK || r.Answers[0].Applied != "Extract function" || len(r.Changes) != 1 {
		t.Fatalf("apply: %+v", r)
	}
	if q := caps.queries[len(caps.queries)-1]; q.Apply == nil || string(q.Apply.Data) != "x" || q.Line != 3 || q.Column != 1 {
		t.Errorf("apply asked %+v", q)
	}
	if readFile(t, root, "a.go") != "package a\n\nfunc f() { x := 1 }\n" {
		t.Error("apply wrote to disk")
	}
	// The file changed since the listing: its ids no longer apply.
	r = langPlan(t, e, `{"ops": [{"step": "code_actions", "args": {"apply": "`+acts[1].ID+`"}}]}`)
	wantError(t, r, fault.Conflict, "a.go changed since code action")
}

// The arguments' rules: what points at code, and code_actions' two forms.
func TestLanguageArgs(t *testing.T) {
	for src, want := range map[string]string{
		`{"step": "definition", "args": {"path": "a.go"}}`:                                   "give symbol",
		`{"step": "definition", "args": {"path": "a.go", "line": 2}}`:                        "line needs column",
		`{"step": "definition", "args": {"path": "a.go", "column": 2}}`:                      "column needs line",
		`{"step": "hover", "args": {"path": "a.go", "symbol": "F", "line": 1, "column": 1}}`: "not symbol and column",
		`{"step": "rename", "args": {"path": "a.go", "symbol": "F"}}`:                        "new_name is required",
		`{"step": "symbols", "args": {}}`:                                                    "give path for a file's outline, or query",
		`{"step": "symbols", "args": {"path": "a.go", "query": "F"}}`:                        "not both",
		`{"step": "code_actions", "args": {"apply": "ca-1", "path": "a.go"}}`:                "apply takes only the action's id",
		`{"step": "code_actions", "args": {"path": "a.go", "line": 3, "end_line": 2}}`:       "end_line 2 is before line 3",
	} {
		e, _ := setup(t, map[string]string{"a.go": "package a\n"}, Options{Capabilities: &langCaps{}})
		r := langPlan(t, e, `{"ops": [`+src+`]}`)
		wantError(t, r, fault.BadArgument, want)
	}
}

// A plan that asks one driver several times reports each distinct status
// of it once.
func TestDriverStatusesOnce(t *testing.T) {
	caps := &langCaps{outline: []Symbol{{Name: "F", Kind: "function", Path: "a.go", Line: 1, Column: 6}}}
	e, _ := setup(t, map[string]string{"a.go": "package a\n"}, Options{Capabilities: caps})
	r := langPlan(t, e, `{"ops": [{"step": "hover", "args": {"path": "a.go", "symbol": "F"}}, {"step": "symbols", "args": {"path": "a.go"}}]}`)
	if !r.OK || len(r.Drivers) != 1 || len(caps.queries) != 3 {
		t.Fatalf("three requests gave drivers %+v", r.Drivers)
	}
}

// A file changed on disk by someone else between a listing and an apply
// (the session held it with no unwritten change) is caught: the ids of
// the old content no longer apply, and the workspace follows the disk.
func TestCodeActionApplyAfterDiskChange(t *testing.T) {
	caps := &langCaps{
		actions: []Action{{Title: "Inline", Kind: "refactor.inline", Data: []byte("x")}},
		edits:   map[string]string{"a.go": "package a\n\nfunc f() { g() }\n"},
	}
	e, root := setup(t, map[string]string{"a.go": "package a\n\nfunc f() { x := 1 }\n"}, Options{Capabilities: caps})
	r := langPlan(t, e, `{"ops": [{"step": "code_actions", "args": {"path": "a.go", "line": 3}}]}`)
	if !r.OK || len(r.Answers[0].Actions) != 1 {
		t.Fatalf("list: %+v", r)
	}
	testtree.Write(t, root, map[string]string{"a.go": "package a\n\nfunc f() { y := 2 }\n"})
	r = langPlan(t, e, `{"ops": [{"step": "code_actions", "args": {"apply": "`+r.Answers[0].Actions[0].ID+`"}}]}`)
	wantError(t, r, fault.Conflict, "a.go changed since code action")
	if len(r.Changes) != 0 {
		t.Errorf("a refused apply changed the workspace: %+v", r.Changes)
	}
}

// A rename at a line and column follows the disk first: the position is
// read in the file as the disk now holds it.
func TestRenameFollowsDiskBeforeResolving(t *testing.T) {
	caps := &langCaps{edits: map[string]string{"a.go": "package a\n\nvar Long, B = 1, 2\n"}}
	e, root := setup(t, map[string]string{"a.go": "package a\n\nvar A = 1\n"}, Options{Capabilities: caps})
	if r := langPlan(t, e, `{"paths": ["a.go"], "ops": []}`); !r.OK {
		t.Fatalf("acquire: %+v", r)
	}
	testtree.Write(t, root, map[string]string{"a.go": "package a\n\nvar Long, B = 1, 2\n"})
	r := langPlan(t, e, `{"ops": [{"step": "rename", "args": {"path": "a.go", "line": 3, "symbol": "B", "new_name": "C"}}]}`)
	if len(caps.queries) == 0 {
		t.Fatalf("rename asked nothing: %+v", r.Error)
	}
	if q := caps.queries[len(caps.queries)-1]; q.Line != 3 || q.Column != 11 {
		t.Errorf("rename asked at %d:%d, want 3:11 in the disk's new content (%+v)", q.Line, q.Column, r)
	}
}

// A server that declines a rename (a name that conflicts, a place with
// nothing to rename) answered: the step fails as a bad argument that
// gives the server's reason and changes nothing, not as an incomplete
// answer that asks to install the server.
func TestRenameDeclined(t *testing.T) {
	caps := &langCaps{refuse: `renaming this func "Hi" to "Bye" conflicts with func in same block: cannot rename`}
	e, _ := setup(t, map[string]string{"a.go": "package a\n\nfunc Hi() {}\n"}, Options{Capabilities: caps})
	r := langPlan(t, e, `{"ops": [{"step": "rename", "args": {"path": "a.go", "line": 3, "column": 6, "new_name": "Bye"}}, {"step": "write"}]}`)
	wantError(t, r, fault.BadArgument, "conflicts with func in same block")
	if strings.Contains(r.Error.Message, "install") || len(r.Changes) != 0 || len(r.Written) != 0 {
		t.Errorf("a declined rename: %+v", r.Error)
	}
}

// A column past the end of its line is an error that says how long the
// line is, not a question about the line's end.
func TestColumnPastLineEnd(t *testing.T) {
	caps := &langCaps{}
	e, _ := setup(t, map[string]string{"a.go": "package a\n\nvar é = 1\n"}, Options{Capabilities: caps})
	r := langPlan(t, e, `{"ops": [{"step": "definition", "args": {"path": "a.go", "line": 3, "column": 11}}]}`)
	wantError(t, r, fault.Bounds, "column 11 is past the end of line 3 of a.go, which has 9 characters")
	if len(caps.queries) != 0 {
		t.Errorf("asked the server %+v", caps.queries)
	}
	if r := langPlan(t, e, `{"ops": [{"step": "definition", "args": {"path": "a.go", "line": 3, "column": 10}}]}`); !r.OK {
		t.Errorf("the column just past the line's last character: %+v", r.Error)
	}
}

// code_actions' range is checked against the file before the server is
// asked: an end_line or a column past the end is a bounds error.
func TestCodeActionsRangeInFile(t *testing.T) {
	for args, want := range map[string]string{
		`"line": 1, "end_line": 9`:                  "line 9 is past the end of a.go",
		`"line": 1, "column": 12`:                   "column 12 is past the end of line 1",
		`"line": 1, "end_line": 2, "end_column": 3`: "column 3 is past the end of line 2",
	} {
		caps := &langCaps{}
		e, _ := setup(t, map[string]string{"a.go": "package a\n\n"}, Options{Capabilities: caps})
		r := langPlan(t, e, `{"ops": [{"step": "code_actions", "args": {"path": "a.go", `+args+`}}]}`)
		wantError(t, r, fault.Bounds, want)
		if len(caps.queries) != 0 {
			t.Errorf("%s: asked the server %+v", args, caps.queries)
		}
	}
}
