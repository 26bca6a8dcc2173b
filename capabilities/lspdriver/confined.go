package lspdriver

// This file defines how a language server of C and C++ runs in a root the
// user has not trusted (configs.Driver.ConfineIncludes): it reads what
// the files it opens include, and the flags of their compile commands,
// and would quote what it read (a macro's value in a diagnostic or a
// hover), so a request whose files would make it read a file outside the
// root (capabilities/confine.Reach) is not sent: it answers unchecked,
// saying which file reaches where and that trusting the root lifts this.
// clangd runs there without its .clangd files (the project's, which the
// root's trust covers as it covers .devbroker.toml, and the user's: one
// switch turns both off) and without its background index (which would
// read every file of the compile commands, and write an index under the
// root); it is not started before a request that passes.

import (
	"context"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/confine"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
)

// isClangd reports whether the server is clangd (clangd, clangd-17, ...).
func (d *Driver) isClangd() bool {
	return strings.HasPrefix(strings.TrimSuffix(filepath.Base(d.cfg.Command[0]), ".exe"), "clangd")
}

// serverArgs are the server's arguments (after its program): the
// configured ones, and for a confined clangd its own --enable-config and
// --background-index instead of the configured ones (clangd refuses an
// option given twice).
func (d *Driver) serverArgs() []string {
	args := d.cfg.Command[1:]
	if !d.cfg.ConfineIncludes || !d.isClangd() {
		return args
	}
	out := slices.DeleteFunc(slices.Clone(args), func(a string) bool {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		return strings.HasPrefix(a, "-") && (name == "enable-config" || name == "background-index")
	})
	return append(out, "--enable-config=false", "--background-index=false")
}

// confinedServer is the server as confine.Reach sees it.
func (d *Driver) confinedServer() confine.Server {
	d.mu.Lock()
	bin := d.bin
	d.mu.Unlock()
	if bin == "" {
		bin = d.cfg.Command[0]
	}
	return confine.Server{Bin: bin, Args: d.serverArgs(), Env: d.cfg.Env}
}

// confined is how a confined server takes req: the request it is sent
// (req itself, or req with the files that would make it read outside the
// root left out), and why files were left out ("" when none was). A nil
// request: nothing is sent (every file, or a changed file every request
// opens, reaches out).
func (d *Driver) confined(ctx context.Context, req *capabilities.Request) (*capabilities.Request, string) {
	if !d.cfg.ConfineIncludes {
		return req, ""
	}
	fsys, err := rootfs.New(req.Root)
	if err != nil {
		return nil, err.Error()
	}
	viewed := d.viewed(req)
	docs := d.confinedDocs(fsys, viewed)
	scan := confine.NewScan(ctx, fsys, d.confinedServer(), docs)
	asked := map[string]bool{}
	for _, p := range viewed.Files {
		asked[p] = true
	}
	// The changed files are opened with every request: one that reaches
	// out withholds them all.
	for _, doc := range docs {
		if !asked[doc.Path] {
			if why := scan.File(doc.Path); why != "" {
				return nil, d.trustHint(fsys.Root(), why)
			}
		}
	}
	var keep, held []string
	first := ""
	for _, p := range viewed.Files {
		why := scan.File(p)
		if why == "" {
			keep = append(keep, p)
			continue
		}
		held = append(held, p)
		if first == "" {
			first = why
		}
	}
	if len(held) == 0 {
		return req, ""
	}
	names := strings.Join(engine.FewPaths(held), ", ")
	if n := len(held) - engine.NotePaths; n > 0 {
		names += fmt.Sprintf(" and %d more", n)
	}
	why := fmt.Sprintf("%s not checked: %s", names, d.trustHint(fsys.Root(), first))
	if len(keep) == 0 {
		return nil, why
	}
	out := *req
	out.Files = keep
	return &out, why
}

// trustHint is the answer's message for a reason the server is withheld.
func (d *Driver) trustHint(root, why string) string {
	return fmt.Sprintf("%s does not answer about these files in a root you have not trusted, since it would read a file outside the root: %s; review the root, then run devbroker trust %s (or pass --trust for one run)", d.name, why, root)
}

// confinedDocs are the documents a request would open (as view opens
// them): the requested files and the changed ones of their extensions,
// at their workspace content (the disk's for a file the workspace does
// not hold).
func (d *Driver) confinedDocs(fsys *rootfs.FS, req *capabilities.Request) []confine.Doc {
	exts := map[string]bool{}
	for _, p := range req.Files {
		exts[path.Ext(p)] = true
	}
	paths := slices.Clone(req.Files)
	for _, p := range req.Changed {
		if exts[path.Ext(p)] {
			paths = append(paths, p)
		}
	}
	var out []confine.Doc
	for _, p := range paths {
		if doc := req.All[p]; doc != nil {
			out = append(out, confine.Doc{Path: p, Content: doc.Content()})
			continue
		}
		if data, _, err := fsys.ReadFile(p); err == nil {
			out = append(out, confine.Doc{Path: p, Content: string(data)})
		}
	}
	return out
}

// withheldResult is the answer to a request the confined server is not
// sent.
func withheldResult(why string) *capabilities.Result {
	return &capabilities.Result{Status: engine.StatusUnchecked, Message: why, Withheld: true}
}

// partlyWithheld marks res, the answer about the files a confined server
// was sent, as leaving out the others: unchecked, saying why.
func partlyWithheld(res *capabilities.Result, why string) *capabilities.Result {
	if res == nil {
		return withheldResult(why)
	}
	if res.Status == engine.StatusOK || res.Status == "" {
		res.Status = engine.StatusUnchecked
	}
	res.Message = strings.TrimPrefix(res.Message+"; "+why, "; ")
	return res
}

// Withheld says, for the probe's report, which files of the root the
// confined server does not answer about, and why ("" when it answers
// about every file, or is not confined).
func (d *Driver) Withheld(ctx context.Context) string {
	if !d.cfg.ConfineIncludes || d.root == "" {
		return ""
	}
	fsys, err := rootfs.New(d.root)
	if err != nil {
		return ""
	}
	why := confine.Survey(ctx, fsys, d.confinedServer())
	if why == "" {
		return ""
	}
	return fmt.Sprintf("not sent the files that would make it read outside the root before you trust it: %s", why)
}
