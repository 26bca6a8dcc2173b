package main

// This file derives the flags of the commands that run a step from the
// engine's one description of the step's arguments (engine.Step.CallSpec):
// each argument a command does not take as a position is a flag named after
// it (include_declaration is --include-declaration), of its type, with its
// description as the flag's usage. What a command was given becomes the
// step's JSON arguments, decoded through the step's front end, the one the
// MCP tools, the editor endpoint and `devbroker run` go through: a bad
// argument is refused with the same message everywhere.

import (
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// stepCommand is a command that runs a step: the arguments it takes as
// positions (PATH:LINE:COL, PATTERN, NEW_NAME, PATH...), the others
// being flags.
type stepCommand struct {
	command    string
	step       engine.StepName
	positional []string
	// here says, by argument, what it means on the command line where
	// its description speaks of a session the command does not have;
	// its flag's usage adds it to the description.
	here map[string]string
}

// stepCommands lists the commands that run a step.
var stepCommands = []stepCommand{
	{"definition", engine.StepDefinition, []string{"path", "line", "column"}, nil},
	{"references", engine.StepReferences, []string{"path", "line", "column"}, nil},
	{"hover", engine.StepHover, []string{"path", "line", "column"}, nil},
	{"symbols", engine.StepSymbols, []string{"path"}, nil},
	{"rename", engine.StepRename, []string{"path", "line", "column", "new_name"}, nil},
	{"code-actions", engine.StepCodeActions, []string{"path", "line", "column"}, nil},
	{"search", engine.StepSearch, []string{"pattern", "paths"}, nil},
	{"format", engine.StepFormat, []string{"paths"}, map[string]string{
		"only": "here, with no session, the changed lines are those that differ from git revision --since REV's content, which it needs",
	}},
	{"lint", engine.StepLint, []string{"paths"}, nil},
	{"check", engine.StepCheck, []string{"paths"}, nil},
	{"test", engine.StepTest, []string{"paths"}, nil},
}

// stepFlags are the flags of a step command, derived from its step's
// arguments.
type stepFlags struct {
	st    *engine.Step
	fl    *flag.FlagSet
	flags map[string]*argFlag // by argument name
}

// newStepFlags defines on fl a flag for each argument of the step of
// command that the command does not take as a position.
func newStepFlags(fl *flag.FlagSet, command string) *stepFlags {
	i := slices.IndexFunc(stepCommands, func(c stepCommand) bool { return c.command == command })
	if i < 0 {
		panic("no step command " + command)
	}
	sc := stepCommands[i]
	st, ok := engine.LookupStep(sc.step)
	if !ok {
		panic("no step " + sc.step)
	}
	f := &stepFlags{st: st, fl: fl, flags: map[string]*argFlag{}}
	for i := range st.CallSpec().Args {
		a := &st.CallSpec().Args[i]
		if slices.Contains(sc.positional, a.Name) {
			continue
		}
		switch {
		case a.Type == "string", a.Type == "integer", a.Type == "boolean":
		case a.Type == "array" && a.Items != nil && a.Items.Type == "string":
		default:
			panic(fmt.Sprintf("%s: the argument %s (%s) can be no flag: take it as a position", command, a.Name, a.Want()))
		}
		af := &argFlag{arg: a}
		f.flags[a.Name] = af
		fl.Var(af, flagName(a.Name), sc.flagUsage(a))
	}
	return f
}

// flagName is an argument's flag: its name with dashes.
func flagName(arg string) string { return strings.ReplaceAll(arg, "_", "-") }

// flagUsage is an argument's flag's usage: its description, what it
// means on the command line (here), and for an array that the flag may
// be repeated.
func (sc stepCommand) flagUsage(a *jsonarg.Arg) string {
	u := a.Doc
	if h := sc.here[a.Name]; h != "" {
		u += "; " + h
	}
	if a.Type == "array" {
		u += "; may be repeated"
	}
	return u
}

// args are the step's arguments the command was given: its flags that
// were set, and the positions (nil values left out).
func (f *stepFlags) args(positions map[string]any) map[string]any {
	out := map[string]any{}
	f.fl.Visit(func(fl *flag.Flag) {
		if af, ok := fl.Value.(*argFlag); ok && f.flags[af.arg.Name] == af {
			out[af.arg.Name] = af.value
		}
	})
	for k, v := range positions {
		if v != nil {
			out[k] = v
		}
	}
	return out
}

// decode decodes args through the step's front end (engine.Step.Decode).
func (f *stepFlags) decode(args map[string]any) (engine.Args, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, err
	}
	return f.st.Decode(raw)
}

// argFlag is the flag of one argument, of its type: a string, an integer,
// a boolean, or an array of strings (the flag repeated).
type argFlag struct {
	arg   *jsonarg.Arg
	value any
}

func (f *argFlag) String() string {
	if f == nil || f.value == nil {
		return ""
	}
	return fmt.Sprint(f.value)
}

func (f *argFlag) Set(s string) error {
	switch f.arg.Type {
	case "string":
		f.value = s
	case "integer":
		n, err := strconv.Atoi(s)
		if err != nil {
			return fmt.Errorf("%s must be an integer", flagName(f.arg.Name))
		}
		f.value = n
	case "boolean":
		b, err := strconv.ParseBool(s)
		if err != nil {
			return fmt.Errorf("%s must be true or false", flagName(f.arg.Name))
		}
		f.value = b
	default: // an array of strings (newStepFlags defines no other)
		vals, _ := f.value.([]string)
		f.value = append(vals, s)
	}
	return nil
}

// IsBoolFlag makes a boolean argument's flag take no value (--regex).
func (f *argFlag) IsBoolFlag() bool { return f.arg.Type == "boolean" }
