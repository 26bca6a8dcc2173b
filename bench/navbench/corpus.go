package main

// This file defines the measured module (honnef.co/go/tools from the
// module cache, one given with -module, or a small generated one for
// -smoke), its copies (one per side, so that one side's language server
// never sees the other's work) and the targets: the declarations asked
// about and renamed (fixed for the default and the smoke modules, chosen
// by chooseTargets for one given with -module).

import (
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/devbroker/devbroker/bench/internal/modcache"
)

// The default module: staticcheck's, in the module cache because
// devbroker links it in.
const (
	defaultModule  = "honnef.co/go/tools"
	defaultVersion = "v0.8.1"
)

// corpus is the module and its targets.
type corpus struct {
	tmp    string // the run's temporary directory
	src    string // the module copied from
	label  string // what src is, for the results
	nav    []*target
	rename *target
	// newName is the rename's new name.
	newName string
	// queries are the workspace symbol searches.
	queries []string
	// section is the results file's section the run rewrites: navbench
	// for the default module, "navbench MODULE" for one given with
	// -module, so that each module's results are kept.
	section string
	// chosen says that the targets were chosen from the module (-module).
	chosen bool
}

// target is a declaration: a function, or a method named Type.Method.
type target struct {
	file   string // slash path relative to the module
	symbol string // as devbroker's symbol argument takes it
	note   string // what it is, for the results
	// line and column (1-based; the column in characters) are where its
	// name is.
	line, column int
	// char is column as LSP counts it: 0-based UTF-16 units.
	char int
}

func (t *target) String() string { return t.symbol + " (" + t.file + ")" }

// newCorpus finds (or, with -smoke, generates) the module, finds its
// targets and loads it once (go list -deps), so that downloads count for
// neither side. A module given with -module gets the targets
// chooseTargets finds in it.
func newCorpus(ctx context.Context, tmp string, o options) (*corpus, error) {
	c := &corpus{tmp: tmp, section: sectionName}
	switch {
	case o.module != "":
		abs, err := filepath.Abs(o.module)
		if err != nil {
			return nil, err
		}
		c.src, c.chosen = abs, true
	case o.smoke:
		c.src, c.label = filepath.Join(tmp, "smoke-src"), "a generated module (package lib, three packages and main using it)"
		if err := modcache.WriteTree(c.src, smokeModule()); err != nil {
			return nil, err
		}
		c.nav = []*target{
			{file: "lib/lib.go", symbol: "F", note: "a function used in 4 packages"},
			{file: "lib/lib.go", symbol: "T.M", note: "a method used in 4 packages"},
		}
		c.rename, c.newName = &target{file: "lib/lib.go", symbol: "F", note: "used in 4 packages"}, "Renamed"
		c.queries = []string{"F", "M", "A"}
	default:
		var err error
		if c.src, err = modcache.Download(ctx, defaultModule+"@"+defaultVersion); err != nil {
			return nil, err
		}
		c.label = defaultModule + "@" + defaultVersion
		c.nav = []*target{
			{file: "analysis/report/report.go", symbol: "Report", note: "a function called 221 times in 135 packages (more than devbroker lists: it counts the rest)"},
			{file: "analysis/code/code.go", symbol: "IsInTest", note: "a function used in 11 packages"},
			{file: "pattern/match.go", symbol: "Matcher.Match", note: "a method"},
		}
		c.rename, c.newName = &target{file: "analysis/edit/edit.go", symbol: "Fix", note: "called in 48 files of 48 packages"}, "NewFix"
		c.queries = []string{"Report", "IsInTest", "Match", "Callee", "Fn", "Pass"}
	}
	what := c.label
	if c.chosen {
		what = c.src
	}
	logf("loading %s once (go list -deps ./...)", what)
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "./...")
	cmd.Dir = c.src
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("go list in %s: %w\n%s", c.src, err, out)
	}
	if c.chosen {
		logf("choosing the targets (type-checking the module's packages)")
		ch, err := chooseTargets(ctx, c.src)
		if err != nil {
			return nil, fmt.Errorf("choosing the targets in %s: %w", c.src, err)
		}
		c.nav, c.rename, c.newName, c.queries = ch.nav, ch.rename, ch.newName, ch.queries
		c.label, c.section = modcache.Label(ch.modulePath, c.src), sectionName+" "+ch.modulePath
		logf("targets of %s:\n%s", c.label, ch.describe())
	}
	for _, t := range append([]*target{c.rename}, c.nav...) {
		if err := t.find(c.src); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// find sets t's position: the name of its declaration in its file.
func (t *target) find(root string) error {
	path := filepath.Join(root, filepath.FromSlash(t.file))
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, data, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	recv, name, isMethod := strings.Cut(t.symbol, ".")
	if !isMethod {
		recv, name = "", recv
	}
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || fd.Name.Name != name || receiver(fd) != recv {
			continue
		}
		p := fset.Position(fd.Name.Pos())
		lineStart := p.Offset - (p.Column - 1)
		prefix := string(data[lineStart:p.Offset])
		t.line, t.column, t.char = p.Line, utf8.RuneCountInString(prefix)+1, utf16Len(prefix)
		return nil
	}
	return fmt.Errorf("%s: no declaration of %s", t.file, t.symbol)
}

// receiver is the name of fd's receiver type, "" for a function.
func receiver(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	typ := fd.Recv.List[0].Type
	if s, ok := typ.(*ast.StarExpr); ok {
		typ = s.X
	}
	switch x := typ.(type) {
	case *ast.Ident:
		return x.Name
	case *ast.IndexExpr:
		if id, ok := x.X.(*ast.Ident); ok {
			return id.Name
		}
	}
	return "?"
}

// utf16Len is how many UTF-16 units s takes.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n++
		}
		n++
	}
	return n
}

// smokeModule is a module whose package lib declares F and T.M, used by
// three packages and main.
func smokeModule() map[string]string {
	files := map[string]string{
		"go.mod":     "module example.com/smoke\n\ngo 1.22\n",
		"lib/lib.go": "package lib\n\n// T is a type with a method.\ntype T struct{}\n\n// M returns 1.\nfunc (T) M() int { return 1 }\n\n// F returns 2.\nfunc F() int {\n\treturn 2\n}\n",
		"main.go":    "package main\n\nimport (\n\t\"example.com/smoke/a\"\n\t\"example.com/smoke/lib\"\n)\n\nfunc main() {\n\tprintln(lib.F(), lib.T{}.M(), a.A())\n}\n",
	}
	for _, p := range []string{"a", "b", "c"} {
		files[p+"/"+p+".go"] = fmt.Sprintf("package %s\n\nimport \"example.com/smoke/lib\"\n\n// %s adds.\nfunc %s() int {\n\treturn lib.F() + lib.T{}.M()\n}\n", p, strings.ToUpper(p), strings.ToUpper(p))
	}
	return files
}

// copyOf makes a writable copy of the module named name and returns its
// root (symlinks resolved, as the servers report paths).
func (c *corpus) copyOf(name string) (string, error) {
	return modcache.CopyResolved(c.src, filepath.Join(c.tmp, name))
}
