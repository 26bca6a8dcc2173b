package main

// This file defines the language commands: definition, references,
// hover, symbols, rename and code-actions, each one step of a plan (two
// or more for rename --write and code-actions --apply) over the files on
// disk, answered through the language server of the file's language; and
// search, which needs no language server.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// position is a command line's PATH[:LINE[:COL]].
type position struct {
	path         string
	line, column *int
}

// parsePosition splits PATH:LINE:COL, PATH:LINE or PATH: the trailing
// numbers are the line and the column (a path may hold other colons).
func parsePosition(s string) (position, error) {
	var nums []int
	rest := s
	for len(nums) < 2 {
		i := strings.LastIndexByte(rest, ':')
		if i < 0 {
			break
		}
		n, err := strconv.Atoi(rest[i+1:])
		if err != nil || rest[i+1:] == "" || rest[i+1] == '+' || rest[i+1] == '-' {
			break
		}
		nums = append([]int{n}, nums...)
		rest = rest[:i]
	}
	if rest == "" {
		return position{}, fmt.Errorf("%q names no file: give PATH:LINE:COL, or PATH with --symbol NAME", s)
	}
	p := position{path: rest}
	if len(nums) > 0 {
		p.line = &nums[0]
	}
	if len(nums) > 1 {
		p.column = &nums[1]
	}
	return p, nil
}

// args are the position's arguments of a step that points at code, with
// path, the position's file relative to the root.
func (p position) args(path string) map[string]any {
	out := map[string]any{"path": path}
	if p.line != nil {
		out["line"] = *p.line
	}
	if p.column != nil {
		out["column"] = *p.column
	}
	return out
}

// langFlags are the flags every language command takes.
type langFlags struct {
	fl      *flag.FlagSet
	root    *string
	json    *bool
	quiet   *bool
	trusted func(string) drivers.Options
}

func newLangFlags(name string, stderr io.Writer, usage string) *langFlags {
	fl := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.SetOutput(stderr)
	f := &langFlags{
		fl:      fl,
		root:    fl.String("root", ".", "the root directory"),
		json:    fl.Bool("json", false, "print the result as JSON, as devbroker run prints it"),
		trusted: trustFlag(fl),
		quiet:   quietFlag(fl),
	}
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: devbroker %s\n%s\nExit status: 0 ok; 1 not ok (a step failed, or check found an error); 2 no language server answered, or bad usage.\n", name, usage)
		fl.PrintDefaults()
	}
	return f
}

// parse parses the flags wherever they stand among the arguments and
// returns the others, in order.
func (f *langFlags) parse(args []string) ([]string, bool) {
	var pos []string
	for {
		if err := f.fl.Parse(args); err != nil {
			return nil, false
		}
		if f.fl.NArg() == 0 {
			return pos, true
		}
		pos = append(pos, f.fl.Arg(0))
		args = f.fl.Args()[1:]
	}
}

// langRun is what a language command runs: the plan's steps and the file
// it is about ("" for a workspace search).
type langRun struct {
	name string // the command
	path string // the file the command points at, relative to the root
	kind engine.Kind
	// build makes the plan's steps for path; an error is bad usage: the
	// arguments its step's front end refused.
	build func(path string) ([]engine.Op, error)
	print func(w io.Writer, eng *engine.Engine, res *engine.Result)
	// paths are more paths the plan names, made relative to the root
	// before build runs.
	paths []string
	// usageFaults makes a bad_argument the step reports when it runs
	// (search's regular expression or glob) bad usage, exit 2.
	usageFaults bool
}

// run loads the root's drivers (probing only the language of r.path),
// runs r's plan, prints its result and returns the exit status.
func (r *langRun) run(f *langFlags, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root := *f.root
	set, _, err := drivers.LoadWith(ctx, root, loadOptions(f.trusted(root), drivers.ProbeLazy))
	if err != nil {
		fmt.Fprintf(stderr, "devbroker %s: %v\n", r.name, err)
		return exitToolFailure
	}
	defer set.Close()
	announce(stderr, r.name, set)
	set.StartEarly() // a language server starts beside its probe
	opts := engineOptions()
	opts.Capabilities, opts.Limits = set, cliLimits.Overlay(broker.ConfigLimits(set.Limits()))
	eng, err := engine.New(root, opts)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker %s: %v\n", r.name, err)
		return exitBadUsage
	}
	path := r.path
	if path != "" {
		if path, err = relPath(eng.FS(), path); err != nil {
			fmt.Fprintf(stderr, "devbroker %s: %v\n", r.name, err)
			return exitBadUsage
		}
		set.Prepare(r.kind, []string{path})
	}
	for i, p := range r.paths {
		if r.paths[i], err = relPath(eng.FS(), p); err != nil {
			fmt.Fprintf(stderr, "devbroker %s: %v\n", r.name, err)
			return exitBadUsage
		}
	}
	ops, err := r.build(path)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker %s: %v\n", r.name, err)
		return exitBadUsage
	}
	plan := &engine.Plan{Paths: []string{}, Ops: ops}
	for _, op := range plan.Ops {
		// Bad arguments are a usage error (exit 2), refused before the
		// plan runs.
		st, _ := engine.LookupStep(op.Step)
		if _, err := st.Check(op.Args); err != nil {
			fmt.Fprintf(stderr, "devbroker %s: %v\n", r.name, err)
			return exitBadUsage
		}
	}
	pctx, endProgress := withProgress(ctx, r.name, stderr, *f.quiet)
	res := eng.Run(pctx, plan)
	endProgress()
	if *f.json {
		if err := writeJSON(stdout, wireResult(eng, res)); err != nil {
			fmt.Fprintf(stderr, "devbroker %s: %v\n", r.name, err)
			return exitNotOK
		}
	} else {
		r.print(stdout, eng, res)
		if e := res.Error; e != nil {
			fmt.Fprintf(stderr, "devbroker %s: %s\n", r.name, e.Message)
		}
	}
	if r.usageFaults && res.Error != nil && res.Error.Kind == fault.BadArgument {
		return exitBadUsage
	}
	return runExit(res)
}

// relPath is a command line's path relative to the root: a relative one
// as it is (./ dropped), an absolute one made relative.
func relPath(fsys *rootfs.FS, p string) (string, error) {
	if strings.HasPrefix(p, "/") {
		return fsys.Rel(p)
	}
	return strings.TrimPrefix(p, "./"), nil
}

// printAnswers prints the answers in their one text form.
func printAnswers(w io.Writer, eng *engine.Engine, res *engine.Result) {
	for _, a := range wireResult(eng, res).Answers {
		a.WriteText(w)
	}
}
