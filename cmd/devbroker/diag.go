package main

// This file defines the format, lint, check and test commands: the
// capability steps over the files on disk, for people and CI.

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
	"github.com/devbroker/devbroker/capabilities/gitrev"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/workspace"
)

// Exit code of format, lint and check when a tool failed.
const exitToolFailure = 2

// formatGCPercent is the garbage collector's target (GOGC) of the format
// command: gofumpt, linked in, allocates for every file it parses, and the
// heap that stays is mostly the files' text.
const formatGCPercent = 300

// cliLimits are the workspace limits of the on-disk commands: a whole
// repository, not an agent's working set.
var cliLimits = workspace.Limits{MaxFiles: 50000, MaxFileBytes: 8 << 20, MaxTotalBytes: 1 << 30}

// cmdDiag runs format, lint or check over files on disk:
// devbroker format|lint|check [--root DIR] [--format text|json|sarif] [--since REV] [--only changed] [--fix] [--write] [PATH...]
func cmdDiag(kind engine.Kind, args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet(string(kind), flag.ContinueOnError)
	fl.SetOutput(stderr)
	root := fl.String("root", ".", "the root directory")
	outFormat := fl.String("format", "text", "output format: text, json or sarif")
	trusted := trustFlag(fl)
	quiet := quietFlag(fl)
	// The step's own flags (lint's --fix), from its arguments; its PATHs
	// are the files the plan reads in.
	sf := newStepFlags(fl, string(kind))
	since := ""
	if kind == engine.Format {
		fl.StringVar(&since, "since", "", "with --only changed: the lines to format are those that differ from git revision `REV`'s content (git is read, nothing of the repository runs)")
	} else {
		fl.StringVar(&since, "since", "", "compare the findings with git revision `REV`'s content: list and count only those it did not have (git is read, nothing of the repository runs)")
	}
	write := false
	if kind == engine.Format || kind == engine.Lint {
		fl.BoolVar(&write, "write", false, "write the formatted or fixed files to disk")
	}
	fl.Usage = func() {
		fmt.Fprintf(stderr, "usage: devbroker %s [--root DIR] [--trust] [--quiet] [--format text|json|sarif]", kind)
		switch kind {
		case engine.Lint:
			fmt.Fprint(stderr, " [--since REV] [--fix] [--write]")
		case engine.Check, engine.Test:
			fmt.Fprint(stderr, " [--since REV]")
		case engine.Format:
			fmt.Fprint(stderr, " [--only changed --since REV] [--write]")
		}
		fmt.Fprintln(stderr, " [PATH...]\nPATHs are files, directories or globs relative to the root; default: every file a configured language covers that the project's own scope takes in (pyright's include and exclude, tsconfig.json's files, include and exclude). Directories and globs pass over the testdata and vendor directories they do not name, and what .gitignore ignores below what they name; a file too large or not text that a walk meets is skipped and named.\nExit status: 0 clean, 1 findings, 2 incomplete (a driver failed, or a named or changed file went unchecked), no file looked at, or bad usage. Files a walk swept in whose default tool is not installed are coverage, said on stderr, not a failure.")
		if kind == engine.Format {
			fmt.Fprintln(stderr, "With --only changed --since REV, only the lines that differ from REV's content are formatted: by range where the formatter can; the whole file where its output is canonical and the file was formatted at REV, or where REV lacks the file; any other file is left as it was, and stderr says why (not a failure).")
		}
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		return exitBadUsage
	}
	stepArgs, err := sf.decode(sf.args(nil))
	if err != nil {
		fmt.Fprintf(stderr, "devbroker %s: %v\n", kind, err)
		return exitBadUsage
	}
	if fa, ok := stepArgs.(*engine.FormatArgs); ok {
		// On the command line there is no session: the changed lines
		// are those that differ from a revision's content.
		switch {
		case fa.Only == engine.OnlyChanged && since == "":
			fmt.Fprintln(stderr, "devbroker format: --only changed formats the lines that differ from a git revision, and none was given: pass --since REV (--since HEAD: the changes not yet committed; --since main: those of the branch), or leave out --only to format whole files")
			return exitBadUsage
		case fa.Only == "" && since != "":
			fmt.Fprintln(stderr, "devbroker format: --since REV says which lines --only changed formats: pass --only changed too, or leave out --since to format whole files")
			return exitBadUsage
		}
	}
	switch *outFormat {
	case "text", "json", "sarif":
	default:
		fmt.Fprintf(stderr, "devbroker %s: --format must be text, json or sarif, not %q\n", kind, *outFormat)
		return exitBadUsage
	}
	if kind == engine.Format && os.Getenv("GOGC") == "" {
		// Formatting allocates much and keeps little beyond the files
		// it holds: a third of the collections (unless GOGC is set).
		debug.SetGCPercent(formatGCPercent)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	set, _, err := drivers.LoadWith(ctx, *root, loadOptions(trusted(*root), drivers.ProbeLazy))
	if err != nil {
		fmt.Fprintf(stderr, "devbroker %s: %v\n", kind, err)
		return exitToolFailure
	}
	defer set.Close()
	announce(stderr, string(kind), set)
	set.StartEarly() // a language server starts beside its probe
	opts := engineOptions()
	opts.Capabilities, opts.Limits = set, cliLimits.Overlay(broker.ConfigLimits(set.Limits()))
	if since != "" {
		// The revision's content is the baseline: read with git's
		// plumbing, before anything runs.
		fsys, err := rootfs.New(*root)
		if err != nil {
			fmt.Fprintf(stderr, "devbroker %s: %v\n", kind, err)
			return exitBadUsage
		}
		src, err := gitrev.Open(ctx, fsys, since)
		if err != nil {
			fmt.Fprintf(stderr, "devbroker %s: %v\n", kind, err)
			return exitBadUsage
		}
		opts.Since = src
	}
	eng, err := engine.New(*root, opts)
	if err != nil {
		fmt.Fprintf(stderr, "devbroker %s: %v\n", kind, err)
		return exitBadUsage
	}
	// The walk passes over what .gitignore ignores and, for the whole
	// root, what the project's own configuration leaves out of kind
	// (pyright's include, tsconfig.json's files).
	scope, warn := set.Scope(kind)
	sel, err := engine.Select(eng.FS(), engine.Walk{Covers: set.Covers, Scope: scope}, fl.Args())
	if err != nil {
		fmt.Fprintf(stderr, "devbroker %s: %v\n", kind, err)
		return exitBadUsage
	}
	var warnings []engine.Note
	if warn != nil {
		warnings = warn()
	}
	paths, swept := sel.Paths, sel.Swept
	if len(paths) == 0 {
		for _, n := range append(sel.Notes, warnings...) {
			fmt.Fprintf(stderr, "devbroker %s: %s\n", kind, n)
		}
		// An answer that looked at no file is not clean.
		which := "no file under " + eng.Root()
		if fl.NArg() > 0 {
			which = "no file the PATHs name"
		}
		fmt.Fprintf(stderr, "devbroker %s: looked at no file: %s is one a configured language covers (walks pass over version control, testdata and vendor directories and what .gitignore ignores; a walk of the whole root, what the project leaves out of its scope); an answer about no file is never clean: pass PATHs naming the files to %s\n", kind, which, kind)
		return exitToolFailure
	}
	// The probes and the language servers start while the files are read.
	set.Prepare(kind, paths)
	op := engine.Op{Step: engine.StepName(kind), Args: stepArgs}
	// The files a directory or glob (or no PATH) swept in are not asked
	// for: a default tool that is not installed leaves them uncovered,
	// which the answer says, rather than unchecked.
	plan := &engine.Plan{Paths: paths, Swept: swept, Notes: append(sel.Notes, warnings...), Ops: []engine.Op{op}}
	if since != "" && kind != engine.Format {
		// Only what the revision did not have is a finding; the rest is
		// listed apart (JSON's pre_existing, SARIF's unchanged results).
		plan.FailOn = engine.FailOnIntroduced
	}
	pctx, endProgress := withProgress(ctx, string(kind), stderr, *quiet)
	res := eng.Run(pctx, plan)
	endProgress()
	if write {
		writeAfter(ctx, eng, res)
	}
	if err := printDiag(stdout, kind, *outFormat, eng, res, write, set.Report()); err != nil {
		fmt.Fprintf(stderr, "devbroker %s: %v\n", kind, err)
		return exitToolFailure
	}
	return diagExit(kind, res, write, stderr)
}

// writeAfter writes what the step changed, for --write. Unlike a plan's
// write, it runs even when the step failed on its verdict (error findings
// or an incomplete answer): the command line asked for the formatted or
// fixed files, and its exit status reports the rest.
func writeAfter(ctx context.Context, eng *engine.Engine, res *engine.Result) {
	if e := res.Error; e != nil && e.Kind != fault.Diagnostics && !e.Kind.Incomplete() {
		return
	}
	wr := eng.Run(ctx, &engine.Plan{Paths: []string{}, Ops: []engine.Op{{Step: engine.StepWrite}}})
	res.Written, res.Changes, res.Merged = wr.Written, wr.Changes, wr.Merged
	if wr.Error != nil {
		e := *wr.Error
		e.Step = 2
		res.Error, res.OK = &e, false
	}
}

// findings counts what makes the exit status 1: error and warning
// diagnostics, and for format without --write, files that would change.
func findings(kind engine.Kind, res *engine.Result, write bool) int {
	n := 0
	for _, d := range res.Diagnostics {
		if d.Severity == engine.SeverityError || d.Severity == engine.SeverityWarning {
			n++
		}
	}
	if kind == engine.Format && !write {
		n += len(res.Changes)
	}
	return n
}

// diagExit maps a result to the exit status: 2 when the run or a driver
// failed, 1 for findings, 0 when clean, and says on stderr what was not
// covered (a line per coverage note; none changes the status).
// An unchecked language is a tool failure: some of its files were not
// looked at by a driver its list names; so is an answer no driver gave
// (no file was looked at).
func diagExit(kind engine.Kind, res *engine.Result, write bool, stderr io.Writer) int {
	for _, n := range res.Coverage {
		// announce said the configuration's own notes; a driver's
		// project file that could not be read is this answer's.
		if n.Kind != engine.NoteConfig || n.Driver != "" {
			fmt.Fprintf(stderr, "devbroker %s: %s\n", kind, n)
		}
	}
	for _, p := range res.Projects {
		fmt.Fprintf(stderr, "devbroker %s: %s\n", kind, p)
	}
	for _, f := range res.Formatted {
		// --only changed: a file whose changed lines could not be
		// formatted alone, left as it was, says why.
		if f.How == engine.FormatLeft {
			fmt.Fprintf(stderr, "devbroker %s: %s: left as it was: %s\n", kind, f.Path, f.Reason)
		}
	}
	if b := res.Baseline; b != nil && b.Since != "" {
		noun := "findings"
		if b.Introduced == 1 {
			noun = "finding"
		}
		fmt.Fprintf(stderr, "devbroker %s: %d %s new since %s, %d there already (text shows the new; json lists the others in pre_existing, sarif as unchanged)\n", kind, b.Introduced, noun, b.Since, b.PreExisting)
	}
	if e := res.Error; e != nil && e.Kind != fault.Diagnostics && !e.Kind.Incomplete() {
		fmt.Fprintf(stderr, "devbroker %s: %s\n", kind, e.Message)
		return exitToolFailure
	}
	failed := res.Error != nil && res.Error.Kind.Incomplete()
	if failed && len(res.Drivers) == 0 {
		// No driver answered: the step looked at no file, and says why.
		fmt.Fprintf(stderr, "devbroker %s: %s\n", kind, res.Error.Message)
	}
	for _, d := range res.Drivers {
		switch {
		case d.Status == engine.StatusUnchecked:
			// The message names the language's files, the list entry
			// nothing served, why, and how to install it.
			fmt.Fprintf(stderr, "devbroker %s: unchecked: %s\n", kind, d.Message)
			failed = true
		case d.Status != engine.StatusOK:
			fmt.Fprintf(stderr, "devbroker %s: driver %s: %s: %s\n", kind, d.Driver, d.Status, d.Message)
			failed = true
		case d.Message != "":
			// A fallback that served in place of another driver.
			fmt.Fprintf(stderr, "devbroker %s: %s: %s\n", kind, d.Driver, d.Message)
		}
	}
	if failed {
		return exitToolFailure
	}
	if findings(kind, res, write) > 0 {
		return exitNotOK
	}
	return exitOK
}

// printDiag writes the result in the chosen format; the probe's report
// names the tools' versions and addresses in SARIF.
func printDiag(w io.Writer, kind engine.Kind, format string, eng *engine.Engine, res *engine.Result, write bool, report *capabilities.Report) error {
	switch format {
	case "json":
		return writeJSON(w, wireResult(eng, res))
	case "sarif":
		return writeSARIF(w, res, sarifTools(report))
	}
	for _, d := range res.Diagnostics {
		fmt.Fprintln(w, d)
	}
	if kind == engine.Format || (kind == engine.Lint && len(res.Changes) > 0) {
		for _, c := range res.Changes {
			if write {
				fmt.Fprintf(w, "%s: rewritten\n", c.Path)
			} else {
				fmt.Fprintf(w, "%s: would be rewritten (+%d -%d lines); run with --write\n", c.Path, c.Added, c.Removed)
			}
		}
	}
	return nil
}
