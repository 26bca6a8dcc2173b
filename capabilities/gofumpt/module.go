package gofumpt

// This file defines the go.mod lookup that gives each file its formatting
// options, as the gofumpt CLI's -lang and -modpath defaults would, with
// two differences:
//
//   - The workspace comes first. At each directory, from the file's own
//     upward, a go.mod in the workspace (changed, added, or only in
//     memory) wins; a go.mod deleted in the workspace does not count; only
//     then is the disk consulted.
//   - Above the root, the disk is read as the drivers' one rule says
//     ([capabilities.GoModule], which staticcheck's staging follows too):
//     the nearest directory above the root with a go.mod or go.work is
//     the root's module context, and its go.mod (if it has one) gives the
//     options, as it does to gopls and the CLI. Only that go.mod is read
//     above the root; no file there is formatted or shown. Under the root,
//     disk reads go through engine/rootfs, so a symlinked go.mod that points
//     outside the root is not followed.

// As in the CLI, an unreadable go.mod is passed over and a go.mod without
// a go directive means go1.16. A go.mod that does not parse, or whose go
// version gofumpt cannot take ("1.21.0rc1" parses, and makes the CLI
// panic), stops the search: its files are not formatted, and carry a
// diagnostic naming the go.mod. (The CLI formats them with the defaults,
// which can regroup the module's own imports as standard library.)

import (
	"errors"
	goversion "go/version"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/mod/modfile"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/internal/gomod"
)

// module is what the nearest go.mod says about formatting.
type module struct {
	// gomod is the workspace path of the go.mod, "" when none was found.
	gomod string
	// lang is the language version, "go"-prefixed ("go1.22"); "" when
	// there is no go.mod.
	lang string
	// path is the module path.
	path string
	// problem says why the go.mod could not be used, "" when it could.
	problem string
}

// modules finds and caches the modules of one run's files.
type modules struct {
	req     *capabilities.Request
	deleted map[string]bool
	root    *rootfs.FS // nil when the root cannot be opened
	byDir   map[string]module
}

func newModules(req *capabilities.Request) *modules {
	m := &modules{req: req, deleted: map[string]bool{}, byDir: map[string]module{}}
	for _, p := range req.Deleted {
		m.deleted[p] = true
	}
	if req.Root != "" {
		if r, err := rootfs.New(req.Root); err == nil {
			m.root = r
		}
	}
	return m
}

// of returns the module of the file at workspace path p.
func (m *modules) of(p string) module {
	return m.inDir(path.Dir(p))
}

// inDir returns the module of directory dir ("." is the root).
func (m *modules) inDir(dir string) module {
	if mod, ok := m.byDir[dir]; ok {
		return mod
	}
	mod, found := m.here(dir)
	switch {
	case found:
	case dir != ".":
		mod = m.inDir(path.Dir(dir))
	default:
		mod = m.aboveRoot()
	}
	m.byDir[dir] = mod
	return mod
}

// here reads dir's own go.mod, reporting whether there is one.
func (m *modules) here(dir string) (module, bool) {
	gomod := path.Join(dir, "go.mod")
	var data []byte
	if doc, ok := m.req.All[gomod]; ok && doc != nil {
		data = doc.Bytes()
	} else if m.deleted[gomod] || m.root == nil {
		return module{}, false
	} else {
		var err error
		data, _, err = m.root.ReadFile(gomod)
		if err != nil {
			// The CLI walks on past any go.mod it cannot read.
			return module{}, false
		}
	}
	return parseModule(gomod, data), true
}

// aboveRoot returns the module of the root's module context above it:
// the go.mod of [capabilities.GoModule]'s directory, named relative to
// the root ("../go.mod"); no module when that directory has only a
// go.work, or there is none.
func (m *modules) aboveRoot() module {
	root, err := filepath.Abs(m.req.Root)
	if m.req.Root == "" || err != nil || filepath.Dir(root) == root {
		return module{}
	}
	dir, hasMod, _ := capabilities.GoModule(filepath.Dir(root))
	if !hasMod {
		return module{}
	}
	file := filepath.Join(dir, "go.mod")
	name := file
	if rel, err := filepath.Rel(root, file); err == nil {
		name = filepath.ToSlash(rel)
	}
	f, err := gomod.Read(file)
	var bad modfile.ErrorList
	if errors.As(err, &bad) {
		return unparsed(name, err)
	}
	if err != nil {
		return module{} // the CLI walks on past a go.mod it cannot read
	}
	return moduleOf(name, f)
}

// parseModule reads the options from a go.mod's content.
func parseModule(name string, data []byte) module {
	f, err := gomod.Parse(name, data)
	if err != nil {
		return unparsed(name, err)
	}
	return moduleOf(name, f)
}

// unparsed is the module of a go.mod that does not parse.
func unparsed(name string, err error) module {
	return module{gomod: name, problem: "it does not parse: " + oneLine(err)}
}

// moduleOf reads the options from a parsed go.mod.
func moduleOf(name string, f *modfile.File) module {
	mod := module{gomod: name}
	mod.lang = "go1.16" // no go directive: https://go.dev/ref/mod#go-mod-file-go
	if f.Go != nil {
		mod.lang = "go" + f.Go.Version
	}
	if f.Module != nil {
		mod.path = f.Module.Mod.Path
	}
	// modfile accepts versions that go/version, and so gofumpt, does not
	// ("1.21.0rc1"); gofumpt panics on them.
	if !goversion.IsValid(mod.lang) {
		mod.problem = "its go directive " + strings.TrimPrefix(mod.lang, "go") + " is not a valid Go version"
		mod.lang, mod.path = "", ""
	}
	return mod
}

func oneLine(err error) string {
	return strings.ReplaceAll(err.Error(), "\n", "; ")
}
