package main

// This file chooses the targets of a module given with -module: the
// declarations asked about, the symbol queries and the rename, from the
// module's own packages type-checked once (go/packages), so that the same
// module always gets the same targets. See bench/README.md for the rule.

import (
	"cmp"
	"context"
	"fmt"
	"go/ast"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// decl is an exported function, or an exported method of an exported
// named type, declared in one of the module's packages, and its uses in
// the module's packages (not their tests: go/packages loads no test
// files, gopls's answers count them too).
type decl struct {
	pkg    string // the declaring package's import path
	file   string // slash path relative to the module
	symbol string // Name, or Type.Method
	name   string // the function's or method's name
	recv   string // the method's receiver type, "" for a function
	// uses count the identifiers that refer to it in other packages than
	// its own; pkgs and files are where they are.
	uses  int
	pkgs  map[string]bool
	files map[string]bool
	// ownUses count the uses in its own package.
	ownUses int
}

// key names a declaration across packages (a package type-checked from
// source and the same package read from export data give two objects).
func (d *decl) key() string { return d.pkg + "." + d.symbol }

// choice is what chooseTargets found.
type choice struct {
	nav     []*target
	rename  *target
	newName string
	queries []string
	// modulePath is the module's path, from go list.
	modulePath string
}

// funcKey is the key of the function or method obj (its origin, for an
// instance of a generic one), "" for any other object.
func funcKey(obj types.Object) string {
	f, ok := obj.(*types.Func)
	if !ok || f.Pkg() == nil {
		return ""
	}
	f = f.Origin()
	sig, _ := f.Type().(*types.Signature)
	if sig == nil || sig.Recv() == nil {
		return f.Pkg().Path() + "." + f.Name()
	}
	t := sig.Recv().Type()
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	named, ok := types.Unalias(t).(*types.Named)
	if !ok {
		return ""
	}
	return f.Pkg().Path() + "." + named.Obj().Name() + "." + f.Name()
}

// chooseTargets loads the module in dir (its packages with their syntax
// and types, not their tests; the dependencies from export data), counts
// the uses of every exported function, and exported method of an
// exported type, in the module's other packages, orders them by the
// count of packages using them (then of uses, then by import path and
// name) and chooses:
//
//   - navigation: the first function; the first function of another
//     package; the first method;
//   - the rename: the first function whose uses are in at most 60 files
//     (honnef.co/go/tools's is used in 48), renamed to Renamed+Name (a
//     name no identifier of the module has);
//   - the symbol queries: the three navigation targets' names, the
//     method's receiver type, and the first two package-level names of any
//     kind, in the same order, not yet queried.
//
// Declarations (functions and the names the queries use alike) in
// generated files, in files with a build constraint and
// in package main are left out.
func chooseTargets(ctx context.Context, dir string) (*choice, error) {
	cfg := &packages.Config{
		Context: ctx,
		Dir:     dir,
		Env:     os.Environ(),
		Mode:    packages.NeedName | packages.NeedModule | packages.NeedFiles | packages.NeedSyntax | packages.NeedTypes | packages.NeedTypesInfo,
	}
	pkgs, err := packages.Load(cfg, "./...")
	if err != nil {
		return nil, fmt.Errorf("loading the module's packages: %w", err)
	}
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, err
	}
	rel := func(abs string) string {
		if r, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(r) {
			return filepath.ToSlash(r)
		}
		if r, err := filepath.Rel(dir, abs); err == nil && filepath.IsLocal(r) {
			return filepath.ToSlash(r)
		}
		return ""
	}
	slices.SortFunc(pkgs, func(a, b *packages.Package) int { return cmp.Compare(a.PkgPath, b.PkgPath) })
	ch := &choice{}
	decls := map[string]*decl{}
	var names []*decl // package-level names of any kind, for the queries
	nameDecl := map[string]*decl{}
	var skipped []string
	for _, p := range pkgs {
		if len(p.Errors) > 0 || p.Types == nil {
			skipped = append(skipped, p.PkgPath)
			continue
		}
		if ch.modulePath == "" && p.Module != nil {
			ch.modulePath = p.Module.Path
		}
		kept := map[string]bool{} // the package's files whose declarations count
		for _, f := range p.Syntax {
			abs := p.Fset.File(f.Pos()).Name()
			file := rel(abs)
			if file == "" || p.Name == "main" || ast.IsGenerated(f) || hasBuildConstraint(f) {
				continue
			}
			kept[abs] = true
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !fd.Name.IsExported() {
					continue
				}
				recv := receiver(fd)
				if recv == "?" || recv != "" && !ast.IsExported(recv) {
					continue
				}
				dc := &decl{pkg: p.PkgPath, file: file, name: fd.Name.Name, recv: recv, symbol: fd.Name.Name, pkgs: map[string]bool{}, files: map[string]bool{}}
				if recv != "" {
					dc.symbol = recv + "." + fd.Name.Name
				}
				decls[dc.key()] = dc
			}
		}
		for _, name := range p.Types.Scope().Names() {
			if pos := p.Types.Scope().Lookup(name).Pos(); ast.IsExported(name) && pos.IsValid() && kept[p.Fset.File(pos).Name()] {
				dc := &decl{pkg: p.PkgPath, name: name, symbol: name, pkgs: map[string]bool{}, files: map[string]bool{}}
				nameDecl[dc.key()] = dc
				names = append(names, dc)
			}
		}
	}
	if len(skipped) > 0 {
		logf("choosing the targets: %d packages with errors left out (%s)", len(skipped), short(skipped))
	}
	for _, p := range pkgs {
		if len(p.Errors) > 0 || p.TypesInfo == nil {
			continue
		}
		for id, obj := range p.TypesInfo.Uses {
			if obj.Pkg() == nil {
				continue
			}
			own := obj.Pkg().Path() == p.PkgPath
			if k := funcKey(obj); k != "" {
				if dc := decls[k]; dc != nil {
					dc.count(p, id, own, rel)
				}
			}
			if obj.Parent() == obj.Pkg().Scope() {
				if dc := nameDecl[obj.Pkg().Path()+"."+obj.Name()]; dc != nil {
					dc.count(p, id, own, rel)
				}
			}
		}
	}
	all := make([]*decl, 0, len(decls))
	for _, dc := range decls {
		if len(dc.pkgs) > 0 {
			all = append(all, dc)
		}
	}
	slices.SortFunc(all, byUse)
	slices.SortFunc(names, byUse)
	return ch, ch.pick(all, names, func(dc *decl) bool { return identUsed(pkgs, "Renamed"+dc.name) })
}

// count records a use of dc at id in package p.
func (dc *decl) count(p *packages.Package, id *ast.Ident, own bool, rel func(string) string) {
	if own {
		dc.ownUses++
		return
	}
	dc.uses++
	dc.pkgs[p.PkgPath] = true
	dc.files[rel(p.Fset.Position(id.Pos()).Filename)] = true
}

// byUse orders declarations by the count of other packages using them,
// then of uses, most first, then by package and symbol.
func byUse(a, b *decl) int {
	if c := cmp.Compare(len(b.pkgs), len(a.pkgs)); c != 0 {
		return c
	}
	if c := cmp.Compare(b.uses, a.uses); c != 0 {
		return c
	}
	return cmp.Or(cmp.Compare(a.pkg, b.pkg), cmp.Compare(a.symbol, b.symbol))
}

// renameMaxFiles is the most files with uses the rename target may have.
const renameMaxFiles = 60

// pick chooses from the declarations in use order (all: functions and
// methods used in other packages; names: package-level names); taken says
// whether a rename's new name is already an identifier of the module.
func (ch *choice) pick(all, names []*decl, taken func(*decl) bool) error {
	var funcs []*decl
	var method *decl
	for _, dc := range all {
		switch {
		case dc.recv == "":
			funcs = append(funcs, dc)
		case method == nil:
			method = dc
		}
	}
	if len(funcs) < 3 || method == nil {
		return fmt.Errorf("the module has %d exported functions and %d methods used in another of its packages: navbench needs 3 and 1", len(funcs), len(all)-len(funcs))
	}
	wide, next := funcs[0], (*decl)(nil)
	for _, dc := range funcs[1:] {
		if dc.pkg != wide.pkg {
			next = dc
			break
		}
	}
	if next == nil {
		return fmt.Errorf("every exported function used in another package is %s's", wide.pkg)
	}
	var ren *decl
	for _, dc := range funcs {
		if len(dc.files) <= renameMaxFiles && !taken(dc) {
			ren = dc
			break
		}
	}
	if ren == nil {
		return fmt.Errorf("no exported function to rename (used in other packages, in at most %d files, Renamed+its name free)", renameMaxFiles)
	}
	for _, dc := range []*decl{wide, next, method} {
		ch.nav = append(ch.nav, dc.target())
	}
	ch.rename, ch.newName = ren.target(), "Renamed"+ren.name
	ch.rename.note = fmt.Sprintf("used %d times in %d files of %d other packages", ren.uses, len(ren.files), len(ren.pkgs))
	ch.queries = []string{wide.name, next.name, method.name, method.recv}
	for _, dc := range names {
		if len(ch.queries) == 6 {
			break
		}
		if !slices.Contains(ch.queries, dc.name) && len(dc.pkgs) > 0 {
			ch.queries = append(ch.queries, dc.name)
		}
	}
	return nil
}

// target is dc as a target (its position is found later).
func (dc *decl) target() *target {
	kind := "a function"
	if dc.recv != "" {
		kind = "a method"
	}
	return &target{file: dc.file, symbol: dc.symbol, note: fmt.Sprintf("%s used %d times in %d other packages", kind, dc.uses, len(dc.pkgs))}
}

// hasBuildConstraint says whether f has a //go:build line.
func hasBuildConstraint(f *ast.File) bool {
	for _, g := range f.Comments {
		if g.Pos() >= f.Package {
			break
		}
		for _, c := range g.List {
			if strings.HasPrefix(c.Text, "//go:build") {
				return true
			}
		}
	}
	return false
}

// identUsed says whether any of the packages has an identifier name.
func identUsed(pkgs []*packages.Package, name string) bool {
	for _, p := range pkgs {
		for _, f := range p.Syntax {
			found := false
			ast.Inspect(f, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && id.Name == name {
					found = true
				}
				return !found
			})
			if found {
				return true
			}
		}
	}
	return false
}

// describe lists the choice, for -targets.
func (ch *choice) describe() string {
	var b strings.Builder
	fmt.Fprintf(&b, "module %s\n", ch.modulePath)
	for _, t := range ch.nav {
		fmt.Fprintf(&b, "navigation: %s: %s\n", t, t.note)
	}
	fmt.Fprintf(&b, "rename: %s to %s: %s\n", ch.rename, ch.newName, ch.rename.note)
	fmt.Fprintf(&b, "symbol queries: %s\n", strings.Join(ch.queries, ", "))
	return b.String()
}
