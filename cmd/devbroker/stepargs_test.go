package main

import (
	"bytes"
	"flag"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// The commands that run a step cover its arguments, as the engine
// describes them (engine.Step.CallSpec): each is a position of the
// command or a flag named after it, which the command's --help lists with
// the argument's description; every step that is a command is one of
// them. (The steps with no command of their own, and edit_file, take
// JSON: devbroker run and devbroker edit.)
func TestStepCommandsCoverTheirArguments(t *testing.T) {
	for _, st := range engine.Steps() {
		name := strings.ReplaceAll(string(st.Name), "_", "-")
		if st.Name == engine.StepEdit {
			continue // devbroker edit runs edit_file calls, JSON decoded by editfile's front end
		}
		isCommand := slices.ContainsFunc(commands, func(c struct {
			name string
			help string
			run  func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
		}) bool {
			return c.name == name
		})
		if isCommand && !slices.ContainsFunc(stepCommands, func(c stepCommand) bool { return c.command == name && c.step == st.Name }) {
			t.Errorf("the command %s runs the step %s, but stepCommands does not say which arguments it takes as positions", name, st.Name)
		}
	}
	for _, sc := range stepCommands {
		st, _ := engine.LookupStep(sc.step)
		spec := st.CallSpec()
		for _, p := range sc.positional {
			if spec.Arg(p) == nil {
				t.Errorf("%s takes %s as a position, which is not an argument of %s (%s)", sc.command, p, sc.step, spec.List())
			}
		}
		var help bytes.Buffer
		if code := run([]string{sc.command, "--help"}, nil, io.Discard, &help); code != exitBadUsage {
			t.Errorf("%s --help exited %d", sc.command, code)
		}
		for i := range spec.Args {
			a := &spec.Args[i]
			if slices.Contains(sc.positional, a.Name) {
				continue
			}
			if want := "-" + flagName(a.Name); !strings.Contains(help.String(), want) || !strings.Contains(help.String(), a.Doc) || !strings.Contains(help.String(), sc.flagUsage(a)) {
				t.Errorf("%s --help lacks %s with its argument's description %q:\n%s", sc.command, want, sc.flagUsage(a), help.String())
			}
		}
	}
}

// A flag takes its argument's type: a boolean needs no value, an integer
// is refused as text, an array's flag is repeated; only the flags given
// are arguments.
func TestStepFlagsTakeTheirArgumentsTypes(t *testing.T) {
	fl := flag.NewFlagSet("code-actions", flag.ContinueOnError)
	fl.SetOutput(io.Discard)
	sf := newStepFlags(fl, "code-actions")
	if err := fl.Parse([]string{"--only", "quickfix", "--only", "refactor", "--end-line", "3"}); err != nil {
		t.Fatal(err)
	}
	got := sf.args(map[string]any{"path": "a.go", "line": 2, "column": nil})
	if len(got) != 4 || !slices.Equal(got["only"].([]string), []string{"quickfix", "refactor"}) || got["end_line"] != 3 || got["path"] != "a.go" || got["line"] != 2 {
		t.Errorf("args = %v", got)
	}
	a, err := sf.decode(got)
	if err != nil {
		t.Fatal(err)
	}
	if ca := a.(*engine.CodeActionsArgs); *ca.EndLine != 3 || *ca.Line != 2 || ca.Column != nil {
		t.Errorf("decoded %+v", ca)
	}
	if err := fl.Parse([]string{"--end-line", "three"}); err == nil || !strings.Contains(err.Error(), "end-line must be an integer") {
		t.Errorf("--end-line three: %v", err)
	}
	fl = flag.NewFlagSet("references", flag.ContinueOnError)
	sf = newStepFlags(fl, "references")
	if err := fl.Parse([]string{"--include-declaration", "a.go:1:2"}); err != nil || fl.Arg(0) != "a.go:1:2" || sf.args(nil)["include_declaration"] != true {
		t.Errorf("--include-declaration: %v, args %v, rest %v", err, sf.args(nil), fl.Args())
	}
}

// A command's arguments go through the step's front end, the one every
// surface's go through: what it refuses is bad usage (exit 2), with its
// message, before anything runs.
func TestStepCommandsRefuseThroughTheFrontEnd(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"definition", "a.txt:1:2", "--symbol", "F"}, "give symbol (optionally with line) or line and column, not symbol and column"},
		{[]string{"code-actions", "a.txt", "--end-column", "3"}, "column, end_line and end_column need line"},
		{[]string{"search", ""}, "pattern is required (a string)"},
		{[]string{"rename", "a.txt:1:1", ""}, "new_name is required (a string): the new name"},
	} {
		var stderr bytes.Buffer
		args := append([]string{c.args[0], "--root", root}, c.args[1:]...)
		if code := run(args, nil, io.Discard, &stderr); code != exitBadUsage || !strings.Contains(stderr.String(), c.want) {
			t.Errorf("%v: exit %d, stderr:\n%s\nwant exit 2 saying %q", c.args, code, stderr.String(), c.want)
		}
	}
	if got := testtree.Read(t, root)["a.txt"]; got != "one\n" {
		t.Errorf("a.txt = %q", got)
	}
}
