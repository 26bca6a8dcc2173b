package main

// This file defines each language command's arguments and output; lang.go
// runs them.

import (
	"fmt"
	"io"

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
		sf := newStepFlags(f.fl, string(step))
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
		r.build = func(path string) ([]engine.Op, error) {
			a, err := sf.decode(sf.args(p.args(path)))
			return []engine.Op{{Step: step, Args: a}}, err
		}
		return r.run(f, stdout, stderr)
	}
}

// cmdSymbols is devbroker symbols [--root DIR] [--json] PATH | --query TEXT
func cmdSymbols(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	f := newLangFlags("symbols", stderr, "symbols [--root DIR] [--trust] [--json] PATH | --query TEXT\nPATH's outline (nested symbols named Type.Method), or the project's symbols whose name matches TEXT.")
	sf := newStepFlags(f.fl, "symbols")
	pos, ok := f.parse(args)
	if !ok || len(pos) > 1 || (len(pos) == 1) == (sf.args(nil)["query"] != nil) {
		f.fl.Usage()
		return exitBadUsage
	}
	r := &langRun{name: "symbols", kind: engine.Symbols, print: printAnswers}
	if len(pos) == 1 {
		r.path = pos[0]
	}
	r.build = func(path string) ([]engine.Op, error) {
		var at map[string]any
		if path != "" {
			at = map[string]any{"path": path}
		}
		a, err := sf.decode(sf.args(at))
		return []engine.Op{{Step: engine.StepSymbols, Args: a}}, err
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
	sf := newStepFlags(f.fl, "search")
	pos, ok := f.parse(args)
	if !ok || len(pos) == 0 {
		f.fl.Usage()
		return exitBadUsage
	}
	r := &langRun{name: "search", paths: pos[1:], usageFaults: true, print: printAnswers}
	r.build = func(string) ([]engine.Op, error) {
		given := map[string]any{"pattern": pos[0]}
		if len(r.paths) > 0 {
			given["paths"] = r.paths
		}
		a, err := sf.decode(sf.args(given))
		return []engine.Op{{Step: engine.StepSearch, Args: a}}, err
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
	sf := newStepFlags(f.fl, "rename")
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
	r.build = func(path string) ([]engine.Op, error) {
		given := p.args(path)
		given["new_name"] = pos[1]
		a, err := sf.decode(sf.args(given))
		ops := []engine.Op{{Step: engine.StepRename, Args: a}}
		if *write {
			ops = append(ops, checkWrite()...)
		}
		return ops, err
	}
	return r.run(f, stdout, stderr)
}

// cmdCodeActions is devbroker code-actions [--root DIR] [--json] [--only KIND]... PATH[:LINE[:COL]] [--end-line N [--end-column N]] [--apply ID [--write]]
func cmdCodeActions(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	f := newLangFlags("code-actions", stderr, `code-actions [--root DIR] [--trust] [--json] [--only KIND]... PATH[:LINE[:COL]] [--end-line N [--end-column N]] [--apply ID [--write]]
List the quick fixes and refactorings offered in PATH (on LINE, from COL,
to --end-line and --end-column), each with an id. --apply ID lists them
again and applies that one (ids stay the same for the same content and
place): it prints the change as a diff and writes nothing; with --write it
checks the result and writes it only when the check finds no error.`)
	sf := newStepFlags(f.fl, "code-actions")
	write := f.fl.Bool("write", false, "with --apply: check the changed code and write it when the check finds no error")
	pos, ok := f.parse(args)
	given := sf.args(nil)
	apply, _ := given["apply"].(string)
	if !ok || len(pos) != 1 || (*write && apply == "") {
		f.fl.Usage()
		return exitBadUsage
	}
	p, err := parsePosition(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "devbroker code-actions: %v\n", err)
		return exitBadUsage
	}
	r := &langRun{name: "code-actions", path: p.path, kind: engine.CodeActions, print: printAnswers}
	if apply != "" {
		r.print = printChange(*write)
	}
	r.build = func(path string) ([]engine.Op, error) {
		// --apply lists the actions again, then applies the one named:
		// two steps, the listing's arguments and the action's id.
		list := sf.args(p.args(path))
		delete(list, "apply")
		a, err := sf.decode(list)
		if err != nil {
			return nil, err
		}
		ops := []engine.Op{{Step: engine.StepCodeActions, Args: a}}
		if apply == "" {
			return ops, nil
		}
		b, err := sf.decode(map[string]any{"apply": apply})
		ops = append(ops, engine.Op{Step: engine.StepCodeActions, Args: b})
		if *write {
			ops = append(ops, checkWrite()...)
		}
		return ops, err
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
