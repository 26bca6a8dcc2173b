package engine

import (
	"context"
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/editfile"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// toyCaps checks a toy language over every .toy file under the root, as
// a language server does: the request's files at their content (overlays),
// every other file as the disk holds it but those the request deletes.
// "def NAME" defines NAME, "call NAME" is an error when nothing defines
// NAME (in any file: a caller an edit broke), and a line holding "bad" is
// an error of its own. It reports findings in every file, asked for or
// not, as gopls reports a changed package's dependents.
type toyCaps struct {
	fs     *rootfs.FS
	reqs   []Request
	limit  int               // DiagnosticLimiter; 0: none
	policy map[string]string // FailPolicy by extension
}

func (c *toyCaps) Has(Kind) bool { return true }

func (c *toyCaps) MaxDiagnostics() int { return c.limit }

func (c *toyCaps) FailOn(p string) string { return c.policy[path.Ext(p)] }

func (c *toyCaps) Run(_ context.Context, req Request) (*Response, error) {
	c.reqs = append(c.reqs, req)
	contents := map[string]string{}
	found, err := c.fs.Glob("**/*.toy")
	if err != nil {
		return nil, err
	}
	for _, p := range found {
		if slices.Contains(req.Deleted, p) {
			continue
		}
		data, _, err := c.fs.ReadFile(p)
		if err != nil {
			return nil, err
		}
		contents[p] = string(data)
	}
	for p, d := range req.Files {
		if strings.HasSuffix(p, ".toy") {
			contents[p] = d.Content()
		}
	}
	defined := map[string]bool{}
	for _, s := range contents {
		for _, l := range strings.Split(s, "\n") {
			if name, ok := strings.CutPrefix(strings.TrimSpace(l), "def "); ok {
				defined[name] = true
			}
		}
	}
	resp := &Response{Drivers: []DriverStatus{{Driver: "toy", Status: StatusOK}}}
	for _, p := range slices.Sorted(maps.Keys(contents)) {
		for i, l := range strings.Split(contents[p], "\n") {
			l = strings.TrimRight(l, "\r")
			if name, ok := strings.CutPrefix(strings.TrimSpace(l), "call "); ok && !defined[name] {
				resp.Diagnostics = append(resp.Diagnostics, Diagnostic{Path: p, Line: i + 1, Column: 1, Severity: SeverityError, Source: "toy", Code: "undef", Message: "undefined: " + name})
			}
			if strings.Contains(l, "bad") {
				resp.Diagnostics = append(resp.Diagnostics, Diagnostic{Path: p, Line: i + 1, Column: 1, Severity: SeverityError, Source: "toy", Code: "bad", Message: "bad line"})
			}
		}
	}
	SortDiagnostics(resp.Diagnostics)
	return resp, nil
}

// toySetup is an engine over files with toyCaps.
func toySetup(t *testing.T, files map[string]string) (*Engine, *toyCaps, string) {
	t.Helper()
	caps := &toyCaps{}
	e, root := setup(t, files, Options{Capabilities: caps})
	caps.fs = e.FS()
	return e, caps, root
}

// marks lists the findings as "path:line message introduced".
func marks(ds []Diagnostic) []string {
	var out []string
	for _, d := range ds {
		m := "unmarked"
		if d.Introduced != nil {
			m = fmt.Sprint(*d.Introduced)
		}
		out = append(out, fmt.Sprintf("%s:%d %s %s", d.Path, d.Line, d.Message, m))
	}
	slices.Sort(out)
	return out
}

func wantMarks(t *testing.T, r *Result, want ...string) {
	t.Helper()
	got := marks(slices.Concat(r.Diagnostics, r.PreExisting))
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n  %s\nwant:\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// An unwritten edit that breaks a caller in a file it did not touch: the
// caller's error is introduced, the error that was there before is not,
// both are counted, and the verdict names the introduced one first.
func TestIntroducedCallerAndPreExisting(t *testing.T) {
	e, caps, _ := toySetup(t, map[string]string{
		"lib.toy":  "def f\n",
		"main.toy": "bad old line\ncall f\n",
	})
	r := run(t, e, `{"paths": ["lib.toy"], "ops": [
		{"step": "edit", "args": {"path": "lib.toy", "edits": [{"find": "def f", "replace": "def g"}]}},
		{"step": "check"}]}`)
	wantError(t, r, fault.Diagnostics, "2 errors (1 introduced by the change, 1 there before it)", "main.toy:2:1: undefined: f")
	if i, j := strings.Index(r.Error.Message, "undefined: f"), strings.Index(r.Error.Message, "bad line"); i < 0 || j >= 0 && j < i {
		t.Errorf("the verdict does not name the introduced error first: %s", r.Error.Message)
	}
	wantMarks(t, r, "main.toy:1 bad line false", "main.toy:2 undefined: f true")
	if b := r.Baseline; b == nil || b.Introduced != 1 || b.PreExisting != 1 {
		t.Errorf("baseline counts = %+v, want 1 introduced, 1 pre-existing", b)
	}
	if len(caps.reqs) != 2 {
		t.Fatalf("%d requests, want the baseline's then the answer's", len(caps.reqs))
	}
	base := caps.reqs[0]
	if got := base.Files["lib.toy"].Content(); got != "def f\n" || len(base.Changed) != 0 || !base.Uncapped {
		t.Errorf("the baseline request shows lib.toy as %q (changed %v, uncapped %v), want the disk's content", got, base.Changed, base.Uncapped)
	}

	// No change: no baseline, no marks.
	e2, caps2, _ := toySetup(t, map[string]string{"main.toy": "bad old line\n"})
	r = run(t, e2, `{"paths": ["main.toy"], "ops": [{"step": "check"}]}`)
	wantMarks(t, r, "main.toy:1 bad line unmarked")
	if r.Baseline != nil || len(caps2.reqs) != 1 {
		t.Errorf("a check over unchanged content: baseline %+v, %d requests; want none and one", r.Baseline, len(caps2.reqs))
	}
}

// A finding whose line only moved is not introduced; the same finding on
// a line the change added is, even when its text equals an old one's.
func TestIntroducedSurvivesMovedLines(t *testing.T) {
	e, _, _ := toySetup(t, map[string]string{
		"a.toy": "one\n\tbad thing\ntwo\nthree\n",
		"b.toy": "x\r\nbad crlf\r\ny\r\n",
	})
	// The bad line moves to the end (re-indented) below a line added at
	// the top; in b.toy a line is added above it.
	r := run(t, e, `{"paths": ["a.toy", "b.toy"], "ops": [
		{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Update File: a.toy\n@@\n+new\n one\n-\tbad thing\n two\n three\n+    bad thing\n*** Update File: b.toy\n@@\n x\n+added\n bad crlf\n y\n*** End Patch"}},
		{"step": "check"}]}`)
	wantMarks(t, r,
		"a.toy:5 bad line false",
		"b.toy:3 bad line false",
	)
	if d, _ := e.ws.Doc("b.toy"); !d.AllCRLF() {
		t.Fatalf("b.toy lost its CRLF endings")
	}

	// A moved line and a copy of it: one of the two is introduced.
	e, _, _ = toySetup(t, map[string]string{"m.toy": "one\nbad thing\ntwo\n"})
	r = run(t, e, `{"paths": ["m.toy"], "ops": [
		{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Update File: m.toy\n@@\n+bad thing\n one\n-bad thing\n two\n+bad thing\n*** End Patch"}},
		{"step": "check"}]}`)
	if b := r.Baseline; b == nil || b.Introduced != 1 || b.PreExisting != 1 {
		t.Errorf("a moved line and its copy: %v, want one introduced and one not", marks(r.Diagnostics))
	}

	// A finding that stays where it was keeps its baseline finding even
	// when a copy of its line is added elsewhere: the position maps.
	e, _, _ = toySetup(t, map[string]string{"c.toy": "bad\nk\n"})
	r = run(t, e, `{"paths": ["c.toy"], "ops": [
		{"step": "edit", "args": {"path": "c.toy", "edits": [{"find": "k", "replace": "k\nbad"}]}},
		{"step": "check"}]}`)
	wantMarks(t, r, "c.toy:1 bad line false", "c.toy:3 bad line true")
}

// fail_on "introduced": a plan whose only errors were there before writes,
// ok, and lists them apart; the default stops it; an introduced error
// stops it either way.
func TestFailOnIntroduced(t *testing.T) {
	files := map[string]string{"lib.toy": "def f\n", "main.toy": "bad old line\ncall f\n"}
	harmless := `"ops": [
		{"step": "edit", "args": {"path": "lib.toy", "edits": [{"find": "def f", "replace": "def f\ndef h"}]}},
		{"step": "check"}, {"step": "write"}]`

	e, _, _ := toySetup(t, files)
	r := run(t, e, `{"paths": ["lib.toy"], `+harmless+`}`)
	wantError(t, r, fault.Diagnostics, "1 error (0 introduced by the change, 1 there before it)")
	if len(r.Written) != 0 {
		t.Fatalf("the default fail_on wrote %v", r.Written)
	}

	e, _, root := toySetup(t, files)
	r = run(t, e, `{"paths": ["lib.toy"], "fail_on": "introduced", `+harmless+`}`)
	if !r.OK || r.Error != nil || !slices.Equal(r.Written, []string{"lib.toy"}) {
		t.Fatalf("fail_on introduced with only pre-existing errors: ok %v, error %+v, written %v", r.OK, r.Error, r.Written)
	}
	if len(r.Diagnostics) != 0 || len(r.PreExisting) != 1 || *r.PreExisting[0].Introduced {
		t.Errorf("diagnostics %v, pre-existing %v: want the old error apart", marks(r.Diagnostics), marks(r.PreExisting))
	}
	if got := testtree.Read(t, root)["lib.toy"]; got != "def f\ndef h\n" {
		t.Errorf("lib.toy on disk = %q", got)
	}

	e, _, _ = toySetup(t, files)
	r = run(t, e, `{"paths": ["lib.toy"], "fail_on": "introduced", "ops": [
		{"step": "edit", "args": {"path": "lib.toy", "edits": [{"find": "def f", "replace": "def g"}]}},
		{"step": "check"}, {"step": "write"}]}`)
	wantError(t, r, fault.Diagnostics, "1 error (1 introduced by the change, 0 there before it)", "undefined: f")
	if len(r.Written) != 0 || len(r.PreExisting) != 1 {
		t.Errorf("an introduced error under fail_on introduced: written %v, pre-existing %v", r.Written, marks(r.PreExisting))
	}

	// The language's fail_on, when the plan says none; the plan's wins.
	e, caps, _ := toySetup(t, files)
	caps.policy = map[string]string{".toy": FailOnIntroduced}
	r = run(t, e, `{"paths": ["main.toy"], "ops": [{"step": "check"}]}`)
	if !r.OK || len(r.PreExisting) != 1 || r.Baseline == nil || r.Baseline.PreExisting != 1 {
		t.Errorf("a language with fail_on introduced, nothing changed: ok %v, pre-existing %v, baseline %+v", r.OK, marks(r.PreExisting), r.Baseline)
	}
	r = run(t, e, `{"paths": ["main.toy"], "fail_on": "any", "ops": [{"step": "check"}]}`)
	wantError(t, r, fault.Diagnostics, "bad line")

	if err := e.Validate(&Plan{FailOn: "new", Ops: []Op{{Step: StepCheck}}}); fault.KindOf(err) != fault.BadArgument || !strings.Contains(err.Error(), `"any"`) {
		t.Errorf("fail_on new: %v", err)
	}
}

// The baseline is asked for once per content: later answers over the
// same baseline (more edits of an unwritten file, whose baseline is the
// disk) ask the drivers about the answer only, until the disk changes.
func TestBaselineCached(t *testing.T) {
	e, caps, root := toySetup(t, map[string]string{"lib.toy": "def f\n", "main.toy": "bad\ncall f\n"})
	edit := func(from, to string) {
		t.Helper()
		r := run(t, e, `{"paths": ["lib.toy"], "ops": [{"step": "edit", "args": {"path": "lib.toy", "edits": [{"find": "`+from+`", "replace": "`+to+`"}]}}]}`)
		if r.Error != nil {
			t.Fatal(r.Error.Message)
		}
	}
	check := func() *Result {
		t.Helper()
		return run(t, e, `{"paths": ["lib.toy"], "ops": [{"step": "check"}]}`)
	}
	edit("def f", "def g")
	check()
	if n := len(caps.reqs); n != 2 {
		t.Fatalf("first check: %d requests, want 2", n)
	}
	edit("def g", "def h")
	r := check()
	if n := len(caps.reqs); n != 3 {
		t.Errorf("second check over the same baseline: %d requests in all, want 3", n)
	}
	wantMarks(t, r, "main.toy:1 bad line false", "main.toy:2 undefined: f true")

	// main.toy changes on disk: its findings' file, read from disk for
	// the baseline, has another stamp, so the baseline is asked again.
	testtree.Write(t, root, map[string]string{"main.toy": "bad\ncall f\nbad too\n"})
	r = check()
	if n := len(caps.reqs); n != 5 {
		t.Errorf("a check after main.toy changed on disk: %d requests in all, want 5", n)
	}
	wantMarks(t, r, "main.toy:1 bad line false", "main.toy:2 undefined: f true", "main.toy:3 bad line false")
}

// edit_file writes as it goes: its baseline is what the file held before
// the session's first edit (its undo base), shown to the drivers as an
// overlay; a plan that writes keeps what it replaced as the baseline too.
func TestBaselineOfWhatTheSessionWrote(t *testing.T) {
	e, caps, root := toySetup(t, map[string]string{"lib.toy": "def f\n", "main.toy": "bad\ncall f\n"})
	ef := editfile.NewSession(e.FS(), e.Workspace())
	ef.SetBaseRecorder(e.Bases())
	abs := root + "/lib.toy"
	for _, params := range []string{
		`{"command": "view", "file_path": "` + abs + `"}`,
		`{"command": "str_replace", "file_path": "` + abs + `", "old_str": "def f", "new_str": "def g"}`,
		`{"command": "str_replace", "file_path": "` + abs + `", "old_str": "def g", "new_str": "def g2"}`,
	} {
		if _, err := ef.Call(context.Background(), []byte(params)); err != nil {
			t.Fatal(err)
		}
	}
	r := run(t, e, `{"paths": [], "ops": [{"step": "check"}]}`)
	wantMarks(t, r, "main.toy:1 bad line false", "main.toy:2 undefined: f true")
	base := caps.reqs[0]
	if d := base.Files["lib.toy"]; d == nil || d.Content() != "def f\n" || !slices.Equal(base.Changed, []string{"lib.toy"}) {
		t.Errorf("the baseline shows lib.toy as %v (changed %v), want the undo base as an overlay", d, base.Changed)
	}

	// A file write_file created is no file at the baseline: hidden.
	if _, err := ef.WriteFile(context.Background(), []byte(`{"file_path": "`+root+`/new.toy", "content": "bad new\n"}`)); err != nil {
		t.Fatal(err)
	}
	caps.reqs = nil
	r = run(t, e, `{"paths": [], "ops": [{"step": "check"}]}`)
	wantMarks(t, r, "main.toy:1 bad line false", "main.toy:2 undefined: f true", "new.toy:1 bad line true")
	if !slices.Contains(caps.reqs[0].Deleted, "new.toy") {
		t.Errorf("the baseline deletes %v, want new.toy hidden", caps.reqs[0].Deleted)
	}

	// A plan's write: what the file held before it stays the baseline,
	// within the plan and after it, a moved file matched at its old path.
	e, _, _ = toySetup(t, map[string]string{"lib.toy": "def f\nbad\n", "main.toy": "call f\n"})
	r = run(t, e, `{"paths": ["lib.toy"], "ops": [
		{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Update File: lib.toy\n*** Move to: lib2.toy\n@@\n-def f\n+def g\n*** End Patch"}},
		{"step": "write"}, {"step": "check"}]}`)
	wantMarks(t, r, "lib2.toy:2 bad line false", "main.toy:1 undefined: f true")
	r = run(t, e, `{"paths": [], "fail_on": "introduced", "ops": [{"step": "check"}]}`)
	wantError(t, r, fault.Diagnostics, "undefined: f")
	wantMarks(t, r, "lib2.toy:2 bad line false", "main.toy:1 undefined: f true")
}

// An unwritten move's findings are matched at the old path.
func TestIntroducedFollowsRenames(t *testing.T) {
	e, _, _ := toySetup(t, map[string]string{"a.toy": "bad\nx\n"})
	r := run(t, e, `{"paths": ["a.toy"], "ops": [
		{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Update File: a.toy\n*** Move to: b.toy\n@@\n bad\n x\n+bad\n*** End Patch"}},
		{"step": "check"}]}`)
	wantMarks(t, r, "b.toy:1 bad line false", "b.toy:3 bad line true")
}

// Over the limit, the introduced findings are kept before pre-existing
// ones, and the note counts what was left out.
func TestCapKeepsIntroducedFirst(t *testing.T) {
	e, caps, _ := toySetup(t, map[string]string{"a.toy": "bad 1\nbad 2\nbad 3\nz\n"})
	caps.limit = 2
	r := run(t, e, `{"paths": ["a.toy"], "ops": [
		{"step": "edit", "args": {"path": "a.toy", "edits": [{"find": "z", "replace": "z bad"}]}},
		{"step": "check"}]}`)
	wantMarks(t, r, "a.toy:1 bad line false", "a.toy:4 bad line true")
	if !slices.ContainsFunc(r.Coverage, func(n Note) bool { return n.Kind == NoteOmitted && strings.Contains(n.Message, "2 more") }) {
		t.Errorf("coverage %v: want the omitted note", r.Coverage)
	}
	if b := r.Baseline; b.Introduced != 1 || b.PreExisting != 3 {
		t.Errorf("counts %+v: want every finding counted, 1 introduced and 3 pre-existing", b)
	}
}

// sinceSource is a BaseSource over fixed contents.
type sinceSource map[string]Base

func (s sinceSource) Name() string { return "REV" }

func (s sinceSource) Bases(context.Context, []string) (map[string]Base, error) { return s, nil }

// A BaseSource is the baseline of every answer, even over content the
// session did not change; with nothing differing from it, every finding
// is pre-existing without asking the drivers twice.
func TestSinceSource(t *testing.T) {
	caps := &toyCaps{}
	src := sinceSource{"lib.toy": {Content: []byte("def f\n"), Exists: true}, "new.toy": {}}
	e, _ := setup(t, map[string]string{"lib.toy": "def g\n", "main.toy": "bad\ncall f\n", "new.toy": "bad\n"}, Options{Capabilities: caps, Since: src})
	caps.fs = e.FS()
	r := run(t, e, `{"paths": [], "ops": [{"step": "lint"}]}`)
	wantMarks(t, r, "main.toy:1 bad line false", "main.toy:2 undefined: f true", "new.toy:1 bad line true")
	if r.Baseline == nil || r.Baseline.Since != "REV" {
		t.Errorf("baseline %+v, want since REV", r.Baseline)
	}
	base := caps.reqs[0]
	if !slices.Equal(base.Changed, []string{"lib.toy"}) || !slices.Equal(base.Deleted, []string{"new.toy"}) || base.Files["new.toy"] != nil {
		t.Errorf("the baseline request: changed %v, deleted %v", base.Changed, base.Deleted)
	}

	caps2 := &toyCaps{}
	e, _ = setup(t, map[string]string{"main.toy": "bad\n"}, Options{Capabilities: caps2, Since: sinceSource{}})
	caps2.fs = e.FS()
	r = run(t, e, `{"paths": [], "ops": [{"step": "check"}]}`)
	wantMarks(t, r, "main.toy:1 bad line false")
	if len(caps2.reqs) != 1 {
		t.Errorf("nothing differs from the baseline: %d requests, want 1", len(caps2.reqs))
	}
}

// A file that was not text at the revision (a binary there) had no
// findings there: what is found in it now is introduced, not taken for
// its own baseline.
func TestSinceNotTextIsNoBaseline(t *testing.T) {
	caps := &toyCaps{}
	src := sinceSource{"main.toy": {Content: []byte("\x00\x01binary"), Exists: true}}
	e, _ := setup(t, map[string]string{"main.toy": "bad\n"}, Options{Capabilities: caps, Since: src})
	caps.fs = e.FS()
	r := run(t, e, `{"paths": [], "ops": [{"step": "lint"}]}`)
	wantMarks(t, r, "main.toy:1 bad line true")
}

// The line map follows the diff: lines in equal runs map, changed ones
// do not.
func TestLineMap(t *testing.T) {
	base, live := text.FromString("a\nb\nc\nd\n"), text.FromString("a\nx\nc\nd\ne\n")
	c := &comparison{base: &baseline{content: map[string]*text.Doc{"f": base}, origin: map[string]string{}}}
	m := c.lineMap("f", func(string) *text.Doc { return live })
	for _, tc := range []struct {
		live, base int
		ok         bool
	}{{0, 0, true}, {1, 1, true}, {2, 0, false}, {3, 3, true}, {4, 4, true}, {5, 0, false}} {
		got, ok := m.toBase(tc.live)
		if ok != tc.ok || ok && got != tc.base {
			t.Errorf("line %d maps to %d, %v; want %d, %v", tc.live, got, ok, tc.base, tc.ok)
		}
	}
}

// The engine's own cost of comparing, without a language server: a check
// of 100 files with 3,000 findings the edit introduced and 100 that were
// there, against the same check uncompared (the toy checker's cost is in
// each), a session's first (the baseline asked for) and a later one (the
// baseline kept), in wall time and in the process's CPU time.
//
//	go test -run '^$' -bench 'Toy' -count 5 ./engine/
func benchToy(b *testing.B, compare, first bool) {
	files := map[string]string{"lib.toy": "def f\n"}
	for i := range 100 {
		var s strings.Builder
		s.WriteString("bad old\n")
		for j := range 30 {
			fmt.Fprintf(&s, "x%d\ncall f\n", j)
		}
		files[fmt.Sprintf("p%d.toy", i)] = s.String()
	}
	caps := &toyCaps{limit: 200}
	root := b.TempDir()
	testtree.Write(b, root, files)
	var e *Engine
	session := func() {
		var err error
		if e, err = New(root, Options{Capabilities: caps}); err != nil {
			b.Fatal(err)
		}
		caps.fs = e.FS()
		e.noBaseline = !compare
	}
	session()
	ctx := context.Background()
	edit := func(from, to string) *Result {
		p, err := ParsePlan([]byte(`{"paths": ["lib.toy"], "ops": [{"step": "edit", "args": {"path": "lib.toy", "edits": [{"find": "` + from + `", "replace": "` + to + `"}]}}, {"step": "check"}]}`))
		if err != nil {
			b.Fatal(err)
		}
		return e.Run(ctx, p)
	}
	edit("def f", "def g0")
	b.ResetTimer()
	cpu := cpuTime()
	for i := range b.N {
		from := fmt.Sprintf("def g%d", i)
		if first {
			session() // a new session keeps nothing: the baseline is asked for
			from = "def f"
		}
		r := edit(from, fmt.Sprintf("def g%d", i+1))
		if compare && (r.Baseline == nil || r.Baseline.Introduced != 3000 || r.Baseline.PreExisting != 100) {
			b.Fatalf("baseline %+v", r.Baseline)
		}
	}
	// The machine may be loaded: the CPU time says what the work cost.
	if used := cpuTime() - cpu; used > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}

func BenchmarkToyPlain(b *testing.B) { benchToy(b, false, false) }

func BenchmarkToyFirst(b *testing.B) { benchToy(b, true, true) }

func BenchmarkToyLater(b *testing.B) { benchToy(b, true, false) }
