package engine

// This file holds the steps as data: their names, the registry that says
// what each one is (its capability, whether it changes files, what files it
// names, its typed arguments and their one description, the Spec read from
// their tags), and the one function that turns a step's JSON arguments into
// those typed arguments. Every surface (the MCP tools, the command line,
// the editor endpoint) names steps, describes their arguments and decodes
// them through it; a plan carries typed arguments, so running one decodes
// nothing.

import (
	"slices"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/jsonarg"
	"github.com/devbroker/devbroker/engine/patch"
	"github.com/devbroker/devbroker/engine/text"
)

// StepName names a step.
type StepName string

// The steps.
const (
	StepReadLines  StepName = "read_lines"
	StepEdit       StepName = "edit"
	StepApplyPatch StepName = "apply_patch"
	StepWrite      StepName = "write"
	StepFormat     StepName = "format"
	StepLint       StepName = "lint"
	StepCheck      StepName = "check"
	StepSearch     StepName = "search"
)

// Args are one step's typed arguments: a *ReadLinesArgs, *EditArgs,
// *ApplyPatchArgs, *WriteArgs, *SearchArgs, *FormatArgs, *LintArgs,
// *CheckArgs or a language step's. Args that were used in a plan must not
// be changed afterwards.
type Args interface {
	// Step is the step these are the arguments of.
	Step() StepName
}

// Step describes one step.
type Step struct {
	// Name is the step's name.
	Name StepName
	// Kind is the capability the step asks for; "" for a workspace step,
	// which every engine can run.
	Kind Kind
	// Mutates reports whether the step changes files, so that called on
	// its own it is followed by a write of what it changed.
	Mutates bool
	// Unwritten reports whether the step changes the workspace but,
	// called on its own, leaves what it changed unwritten until a write
	// (rename, code_actions' apply): it is never written unchecked.
	Unwritten bool
	// Synopsis is the step's arguments in brief, e.g. "{path, start,
	// end?}": optional arguments end in "?". It names the arguments of
	// [Step.Spec], no other (TestSynopsisNamesTheArguments).
	Synopsis string

	spec       *jsonarg.Spec                            // the arguments
	call       *jsonarg.Spec                            // the step called on its own
	zero       func() Args                              // new empty arguments
	decode     func(raw []byte) (Args, error)           // strict JSON into typed arguments, unchecked by the rules
	decodeCall func(raw []byte) (Args, []string, error) // the same for a call of the step on its own
	check      func(Args) error                         // the typed arguments' own rules
	names      func(Args) []string                      // the files the arguments name
}

// steps is the registry, in the order steps are listed.
var steps = []*Step{
	def(StepReadLines, "", false, "{path, start, end?}", checkReadLines, func(a *ReadLinesArgs) []string { return []string{a.Path} }),
	def(StepEdit, "", true, "{path, edits: [{find, replace}]}", checkEdit, func(a *EditArgs) []string { return []string{a.Path} }),
	def(StepApplyPatch, "", true, "{patch}", checkApplyPatch, (*ApplyPatchArgs).named),
	def[WriteArgs](StepWrite, "", false, "{paths?, force?, merge?}", nil, nil),
	def(StepSearch, "", false, "{pattern, regex?, paths?}", checkSearch, nil),
	hint(def(StepFormat, Format, true, "{paths?, only?}", func(a *FormatArgs) error { return checkOnly(a.Only) }, func(a *FormatArgs) []string { return slices.Clone(a.Paths) }),
		"force", "force is only for write: it lets a write change read-only files"),
	def(StepLint, Lint, true, "{paths?, fix?}", nil, func(a *LintArgs) []string { return slices.Clone(a.Paths) }),
	callWith(def[CheckArgs](StepCheck, Check, false, "{}", nil, nil), func(c *checkCall) (Args, []string) { return &c.CheckArgs, c.Paths }),
	def(StepTest, Test, false, "{paths?}", nil, func(a *TestArgs) []string { return slices.Clone(a.Paths) }),
	def(StepDefinition, Definition, false, "{path, symbol? | line+column?}", checkAt[*DefinitionArgs], atPath[*DefinitionArgs]),
	def(StepReferences, References, false, "{path, symbol? | line+column?, include_declaration?}", checkAt[*ReferencesArgs], atPath[*ReferencesArgs]),
	def(StepHover, Hover, false, "{path, symbol? | line+column?}", checkAt[*HoverArgs], atPath[*HoverArgs]),
	def(StepSymbols, Symbols, false, "{path} | {query}", checkSymbols, symbolsPath),
	unwritten(def(StepRename, Rename, false, "{path, symbol? | line+column?, new_name}", checkRename, atPath[*RenameArgs])),
	unwritten(def(StepCodeActions, CodeActions, false, "{path, line?, column?, end_line?, end_column?, only?} | {apply}", checkCodeActions, codeActionsPath)),
}

// Steps lists every step, in order. The steps are shared: do not change
// them.
func Steps() []*Step { return slices.Clone(steps) }

// LookupStep returns the step named name.
func LookupStep(name StepName) (*Step, bool) {
	for _, s := range steps {
		if s.Name == name {
			return s, true
		}
	}
	return nil, false
}

// AvailableSteps lists the steps an engine with these capabilities can
// run: the workspace steps, and the capability steps that have a working
// driver. Nil capabilities have none.
func AvailableSteps(caps Capabilities) []string {
	var out []string
	for _, s := range steps {
		if s.Kind == "" || (caps != nil && caps.Has(s.Kind)) {
			out = append(out, string(s.Name))
		}
	}
	return out
}

// Spec describes the step's arguments, read from the tags of its typed
// arguments: each one's name, JSON type, whether it is required, its
// values and its one-line description. It is their one description:
// the MCP step tools' input schemas, the command line's flags and the
// decoding of every surface's JSON arguments ([Step.Decode]) are made
// from it. It is shared: do not change it.
func (s *Step) Spec() *jsonarg.Spec { return s.spec }

// CallSpec describes the arguments of the step called on its own (its
// MCP tool, its command): the step's own and, for check, paths, the
// files to read into the workspace first (a plan names them in its
// paths). It is shared: do not change it.
func (s *Step) CallSpec() *jsonarg.Spec { return s.call }

// Decode is the one decoder of the step's JSON arguments: it decodes raw
// through the strict front end of [Step.Spec] (an object, no unknown
// argument, every value of its type, the required ones given, enums
// respected; empty or null means {}) into the step's typed arguments and
// checks the step's rules. Every error is a bad_argument fault whose
// message names the argument and says what it needs.
func (s *Step) Decode(raw []byte) (Args, error) {
	a, err := s.decode(raw)
	if err != nil {
		return nil, err
	}
	if err := s.check(a); err != nil {
		return nil, err
	}
	return a, nil
}

// DecodeCall decodes the JSON arguments of the step called on its own,
// as [Step.Decode] does, against [Step.CallSpec]: it returns the step's
// arguments and the files to read into the workspace before it runs
// (check's paths; none for the other steps).
func (s *Step) DecodeCall(raw []byte) (Args, []string, error) {
	a, acquire, err := s.decodeCall(raw)
	if err != nil {
		return nil, nil, err
	}
	if err := s.check(a); err != nil {
		return nil, nil, err
	}
	return a, acquire, nil
}

// Check checks typed arguments made in Go (not decoded by [Step.Decode])
// against [Step.Spec] and the step's rules: nil stands for the step's
// empty arguments. It returns the arguments to run.
func (s *Step) Check(a Args) (Args, error) {
	if a == nil {
		a = s.zero()
	}
	if a.Step() != s.Name {
		return nil, fault.New(fault.Internal, "the arguments of %s were given to %s", a.Step(), s.Name)
	}
	if err := s.spec.Check(a); err != nil {
		return nil, argsFault(err)
	}
	return a, s.check(a)
}

// Named lists the files a step's arguments name, which a step called on
// its own acquires first: read_lines's and edit's path, apply_patch's
// updated, moved and deleted files (none when the envelope does not
// parse), format's and lint's paths. Arguments that name no file (write,
// check) give none.
func Named(a Args) []string {
	if a == nil {
		return nil
	}
	s, ok := LookupStep(a.Step())
	if !ok {
		return nil
	}
	return s.names(a)
}

// def makes a step from its typed functions; a nil check accepts any
// arguments and a nil names names no file.
func def[A any, P interface {
	*A
	Args
}](name StepName, kind Kind, mutates bool, synopsis string, check func(P) error, names func(P) []string) *Step {
	spec := jsonarg.For[A]()
	s := &Step{Name: name, Kind: kind, Mutates: mutates, Synopsis: synopsis, spec: spec, call: spec}
	s.zero = func() Args { return P(new(A)) }
	s.decode = func(raw []byte) (Args, error) {
		a := P(new(A))
		if err := spec.Decode(raw, a); err != nil {
			return nil, argsFault(err)
		}
		return a, nil
	}
	s.decodeCall = func(raw []byte) (Args, []string, error) {
		a, err := s.decode(raw)
		return a, nil, err
	}
	s.check = func(a Args) error {
		if check == nil {
			return nil
		}
		return check(a.(P))
	}
	s.names = func(a Args) []string {
		if names == nil {
			return nil
		}
		return names(a.(P))
	}
	return s
}

// hint makes the refusal of name, an argument s does not take, say hint
// too: whose argument it is.
func hint(s *Step, name, hint string) *Step {
	s.spec.WithHint(name, hint)
	return s
}

// unwritten marks s as changing the workspace only.
func unwritten(s *Step) *Step {
	s.Unwritten = true
	return s
}

// callWith makes the arguments of s called on its own those of C, which
// embeds the step's arguments beside the call's own: split returns the
// step's arguments and the files to read into the workspace first.
func callWith[C any](s *Step, split func(*C) (Args, []string)) *Step {
	spec := jsonarg.For[C]()
	s.call = spec
	s.decodeCall = func(raw []byte) (Args, []string, error) {
		c := new(C)
		if err := spec.Decode(raw, c); err != nil {
			return nil, nil, argsFault(err)
		}
		a, acquire := split(c)
		return a, acquire, nil
	}
	return s
}

// argsFault is the bad_argument fault of arguments the front end refused:
// its message is the front end's, which names the argument.
func argsFault(err error) error { return fault.Wrap(fault.BadArgument, err, "") }

func checkReadLines(a *ReadLinesArgs) error {
	switch {
	case a.Path == "":
		return fault.New(fault.BadArgument, "path is required")
	case a.Start == nil:
		return fault.New(fault.BadArgument, "start is required (1-based line number)")
	case *a.Start < 1:
		return fault.New(fault.BadArgument, "start must be a positive integer (lines are 1-based), got %d", *a.Start)
	case a.End != nil && *a.End < 1:
		return fault.New(fault.BadArgument, "end must be a positive integer (lines are 1-based), got %d; omit it to read to the end of the file", *a.End)
	case a.End != nil && *a.End < *a.Start:
		return fault.New(fault.BadArgument, "invalid range: end %d is before start %d; give end >= start, or omit end to read to the end of the file", *a.End, *a.Start)
	}
	return nil
}

func checkEdit(a *EditArgs) error {
	if a.Path == "" {
		return fault.New(fault.BadArgument, "path is required")
	}
	if len(a.Edits) == 0 {
		return fault.New(fault.BadArgument, "edits is empty: give at least one {find, replace}; an edit step with no edits is not a no-op")
	}
	for j, fr := range a.Edits {
		if fr.Find == nil || *fr.Find == "" {
			return fault.New(fault.BadArgument, "edit %d: find is empty; give the whole lines to replace", j+1)
		}
		if fr.Replace == nil {
			return fault.New(fault.BadArgument, "edit %d: replace is required (use \"\" to delete the lines)", j+1)
		}
		if err := text.CheckString(*fr.Replace); err != nil {
			return fault.Wrap(fault.BadArgument, err, "edit %d: replace is not text; a file is text (valid UTF-8 with no NUL byte): remove that byte", j+1)
		}
	}
	return nil
}

func checkSearch(a *SearchArgs) error {
	if a.Pattern == "" {
		return fault.New(fault.BadArgument, "pattern is required: the text to find (or, with regex: true, an RE2 regular expression)")
	}
	return nil
}

func checkApplyPatch(a *ApplyPatchArgs) error {
	if strings.TrimSpace(a.Patch) == "" {
		return fault.New(fault.BadArgument, "patch is required: a \"*** Begin Patch\" ... \"*** End Patch\" envelope")
	}
	return nil
}

// envelope parses the patch once; later calls return the first answer.
func (a *ApplyPatchArgs) envelope() ([]patch.FileOp, error) {
	if !a.parsed {
		a.ops, a.err = patch.ParseEnvelope(a.Patch)
		a.parsed = true
	}
	return a.ops, a.err
}

// named lists the files the envelope updates, moves or deletes.
func (a *ApplyPatchArgs) named() []string {
	ops, err := a.envelope()
	if err != nil {
		return nil
	}
	var out []string
	for _, op := range ops {
		if op.Kind != patch.Add {
			out = append(out, op.Path)
		}
	}
	return out
}
