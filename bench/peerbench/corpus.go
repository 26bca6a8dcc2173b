package main

// This file defines the measured module: where it comes from (the module
// cache, -module, or a small generated one for -smoke), its copies (one
// per candidate, so that one's writes never wake another's language
// server), the edited file and the edit.

import (
	"context"
	"fmt"
	"go/build"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/bench/internal/modcache"
	"golang.org/x/mod/modfile"
)

// The default module: staticcheck's, in the module cache because devbroker
// links it in.
const (
	defaultModule  = "honnef.co/go/tools"
	defaultVersion = "v0.8.1"
	// defaultFile's package is imported by 113 of the module's files.
	defaultFile = "analysis/code/code.go"
)

// errorLine is the line each edit appends or removes: a type error.
const errorLine = `var _ int = "devbroker-bench"`

// wantMessage is what every correct report of errorLine contains.
const wantMessage = `"devbroker-bench"`

// corpus is the module and what is edited in it.
type corpus struct {
	tmp   string // the run's temporary directory
	src   string // the module copied from
	label string // what src is, for the results
	// section is the results file's section: peerbench's own for the
	// default module, "peerbench MODULE-PATH" for one -module names.
	section string
	file    string // the edited file, a slash path relative to the module
}

// newCorpus finds (or, with -smoke, generates) the module and loads it once
// (go list -deps), so that downloads count for no candidate.
func newCorpus(ctx context.Context, tmp string, o options) (*corpus, error) {
	c := &corpus{tmp: tmp, src: o.module, label: o.module, file: o.file, section: sectionName}
	switch {
	case o.smoke && o.module == "":
		c.src, c.label = filepath.Join(tmp, "smoke-src"), "a generated module (10 files in one package, a main package importing it)"
		if c.file == "" {
			c.file = "lib/lib0.go"
		}
		if err := modcache.WriteTree(c.src, smokeModule()); err != nil {
			return nil, err
		}
	case o.module == "":
		var err error
		if c.src, err = modcache.Download(ctx, defaultModule+"@"+defaultVersion); err != nil {
			return nil, err
		}
		c.label = defaultModule + "@" + defaultVersion
		if c.file == "" {
			c.file = defaultFile
		}
	case o.file == "":
		return nil, fmt.Errorf("-file is required with -module: name a .go file, relative to the module, of a package others import")
	default:
		data, err := os.ReadFile(filepath.Join(c.src, "go.mod"))
		if err != nil {
			return nil, fmt.Errorf("-module: %w", err)
		}
		path := modfile.ModulePath(data)
		if path == "" {
			return nil, fmt.Errorf("-module: %s names no module", filepath.Join(c.src, "go.mod"))
		}
		c.label, c.section = modcache.Label(path, c.src), sectionName+" "+path
	}
	if _, err := os.Stat(filepath.Join(c.src, filepath.FromSlash(c.file))); err != nil {
		return nil, fmt.Errorf("the edited file: %w (give -file relative to the module)", err)
	}
	logf("loading %s once (go list -deps ./...)", c.label)
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "./...")
	cmd.Dir = c.src
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go list in %s: %w\n%s", c.src, err, out)
	}
	return c, nil
}

// smokeModule is a module whose package lib has ten files and is imported
// by the main package.
func smokeModule() map[string]string {
	files := map[string]string{
		"go.mod":  "module example.com/smoke\n\ngo 1.22\n",
		"main.go": "package main\n\nimport \"example.com/smoke/lib\"\n\nfunc main() {\n\tprintln(lib.F0())\n}\n",
	}
	for i := range 10 {
		files[fmt.Sprintf("lib/lib%d.go", i)] = fmt.Sprintf("package lib\n\n// F%d returns %d.\nfunc F%d() int {\n\treturn %d\n}\n", i, i, i, i)
	}
	return files
}

// copyOf makes a writable copy of the module named name and returns its
// root (symlinks resolved, as the servers report paths).
func (c *corpus) copyOf(name string) (string, error) {
	return modcache.CopyResolved(c.src, filepath.Join(c.tmp, name))
}

// sessionFiles are n files of the module for n concurrent sessions, the
// edited file's package first: Go files built on this platform, not tests.
func (c *corpus) sessionFiles(n int) ([]string, error) {
	var same, other []string
	dir := path.Dir(c.file)
	err := filepath.WalkDir(c.src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) && p != c.src {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if ok, err := build.Default.MatchFile(filepath.Dir(p), d.Name()); err != nil || !ok {
			return nil
		}
		rel, _ := filepath.Rel(c.src, p)
		rel = filepath.ToSlash(rel)
		if path.Dir(rel) == dir {
			same = append(same, rel)
		} else {
			other = append(other, rel)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.Sort(same)
	slices.Sort(other)
	files := append(same, other...)
	if len(files) < n {
		return nil, fmt.Errorf("%d sessions need %d Go files; the module has %d", n, n, len(files))
	}
	return files[:n], nil
}

// otherFile is the file the put-back mode changes besides the edited one:
// another file of its package when it has one.
func (c *corpus) otherFile() (string, error) {
	files, err := c.sessionFiles(2)
	if err != nil {
		return "", err
	}
	if files[0] != c.file {
		return files[0], nil
	}
	return files[1], nil
}

// edit is the one-line change of one file.
type edit struct {
	file   string // slash path relative to the root
	clean  string // the file's content without the error
	anchor string // the file's last lines, unique in it: the edit goes after them
}

func newEdit(root, file string) (*edit, error) {
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil {
		return nil, err
	}
	e := &edit{file: file, clean: string(data)}
	if e.anchor, err = uniqueTail(e.clean); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return e, nil
}

// uniqueTail is the shortest run of the text's last lines (its trailing
// newlines left out) that occurs once in it.
func uniqueTail(text string) (string, error) {
	body := strings.TrimRight(text, "\n")
	if strings.Contains(body, "\r") {
		return "", fmt.Errorf("has CRLF line endings; choose a file with LF")
	}
	lines := strings.Split(body, "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		tail := strings.Join(lines[i:], "\n")
		if strings.TrimSpace(tail) != "" && strings.Count(text, tail) == 1 {
			return tail, nil
		}
	}
	return "", fmt.Errorf("no unique tail")
}

// The lines an edit appends to a file (at most one at a time): the
// toggle's error, and the distinct edits' new states, each never seen
// before in the run: an error with a string of its own, or a clean
// declaration with a name of its own.
func errorLineN(k int) string { return fmt.Sprintf(`var _ int = "devbroker-bench-%d"`, k) }
func cleanLineN(k int) string { return fmt.Sprintf("const devbrokerBench%d = %d", k, k) }
func otherLineN(k int) string { return fmt.Sprintf("const devbrokerOther%d = %d", k, k) }

// want is what a correct report of the appended line's error contains,
// or "" when line is no error: its string constant, quotes included (so
// that "devbroker-bench-1" is not found in "devbroker-bench-17").
func want(line string) string {
	if s, ok := strings.CutPrefix(line, "var _ int = "); ok {
		return s
	}
	return ""
}

// text is the file with line appended ("" for the clean file).
func (e *edit) text(line string) string {
	if line == "" {
		return e.clean
	}
	return strings.TrimRight(e.clean, "\n") + "\n\n" + line + "\n"
}

// change is the find/replace pair that turns e.text(from) into
// e.text(to): whole lines, so that both edit and str_replace take it.
func (e *edit) change(from, to string) (find, replace string) {
	find, replace = e.anchor, e.anchor
	if from != "" {
		find += "\n\n" + from
	}
	if to != "" {
		replace += "\n\n" + to
	}
	return find, replace
}

// broken is the file with the error appended.
func (e *edit) broken() string { return e.text(errorLine) }

// errLine is the 1-based line an appended line is on.
func (e *edit) errLine() int {
	return strings.Count(strings.TrimRight(e.clean, "\n"), "\n") + 3
}

// replacement is the find/replace pair that makes the file broken (or
// clean again).
func (e *edit) replacement(broken bool) (find, replace string) {
	if broken {
		return e.change("", errorLine)
	}
	return e.change(errorLine, "")
}

// toggle is the change that makes e's file broken or clean again.
func toggle(e *edit, broken bool) change {
	if broken {
		return change{e, "", errorLine}
	}
	return change{e, errorLine, ""}
}

// change is one file's edit from one appended line to another ("" for
// none).
type change struct {
	e        *edit
	from, to string
}
