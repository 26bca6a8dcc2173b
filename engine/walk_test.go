package engine

import (
	"context"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/workspace"
)

// ignoredTree has files .gitignore files ignore: the root's, a nested one,
// .git/info/exclude, and a deeper one that re-includes.
var ignoredTree = map[string]string{
	".gitignore":              "node_modules/\n*.gen.go\n",
	".git/info/exclude":       "/scratch/\n",
	"sub/.gitignore":          "local/\n",
	"keep/.gitignore":         "!*.gen.go\n",
	"a.go":                    "package a\n",
	"x.gen.go":                "package a\n",
	"keep/y.gen.go":           "package keep\n",
	"node_modules/p/i.go":     "package p\n",
	"web/node_modules/q/j.go": "package q\n",
	"sub/b.go":                "package sub\n",
	"sub/local/c.go":          "package local\n",
	"scratch/d.go":            "package scratch\n",
}

// A walk passes over what .gitignore files ignore, as git does, below
// what a selector names: a path named is kept, a directory named is
// walked, and a glob passes over the ignored directories it does not
// start in. A step without paths walks the same way.
func TestSelectHonoursGitignore(t *testing.T) {
	caps := &rootCaps{ext: ".go"}
	e, _ := setup(t, ignoredTree, Options{Capabilities: caps})
	kept := []string{"a.go", "keep/y.gen.go", "sub/b.go"}
	for _, c := range []struct {
		selectors []string
		want      []string
	}{
		{nil, kept},
		{[]string{"."}, kept},
		{[]string{"**/*.go"}, kept},
		{[]string{"node_modules"}, []string{"node_modules/p/i.go"}},
		{[]string{"node_modules/**"}, []string{"node_modules/p/i.go"}},
		{[]string{"x.gen.go", "sub/local/c.go"}, []string{"sub/local/c.go", "x.gen.go"}},
		{[]string{"sub"}, []string{"sub/b.go"}},
		{[]string{"sub/local"}, []string{"sub/local/c.go"}},
	} {
		got, err := SelectFiles(e.FS(), caps.Covers, c.selectors)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("SelectFiles(%q) = %v, %v; want %v", c.selectors, got, err, c.want)
		}
	}
	r := run(t, e, `{"paths": [], "ops": [{"step": "check"}]}`)
	if !r.OK || !slices.Equal(targets(caps.reqs[0]), kept) {
		t.Fatalf("check without paths: ok %v, worked on %v, want %v", r.OK, targets(caps.reqs[0]), kept)
	}
	// The workspace's .gitignore, unwritten, is the one the walk reads.
	r = run(t, e, `{"paths": [".gitignore"], "ops": [{"step": "edit", "args": {"path": ".gitignore", "edits": [{"find": "*.gen.go", "replace": "sub/"}]}}]}`)
	if !r.OK {
		t.Fatalf("edit .gitignore: %+v", r.Error)
	}
	caps.reqs = nil
	if r = run(t, e, `{"paths": [], "ops": [{"step": "check"}]}`); !r.OK {
		t.Fatalf("check without paths: %+v", r.Error)
	}
	// x.gen.go is no longer ignored; sub/ is, but sub/b.go stays: the
	// workspace holds it, and a step works on what the workspace holds.
	if got, want := targets(caps.reqs[0]), []string{".gitignore", "a.go", "keep/y.gen.go", "sub/b.go", "x.gen.go"}; !slices.Equal(got, want) {
		t.Errorf("check without paths after .gitignore changed in the workspace: worked on %v, want %v", got, want)
	}
	e2, _ := setup(t, ignoredTree, Options{Capabilities: caps})
	run(t, e2, `{"paths": [".gitignore"], "ops": [{"step": "edit", "args": {"path": ".gitignore", "edits": [{"find": "*.gen.go", "replace": "sub/"}]}}]}`)
	caps.reqs = nil
	if r = run(t, e2, `{"paths": [], "ops": [{"step": "check"}]}`); !r.OK {
		t.Fatalf("check without paths: %+v", r.Error)
	}
	if got, want := targets(caps.reqs[0]), []string{".gitignore", "a.go", "keep/y.gen.go", "x.gen.go"}; !slices.Equal(got, want) {
		t.Errorf("check without paths, a fresh workspace whose .gitignore ignores sub/: worked on %v, want %v", got, want)
	}
}

// A file a walk meets that the workspace cannot hold by itself (over the
// per-file limit, not text) is skipped and named in a note, and the answer
// is about the rest; named, it still fails the step.
func TestWalkSkipsFilesTheWorkspaceCannotHold(t *testing.T) {
	files := map[string]string{
		"a.go":   "package a\n",
		"big.go": "package a\n\n// " + strings.Repeat("x", 200) + "\n",
		"bin.go": "package a\x00\n",
	}
	lim := workspace.Limits{MaxFileBytes: 100}
	caps := &rootCaps{ext: ".go"}
	e, _ := setup(t, files, Options{Capabilities: caps, Limits: lim})
	r := run(t, e, `{"paths": [], "ops": [{"step": "check"}]}`)
	if !r.OK || !slices.Equal(targets(caps.reqs[0]), []string{"a.go"}) {
		t.Fatalf("check without paths: ok %v (%+v), worked on %v; want ok, a.go", r.OK, r.Error, targets(caps.reqs[0]))
	}
	note := findNote(t, r, NoteSkipped)
	if note.Files != 2 || !slices.Equal(note.Paths, []string{"big.go", "bin.go"}) ||
		!strings.Contains(note.Message, fmt.Sprintf("big.go: %d bytes, over the per-file limit of 100 bytes (limits.max_file_bytes)", len(files["big.go"]))) ||
		!strings.Contains(note.Message, "bin.go: not a text file") || !strings.HasPrefix(note.String(), "coverage: 2 files a walk met skipped") {
		t.Errorf("skipped note: %+v", note)
	}

	// The command line's plan: what its walk swept in is skipped alike.
	caps.reqs = nil
	e2, _ := setup(t, files, Options{Capabilities: caps, Limits: lim})
	r = e2.Run(context.Background(), &Plan{Paths: []string{"a.go", "big.go", "bin.go"}, Swept: []string{"big.go", "bin.go"}, Ops: []Op{{Step: StepCheck}}})
	if !r.OK || !slices.Equal(targets(caps.reqs[0]), []string{"a.go"}) || findNote(t, r, NoteSkipped).Files != 2 {
		t.Fatalf("a plan whose walk swept in big.go: ok %v (%+v), coverage %+v", r.OK, r.Error, r.Coverage)
	}
	// Named, each fails the acquisition, and nothing is held.
	e3, _ := setup(t, files, Options{Capabilities: caps, Limits: lim})
	wantError(t, run(t, e3, `{"paths": ["a.go", "big.go"], "ops": [{"step": "check"}]}`), fault.Bounds, "limits.max_file_bytes")
	wantError(t, run(t, e3, `{"paths": ["bin.go"], "ops": [{"step": "check"}]}`), fault.BadArgument, "not a text file")
	if e3.Workspace().Len() != 0 {
		t.Errorf("a failed acquisition left %d files in the workspace", e3.Workspace().Len())
	}
}

// scopeCaps is rootCaps with a project scope: files under tests/ are
// outside it, and its project file warns.
type scopeCaps struct {
	rootCaps
	kinds []Kind
}

func (c *scopeCaps) Scope(kind Kind) (func(string) (Scope, bool), func() []Note) {
	c.kinds = append(c.kinds, kind)
	out := func(p string) (Scope, bool) {
		if strings.HasPrefix(p, "tests/") {
			return Scope{Language: "go", Driver: "fake", Config: `proj.toml include = ["src"]`}, true
		}
		return Scope{}, false
	}
	warn := func() []Note {
		return []Note{{Kind: NoteConfig, Driver: "fake", Message: "warning: proj.toml: line 3: an unknown key"}}
	}
	return out, warn
}

// A step without paths passes over the files the project's own scope
// leaves out, and says how many, why and that naming one checks it; the
// files the workspace holds that it did not change are passed over alike,
// a changed one is worked on, and a named one is.
func TestNoPathsHonourTheProjectScope(t *testing.T) {
	caps := &scopeCaps{rootCaps: rootCaps{ext: ".go"}}
	files := map[string]string{"src/a.go": "package a\n", "tests/x.go": "package t\n", "tests/y.go": "package t\n"}
	e, _ := setup(t, files, Options{Capabilities: caps})
	r := run(t, e, `{"paths": [], "ops": [{"step": "lint"}]}`)
	if !r.OK || !slices.Equal(targets(caps.reqs[0]), []string{"src/a.go"}) || !slices.Equal(caps.kinds, []Kind{Lint}) {
		t.Fatalf("lint without paths: ok %v, worked on %v, scope asked for %v", r.OK, targets(caps.reqs[0]), caps.kinds)
	}
	note := findNote(t, r, NoteOutOfScope)
	want := `2 go files outside the project's own scope for fake, passed over by the walk of the root (tests/x.go, tests/y.go): proj.toml include = ["src"]; name a file to look at it anyway`
	if note.Files != 2 || note.Language != "go" || note.Driver != "fake" || note.Message != want {
		t.Errorf("out_of_scope note %+v, want the message %q", note, want)
	}
	if w := findNote(t, r, NoteConfig); w.Driver != "fake" || !strings.Contains(w.Message, "proj.toml: line 3") {
		t.Errorf("the project file's warning: %+v", w)
	}

	// Held (read by an earlier plan), tests/x.go stays out; changed,
	// tests/y.go is worked on.
	run(t, e, `{"paths": ["tests/x.go"], "ops": [{"step": "read_lines", "args": {"path": "tests/x.go", "start": 1}}]}`)
	run(t, e, `{"paths": ["tests/y.go"], "ops": [{"step": "edit", "args": {"path": "tests/y.go", "edits": [{"find": "package t", "replace": "package tt"}]}}]}`)
	caps.reqs = nil
	r = run(t, e, `{"paths": [], "ops": [{"step": "check"}]}`)
	if !r.OK || !slices.Equal(targets(caps.reqs[0]), []string{"src/a.go", "tests/y.go"}) {
		t.Fatalf("check without paths: ok %v, worked on %v; want src/a.go and the changed tests/y.go", r.OK, targets(caps.reqs[0]))
	}
	if n := findNote(t, r, NoteOutOfScope); n.Files != 1 || !slices.Equal(n.Paths, []string{"tests/x.go"}) {
		t.Errorf("out_of_scope note after the edit: %+v", n)
	}

	// A plan that names paths, and the command line's walk of a
	// directory, are not narrowed.
	caps.reqs = nil
	if r = run(t, e, `{"paths": ["tests/x.go"], "ops": [{"step": "check"}]}`); !r.OK || !slices.Contains(targets(caps.reqs[0]), "tests/x.go") {
		t.Fatalf("check of tests/x.go: ok %v, worked on %v", r.OK, targets(caps.reqs[0]))
	}
	scope, _ := caps.Scope(Check)
	for _, sel := range [][]string{{"tests"}, {"tests/*.go"}, {"tests/x.go"}, {"**"}} {
		s, err := Select(e.FS(), Walk{Covers: caps.Covers, Scope: scope}, sel)
		if err != nil || len(s.Paths) == 0 || len(s.Notes) != 0 {
			t.Errorf("Select(%q) = %v, notes %v, %v: want the files it names, no note", sel, s.Paths, s.Notes, err)
		}
	}
	s, _ := Select(e.FS(), Walk{Covers: caps.Covers, Scope: scope}, nil)
	if !slices.Equal(s.Paths, []string{"src/a.go"}) || len(s.Notes) != 1 || s.Notes[0].Files != 2 {
		t.Errorf("Select of the whole root = %v, notes %+v", s.Paths, s.Notes)
	}
	s, _ = Select(e.FS(), Walk{Covers: caps.Covers, Scope: scope}, []string{".", "tests/y.go"})
	if !slices.Equal(s.Paths, []string{"src/a.go", "tests/y.go"}) || len(s.Notes) != 1 || !slices.Equal(s.Notes[0].Paths, []string{"tests/x.go"}) {
		t.Errorf("Select of the whole root and tests/y.go = %v, notes %+v", s.Paths, s.Notes)
	}
}

// A root all of whose files the project's scope leaves out is an answer
// about no file, not ok, and the note says why.
func TestNoPathsAllOutOfScope(t *testing.T) {
	caps := &scopeCaps{rootCaps: rootCaps{ext: ".go"}}
	e, _ := setup(t, map[string]string{"tests/x.go": "package t\n"}, Options{Capabilities: caps})
	r := run(t, e, `{"paths": [], "ops": [{"step": "check"}]}`)
	wantError(t, r, fault.Unchecked, "check looked at no file", "what the project leaves out of its scope")
	if n := findNote(t, r, NoteOutOfScope); n.Files != 1 {
		t.Errorf("out_of_scope note %+v", n)
	}
	if len(caps.reqs) != 0 {
		t.Errorf("the capabilities were asked %d times about no file", len(caps.reqs))
	}
}

// findNote returns r's note of kind, failing when there is none.
func findNote(t *testing.T, r *Result, kind NoteKind) Note {
	t.Helper()
	for _, n := range r.Coverage {
		if n.Kind == kind {
			return n
		}
	}
	t.Fatalf("no %s note in %+v", kind, r.Coverage)
	return Note{}
}

// benchTree is n Go files, 50 to a directory, with a .gitignore at the
// root and in every tenth directory, and an ignored node_modules of n/4
// files: what a walk of a repository after npm install meets.
func benchTree(n int) map[string]string {
	files := map[string]string{".gitignore": "node_modules/\n*.tmp\n"}
	for i := range n {
		files[fmt.Sprintf("p%03d/f%d.go", i/50, i)] = "package p\n"
		if i%500 == 0 {
			files[fmt.Sprintf("p%03d/.gitignore", i/50)] = "gen/\n!keep.tmp\n"
		}
	}
	for i := range n / 4 {
		files[fmt.Sprintf("node_modules/m%03d/f%d.go", i/50, i)] = "package m\n"
	}
	return files
}

// BenchmarkSelectWholeRoot is the walk of the whole root a check without
// paths makes (engine.Select: .gitignore files read and asked, testdata
// and vendor pruned), on 10,000 files and an ignored node_modules of
// 2,500; BenchmarkFloorWalk10000 is a bare filepath.WalkDir of the same
// tree that skips node_modules by name, for the ratio.
func BenchmarkSelectWholeRoot10000(b *testing.B) {
	caps := &rootCaps{ext: ".go"}
	e, _ := setup(b, benchTree(10000), Options{Capabilities: caps})
	b.ResetTimer()
	for b.Loop() {
		sel, err := Select(e.FS(), Walk{Covers: caps.Covers}, nil)
		if err != nil || len(sel.Paths) != 10000 {
			b.Fatal(len(sel.Paths), err)
		}
	}
}

func BenchmarkFloorWalk10000(b *testing.B) {
	_, root := setup(b, benchTree(10000), Options{})
	b.ResetTimer()
	for b.Loop() {
		n := 0
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if d.IsDir() && d.Name() == "node_modules" {
				return fs.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") {
				n++
			}
			return err
		})
		if err != nil || n != 10000 {
			b.Fatal(n, err)
		}
	}
}
