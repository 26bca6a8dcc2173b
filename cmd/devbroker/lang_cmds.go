package main

// This file defines each language command's arguments and output; lang.go
// runs them.

import (
	"fmt"
	"io"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"github.com/devbroker/devbroker/engine"
)

// pointUsage is the position argument's usage.
const pointUsage = `POSITION is PATH:LINE:COL (1-based line and character), PATH with --symbol NAME
(a name, or Type.Method for a method, looked up in the file's outline), or
PATH:LINE with --symbol NAME (its first occurrence on that line). PATH is
relative to the root, or absolute. An ambiguous NAME fails, listing the
candidates with their lines.`

// cmdPoint is definition, references or hover:
// devbroker NAME [--root DIR] [--json] POSITION [--symbol NAME]
func cmdPoint(step engine.StepName) func([]string, io.Reader, io.Writer, io.Writer) int {
	return func(args []string, _ io.Reader, stdout, stderr io.Writer) int {
		extra := ""
		if step == engine.StepReferences {
			extra = " [--include-declaration]"
		}
		f := newLangFlags(string(step), stderr, fmt.Sprintf("%s [--root DIR] [--trust] [--json]%s POSITION [--symbol NAME]\n%s", step, extra, pointUsage))
		symbol := f.fl.String("symbol", "", "the code's name, or Type.Method, in PATH's outline (on LINE when given)")
		decl := false
		if step == engine.StepReferences {
			f.fl.BoolVar(&decl, "include-declaration", false, "also list the declaration")
		}
		pos, ok := f.parse(args)
		if !ok || len(pos) != 1 {
			f.fl.Usage()
			return exitBadUsage
		}
		p, err := parsePosition(pos[0])
		if err != nil {
			fmt.Fprintf(stderr, "devbroker %s: %v\n", step, err)
			return exitBadUsage
		}
		st, _ := engine.LookupStep(step)
		r := &langRun{name: string(step), path: p.path, kind: st.Kind, print: printAnswers}
		r.build = func(path string) []engine.Op {
			at := p.at(*symbol)
			at.Path = path
			var a engine.Args
			switch step {
			case engine.StepDefinition:
				a = &engine.DefinitionArgs{At: at}
			case engine.StepReferences:
				a = &engine.ReferencesArgs{At: at, IncludeDeclaration: decl}
			default:
				a = &engine.HoverArgs{At: at}
			}
			return []engine.Op{{Step: step, Args: a}}
		}
		return r.run(f, stdout, stderr)
	}
}

// cmdSymbols is devbroker symbols [--root DIR] [--json] PATH | --query TEXT
func cmdSymbols(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	f := newLangFlags("symbols", stderr, "symbols [--root DIR] [--trust] [--json] PATH | --query TEXT\nPATH's outline (nested symbols named Type.Method), or the project's symbols whose name matches TEXT.")
	query := f.fl.String("query", "", "search the whole project's symbols for TEXT (instead of PATH's outline)")
	pos, ok := f.parse(args)
	if !ok || len(pos) > 1 || (len(pos) == 1) == (*query != "") {
		f.fl.Usage()
		return exitBadUsage
	}
	r := &langRun{name: "symbols", kind: engine.Symbols, print: printAnswers}
	if len(pos) == 1 {
		r.path = pos[0]
	}
	r.build = func(path string) []engine.Op {
		return []engine.Op{{Step: engine.StepSymbols, Args: &engine.SymbolsArgs{Path: path, Query: *query}}}
	}
	return r.run(f, stdout, stderr)
}

// cmdSearch is devbroker search [--root DIR] [--json] [--regex] PATTERN [PATH|GLOB ...]
func cmdSearch(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	f := newLangFlags("search", stderr, `search [--root DIR] [--trust] [--json] [--regex] PATTERN [PATH|GLOB ...]
Find PATTERN in the root's files, printing each match as path:line:col: text
(sorted, at most 100, then the count of the rest and of the files searched).
What .gitignore ignores is skipped unless named, and so are version control
folders, symlinks, binary files and files over 2 MiB. PATTERN is literal
text; with --regex, an RE2 regular expression matched one line at a time.
PATHs (relative to the root, or absolute) and GLOBs (quoted: * within one
path segment, ** any depth) narrow the search. A PATTERN that begins with -
follows --. Nothing found is exit 0; a bad PATTERN or GLOB is exit 2.`)
	regex := f.fl.Bool("regex", false, "PATTERN is an RE2 regular expression")
	pos, ok := f.parse(args)
	if !ok || len(pos) == 0 {
		f.fl.Usage()
		return exitBadUsage
	}
	r := &langRun{name: "search", paths: pos[1:], usageFaults: true, print: printAnswers}
	r.build = func(string) []engine.Op {
		return []engine.Op{{Step: engine.StepSearch, Args: &engine.SearchArgs{Pattern: pos[0], Regex: *regex, Paths: r.paths}}}
	}
	return r.run(f, stdout, stderr)
}

// checkWrite are the steps that write a change only when it checks clean.
func checkWrite() []engine.Op {
	return []engine.Op{{Step: engine.StepCheck, Args: &engine.CheckArgs{}}, {Step: engine.StepWrite, Args: &engine.WriteArgs{}}}
}

// cmdRename is devbroker rename [--root DIR] [--json] [--write] POSITION [--symbol NAME] NEW_NAME
func cmdRename(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	f := newLangFlags("rename", stderr, "rename [--root DIR] [--trust] [--json] [--write] POSITION [--symbol NAME] NEW_NAME\n"+pointUsage+`
Without --write it prints the change as a diff and writes nothing; with
--write it renames, checks the result and writes it only when the check
finds no error.`)
	symbol := f.fl.String("symbol", "", "the code's name, or Type.Method, in PATH's outline (on LINE when given)")
	write := f.fl.Bool("write", false, "check the renamed code and write it when the check finds no error")
	pos, ok := f.parse(args)
	if !ok || len(pos) != 2 {
		f.fl.Usage()
		return exitBadUsage
	}
	p, err := parsePosition(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "devbroker rename: %v\n", err)
		return exitBadUsage
	}
	r := &langRun{name: "rename", path: p.path, kind: engine.Rename, print: printChange(*write)}
	r.build = func(path string) []engine.Op {
		at := p.at(*symbol)
		at.Path = path
		ops := []engine.Op{{Step: engine.StepRename, Args: &engine.RenameArgs{At: at, NewName: pos[1]}}}
		if *write {
			ops = append(ops, checkWrite()...)
		}
		return ops
	}
	return r.run(f, stdout, stderr)
}

// onlyFlag collects --only KIND, which may be repeated.
type onlyFlag []string

func (o *onlyFlag) String() string     { return strings.Join(*o, ",") }
func (o *onlyFlag) Set(s string) error { *o = append(*o, s); return nil }

// cmdCodeActions is devbroker code-actions [--root DIR] [--json] [--only KIND]... PATH[:LINE[:COL]] [--apply ID [--write]]
func cmdCodeActions(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	f := newLangFlags("code-actions", stderr, `code-actions [--root DIR] [--trust] [--json] [--only KIND]... PATH[:LINE[:COL]] [--apply ID [--write]]
List the quick fixes and refactorings offered in PATH (on LINE, from COL),
each with an id. --apply ID lists them again and applies that one (ids
stay the same for the same content and place): it prints the change as a
diff and writes nothing; with --write it checks the result and writes it
only when the check finds no error.`)
	var only onlyFlag
	f.fl.Var(&only, "only", "list only this kind and its sub-kinds (quickfix, refactor, source.organizeImports, ...); may be repeated")
	apply := f.fl.String("apply", "", "apply the action with this id")
	write := f.fl.Bool("write", false, "with --apply: check the changed code and write it when the check finds no error")
	pos, ok := f.parse(args)
	if !ok || len(pos) != 1 || (*write && *apply == "") {
		f.fl.Usage()
		return exitBadUsage
	}
	p, err := parsePosition(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "devbroker code-actions: %v\n", err)
		return exitBadUsage
	}
	r := &langRun{name: "code-actions", path: p.path, kind: engine.CodeActions, print: printAnswers}
	if *apply != "" {
		r.print = printChange(*write)
	}
	r.build = func(path string) []engine.Op {
		ops := []engine.Op{{Step: engine.StepCodeActions, Args: &engine.CodeActionsArgs{Path: path, Line: p.line, Column: p.column, Only: only}}}
		if *apply == "" {
			return ops
		}
		ops = append(ops, engine.Op{Step: engine.StepCodeActions, Args: &engine.CodeActionsArgs{Apply: *apply}})
		if *write {
			ops = append(ops, checkWrite()...)
		}
		return ops
	}
	return r.run(f, stdout, stderr)
}

// printChange prints what a rename or an applied code action changed: the
// files written, or, without --write, the change as a unified diff
// against the disk and a line saying nothing was written. When the check
// failed it prints the check's findings; when the action to apply was
// not offered, the actions that were.
func printChange(write bool) func(io.Writer, *engine.Engine, *engine.Result) {
	return func(w io.Writer, eng *engine.Engine, res *engine.Result) {
		for _, a := range res.Answers {
			if a.Applied != "" {
				fmt.Fprintf(w, "applied %q\n", a.Applied)
			}
		}
		if e := res.Error; e != nil && e.Name == string(engine.StepCodeActions) && e.Step == 2 {
			printAnswers(w, eng, res) // the listing, to pick an id from
		}
		for _, d := range res.Diagnostics {
			if d.Severity == engine.SeverityError {
				fmt.Fprintln(w, d)
			}
		}
		for _, p := range res.Written {
			fmt.Fprintf(w, "%s: written\n", p)
		}
		if write || res.Error != nil {
			return
		}
		for _, c := range res.Changes {
			from := c.Path
			if c.From != "" {
				from = c.From
			}
			var before, after string
			if b, _, err := eng.FS().ReadFile(from); err == nil {
				before = string(b)
			}
			if d, ok := eng.Workspace().Doc(c.Path); ok {
				after = d.Content()
			}
			if diff := udiff.Unified("a/"+from, "b/"+c.Path, before, after); diff != "" {
				fmt.Fprint(w, diff)
			} else if from != c.Path {
				fmt.Fprintf(w, "rename %s -> %s\n", from, c.Path)
			}
		}
		fmt.Fprintf(w, "not written: %d files would change; run again with --write to check and write them\n", len(res.Changes))
	}
}
