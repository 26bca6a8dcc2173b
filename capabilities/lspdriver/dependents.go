package lspdriver

// This file defines how a check finds the files that depend on the
// changed ones when the server does not report them itself
// (typescript-language-server: see [lsp.Server.Dependents]).
//
// tsserver knows a file only in the workspace only when it is open: the
// changed TypeScript and JavaScript files are all opened (the view opens
// those of the requested files' extensions only). Each importer found is
// opened at its workspace content, or its disk
// content (read through the root, as every file the view shows) when the
// workspace holds none; files outside the root and files deleted in the
// workspace are neither opened nor followed. Their diagnostics are then
// reported as gopls's dependents are: every one, for check only. Where
// the importers may be incomplete, an info diagnostic on the changed
// file says so and why; the check's status stays ok.

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// maxAskedFrom is how many files asked about a check follows the importers
// of, besides the changed ones.
const maxAskedFrom = 16

// dependents adds to v the files that import the changed documents (and
// the files asked about, when they are few), as
// the server knows them, and returns the coverage notes that name the
// changed files whose importers may be missing.
//
// Other servers (gopls, pyright, clangd) report dependents themselves:
// once their server runs, this asks it nothing.
func (d *Driver) dependents(ctx context.Context, srv *lsp.Server, v *view, req *capabilities.Request) ([]engine.Note, error) {
	if finds, known := srv.FindsDependents(); known && !finds {
		return nil, nil
	}
	extra := d.scripts(v, req)
	var from []string
	start := func(p string) {
		if doc, ok := v.docs[p]; ok && !v.deleted[p] && !v.outside[p] && !slices.Contains(from, doc.Path) {
			from = append(from, doc.Path)
		}
	}
	for _, p := range req.Changed {
		start(p)
	}
	// A check of a few files asks about them, changed or not (the disk may
	// have changed under them): their importers are part of the answer,
	// as gopls's dependents are. A check of many files covers most of
	// their importers itself.
	if len(req.Files) <= maxAskedFrom {
		for _, p := range req.Files {
			start(p)
		}
	}
	if len(from) == 0 {
		return nil, nil
	}
	deps, err := srv.Dependents(ctx, v.list(), from, func(abs string) (lsp.Document, bool) {
		p := v.shown(abs)
		if p == "" || slices.Contains(req.Deleted, p) {
			return lsp.Document{}, false
		}
		doc := lsp.Document{Path: v.abs(p), LanguageID: d.languageID(p)}
		if w := req.All[p]; w != nil {
			doc.Text = w.Content()
		} else if b := v.read(p); b != nil {
			doc.Text = strings.TrimPrefix(string(b), text.BOM)
		} else {
			return lsp.Document{}, false
		}
		return doc, true
	})
	if deps == nil {
		for _, p := range extra {
			delete(v.docs, p)
		}
		return nil, err
	}
	for _, doc := range deps.Docs {
		v.docs[v.rel(doc.Path)] = doc
	}
	return d.gapNotes(v, deps.Gaps, req.Changed), err
}

// gapNotes turns the gaps of changed files into coverage notes, one per
// reason, naming the files it concerns (a file asked
// about but unchanged gets its importers checked when they can be found,
// and no note: every check of a project without tsconfig.json would have
// one). A file in an inferred project
// that is not on disk has no gap: only workspace files can import it,
// and those are all open.
func (d *Driver) gapNotes(v *view, gaps []lsp.Gap, changed []string) []engine.Note {
	var whys []string
	paths := map[string][]string{}
	for _, g := range gaps {
		p := v.rel(g.Path)
		if p == "" || !slices.Contains(changed, p) || g.Inferred && v.fs != nil && !onDisk(v.fs, p) {
			continue
		}
		if paths[g.Why] == nil {
			whys = append(whys, g.Why)
		}
		paths[g.Why] = append(paths[g.Why], p)
	}
	var notes []engine.Note
	for _, why := range whys {
		ps := paths[why]
		notes = append(notes, engine.Note{
			Kind: engine.NoteDependents, Driver: d.name, Files: len(ps), Paths: engine.FewPaths(ps),
			Message: fmt.Sprintf("%s: the files that import %s may not all have been checked: %s", d.name, strings.Join(ps, ", "), why),
		})
	}
	return notes
}

// onDisk reports whether the file at workspace path p is on disk.
func onDisk(fsys *rootfs.FS, p string) bool {
	_, err := fsys.Stat(p)
	return err == nil
}

// scriptLanguageIDs are the language identifiers tsserver reads.
var scriptLanguageIDs = map[string]bool{"typescript": true, "typescriptreact": true, "javascript": true, "javascriptreact": true}

// scripts adds to v the changed workspace files of TypeScript and
// JavaScript that it does not show yet (the view opens those of the
// requested files' extensions only), and returns their paths: tsserver
// knows a file that exists only in the workspace only when it is open,
// and a .js file can import the .ts file asked about. They are taken
// back out when the server is not typescript-language-server.
func (d *Driver) scripts(v *view, req *capabilities.Request) []string {
	var out []string
	for _, p := range req.Changed {
		doc := req.All[p]
		if _, shown := v.docs[p]; shown || doc == nil || !scriptLanguageIDs[d.fileLanguageID(p)] {
			continue
		}
		v.docs[p] = lsp.Document{Path: v.abs(p), LanguageID: d.languageID(p), Text: doc.Content()}
		out = append(out, p)
	}
	return out
}
