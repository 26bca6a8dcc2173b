package engine

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// TestRegistry ties every answer about a step to the registry: its name,
// its capability, whether it mutates, what files its arguments name, and
// that its one decoder refuses an unknown argument as bad_argument.
func TestRegistry(t *testing.T) {
	start := 1
	want := []struct {
		name    StepName
		kind    Kind
		mutates bool
		args    Args
		named   []string
	}{
		{StepReadLines, "", false, &ReadLinesArgs{Path: "r.go", Start: &start}, []string{"r.go"}},
		{StepEdit, "", true, &EditArgs{Path: "e.go"}, []string{"e.go"}},
		{StepApplyPatch, "", true, &ApplyPatchArgs{Patch: "*** Begin Patch\n*** Add File: new.go\n+x\n*** Delete File: old.go\n*** Update File: u.go\n*** Move to: m.go\n@@\n-a\n+b\n*** End Patch\n"}, []string{"old.go", "u.go"}},
		{StepWrite, "", false, &WriteArgs{Paths: []string{"w.go"}}, nil},
		{StepSearch, "", false, &SearchArgs{Pattern: "x", Paths: []string{"s/**"}}, nil},
		{StepFormat, Format, true, &FormatArgs{Paths: []string{"f.go"}}, []string{"f.go"}},
		{StepLint, Lint, true, &LintArgs{Paths: []string{"l/**"}, Fix: true}, []string{"l/**"}},
		{StepCheck, Check, false, &CheckArgs{}, nil},
		{StepTest, Test, false, &TestArgs{Paths: []string{"t/**"}}, []string{"t/**"}},
		{StepDefinition, Definition, false, &DefinitionArgs{At{Path: "d.go", Symbol: "F"}}, []string{"d.go"}},
		{StepReferences, References, false, &ReferencesArgs{At: At{Path: "r.go", Symbol: "F"}}, []string{"r.go"}},
		{StepHover, Hover, false, &HoverArgs{At{Path: "h.go", Symbol: "F"}}, []string{"h.go"}},
		{StepSymbols, Symbols, false, &SymbolsArgs{Query: "F"}, nil},
		{StepRename, Rename, false, &RenameArgs{At: At{Path: "n.go", Symbol: "F"}, NewName: "G"}, []string{"n.go"}},
		{StepCodeActions, CodeActions, false, &CodeActionsArgs{Path: "c.go"}, []string{"c.go"}},
	}
	steps := Steps()
	if len(steps) != len(want) {
		t.Fatalf("the registry has %d steps, the test knows %d: add the new step here", len(steps), len(want))
	}
	for i, s := range steps {
		w := want[i]
		if s.Name == "" || s.Name != w.name {
			t.Errorf("step %d is %q, want %q", i+1, s.Name, w.name)
			continue
		}
		if s.Kind != w.kind || s.Mutates != w.mutates {
			t.Errorf("%s: kind %q mutates %v, want %q %v", s.Name, s.Kind, s.Mutates, w.kind, w.mutates)
		}
		if s.Synopsis == "" || !strings.HasPrefix(s.Synopsis, "{") {
			t.Errorf("%s: synopsis %q, want the arguments in braces", s.Name, s.Synopsis)
		}
		if got, ok := LookupStep(s.Name); !ok || got != s {
			t.Errorf("LookupStep(%q) = %v, %v", s.Name, got, ok)
		}
		if w.args.Step() != s.Name || s.zero().Step() != s.Name {
			t.Errorf("%s: its argument types name %q and %q", s.Name, w.args.Step(), s.zero().Step())
		}
		if got := Named(w.args); !slices.Equal(got, w.named) {
			t.Errorf("Named(%s %+v) = %q, want %q", s.Name, w.args, got, w.named)
		}
		_, err := s.Decode([]byte(`{"nope":1}`))
		if fault.KindOf(err) != fault.BadArgument || !strings.Contains(err.Error(), `unknown argument "nope"`) {
			t.Errorf(`%s: Decode({"nope":1}) = %v (kind %s), want a bad_argument naming "nope"`, s.Name, err, fault.KindOf(err))
		}
	}
	if _, ok := LookupStep("frobnicate"); ok {
		t.Error("LookupStep found a step that is not registered")
	}
	if got := AvailableSteps(nil); !slices.Equal(got, []string{"read_lines", "edit", "apply_patch", "write", "search"}) {
		t.Errorf("AvailableSteps(nil) = %v", got)
	}
}

// A plan's arguments are decoded once, by ParsePlan; validating and running
// it decodes nothing, and apply_patch's envelope is parsed once for what
// the step names and what it applies.
func TestPlanDecodesOnce(t *testing.T) {
	e, root := setup(t, map[string]string{"a.txt": "one\ntwo\n"}, Options{})
	decodes := countDecodes(t)
	before := decodes.Load()
	p := plan(t, `{"paths": ["a.txt"], "ops": [
		{"step": "edit", "args": {"path": "a.txt", "edits": [{"find": "one", "replace": "1"}]}},
		{"step": "apply_patch", "args": {"patch": "*** Begin Patch\n*** Update File: a.txt\n@@\n-two\n+2\n*** End Patch\n"}},
		{"step": "read_lines", "args": {"path": "a.txt", "start": 1}},
		{"step": "write"}]}`)
	if n := decodes.Load() - before; n != 4 {
		t.Fatalf("ParsePlan decoded %d times for 4 steps", n)
	}
	ap := p.Ops[1].Args.(*ApplyPatchArgs)
	if got := Named(ap); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("Named = %v", got)
	}
	// The envelope was parsed by Named: the run applies that parse.
	ap.Patch = "not an envelope"
	r := e.Run(context.Background(), p)
	if !r.OK || r.Reads["a.txt"] != "1\n2" || readFile(t, root, "a.txt") != "1\n2\n" {
		t.Fatalf("run: %+v", r)
	}
	if n := decodes.Load() - before; n != 4 {
		t.Errorf("validating and running the plan decoded %d more times", n-4)
	}
}

// A plan made in Go is checked like a decoded one: nil arguments are the
// step's empty ones, and arguments of another step are refused.
func TestGoPlansAreChecked(t *testing.T) {
	e, _ := setup(t, map[string]string{"a.txt": "one\n"}, Options{})
	r := e.Run(context.Background(), &Plan{Paths: []string{"a.txt"}, Ops: []Op{{Step: StepReadLines}}})
	wantError(t, r, fault.BadArgument, "step 1 (read_lines): path is required")
	r = e.Run(context.Background(), &Plan{Ops: []Op{{Step: StepWrite, Args: &CheckArgs{}}}})
	wantError(t, r, fault.BadArgument, "the arguments of check were given to write")
	r = e.Run(context.Background(), &Plan{Ops: []Op{{Step: StepWrite}}})
	if !r.OK {
		t.Fatalf("write with nil arguments: %+v", r.Error)
	}
}

// FuzzParsePlan checks that the plan decoder never panics, that a refusal
// is a bad_argument, and that every op it returns either has typed
// arguments of its own step or is refused by validation, which never
// panics either.
func FuzzParsePlan(f *testing.F) {
	for _, s := range []string{
		`{"paths":[],"ops":[]}`, `{"paths":["a"],"ops":[{"step":"read_lines","args":{"path":"a","start":1}}]}`,
		`{"ops":[{"step":"edit","args":{"path":"a","edits":[{"find":"x","replace":null}]}}]}`,
		`{"ops":[{"step":"apply_patch","args":{"patch":"*** Begin Patch\n*** Delete File: a\n*** End Patch"}}]}`,
		`{"ops":[{"step":"format","args":{"force":true}}]}`, `{"ops":[{"step":"lint","args":{"fix":"yes"}}]}`,
		`{"ops":[{"step":"write","args":null,"label":"x"}]}`, `{"ops":[{"step":"nope"},{"step":""}]}`,
		`{"ops":[{"step":"check","args":[]}]}`, `{"paths":[""],"ops":null}`, `{"ops":[{"zz":1}]}`, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	e, err := New(f.TempDir(), Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := ParsePlan(data)
		if err != nil {
			if fault.KindOf(err) != fault.BadArgument {
				t.Fatalf("ParsePlan(%q) = %v, kind %s", data, err, fault.KindOf(err))
			}
			return
		}
		for _, op := range p.Ops {
			if op.Args != nil && op.Args.Step() != op.Step {
				t.Fatalf("ParsePlan(%q): %s got the arguments of %s", data, op.Step, op.Args.Step())
			}
			if _, known := LookupStep(op.Step); known && (op.Args == nil) == (op.err == nil) {
				t.Fatalf("ParsePlan(%q): %s has arguments %v and error %v", data, op.Step, op.Args, op.err)
			}
		}
		if err := e.Validate(p); err != nil && fault.KindOf(err) == fault.Internal {
			t.Fatalf("Validate(%q) = %v", data, err)
		}
	})
}

// countDecodes counts, until the test ends, the calls of every step's
// decoder (each [Step.Decode] calls its step's once).
func countDecodes(t *testing.T) *atomic.Int64 {
	var n atomic.Int64
	saved := make([]func([]byte) (Args, error), len(steps))
	for i, s := range steps {
		saved[i] = s.decode
		s.decode = func(raw []byte) (Args, error) {
			n.Add(1)
			return saved[i](raw)
		}
	}
	t.Cleanup(func() {
		for i, s := range steps {
			s.decode = saved[i]
		}
	})
	return &n
}

// A step's arguments are described once, by the tags of its typed
// arguments: every argument has a type and a description, and the
// synopsis dev_plan's description gives names exactly the spec's
// arguments, an optional one marked "?" and, where the synopsis offers no
// alternatives ("|"), a required one unmarked.
func TestSynopsisNamesTheArguments(t *testing.T) {
	ident := regexp.MustCompile(`[a-z_]+\??`)
	for _, s := range Steps() {
		spec := s.Spec()
		args := map[string]*jsonarg.Arg{} // at any depth: edit's edits hold find and replace
		var walk func([]jsonarg.Arg)
		walk = func(as []jsonarg.Arg) {
			for i := range as {
				a := &as[i]
				args[a.Name] = a
				if a.Doc == "" || a.Type == "" {
					t.Errorf("%s: argument %s has type %q and description %q: give it a jsonschema tag", s.Name, a.Name, a.Type, a.Doc)
				}
				walk(a.Fields)
				if a.Items != nil {
					walk(a.Items.Fields)
				}
			}
		}
		walk(spec.Args)
		var names []string
		for _, tok := range ident.FindAllString(s.Synopsis, -1) {
			name, optional := strings.CutSuffix(tok, "?")
			names = append(names, name)
			a := args[name]
			switch {
			case a == nil:
				t.Errorf("%s: the synopsis %q names %s, which is not an argument (%s)", s.Name, s.Synopsis, name, spec.List())
			case optional && a.Required:
				t.Errorf("%s: the synopsis %q marks %s optional, but it is required", s.Name, s.Synopsis, name)
			case !optional && !a.Required && !strings.Contains(s.Synopsis, "|") && !strings.Contains(s.Synopsis, name+"+"):
				t.Errorf("%s: the synopsis %q gives %s as required, but it may be left out", s.Name, s.Synopsis, name)
			}
		}
		for name := range args {
			if !slices.Contains(names, name) {
				t.Errorf("%s: the synopsis %q lacks the argument %s", s.Name, s.Synopsis, name)
			}
		}
	}
}

// Called on its own, a step takes its arguments and, for check, paths:
// the files to read into the workspace first, which DecodeCall returns
// apart from the step's arguments. A call's arguments go through the same
// front end as a plan's.
func TestCallSpec(t *testing.T) {
	for _, s := range Steps() {
		call, own := s.CallSpec().Names(), s.Spec().Names()
		want := own
		if s.Name == StepCheck {
			want = append(slices.Clone(own), "paths")
		}
		if !slices.Equal(call, want) {
			t.Errorf("%s called on its own takes %v, want %v", s.Name, call, want)
		}
		if _, _, err := s.DecodeCall([]byte(`{"nope":1}`)); fault.KindOf(err) != fault.BadArgument || !strings.Contains(err.Error(), `unknown argument "nope"`) {
			t.Errorf("%s: DecodeCall({nope}) = %v", s.Name, err)
		}
	}
	check, _ := LookupStep(StepCheck)
	a, acquire, err := check.DecodeCall([]byte(`{"paths": ["a.go", "b/**"]}`))
	if err != nil || a.Step() != StepCheck || !slices.Equal(acquire, []string{"a.go", "b/**"}) {
		t.Fatalf("check's call: %v %v %v", a, acquire, err)
	}
	if _, err := check.Decode([]byte(`{"paths": ["a.go"]}`)); err == nil || !strings.Contains(err.Error(), `unknown argument "paths"; the arguments are: (none)`) {
		t.Errorf("check in a plan took paths: %v", err)
	}
	read, _ := LookupStep(StepReadLines)
	if _, acquire, err := read.DecodeCall([]byte(`{"path": "a.go", "start": 1}`)); err != nil || acquire != nil {
		t.Errorf("read_lines's call: %v %v", acquire, err)
	}
	// Typed arguments made in Go are held to the spec too.
	if _, err := read.Check(&ReadLinesArgs{Path: "a.go"}); fault.KindOf(err) != fault.BadArgument || !strings.Contains(err.Error(), "start is required (an integer)") {
		t.Errorf("Check without start: %v", err)
	}
}
