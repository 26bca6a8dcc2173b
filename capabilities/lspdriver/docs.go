package lspdriver

// This file defines what the server is shown of the workspace: the
// documents of one request.
//
// The workspace is the truth. A request opens, at their workspace
// content, the files it asks about and every changed or added workspace
// file of the driver's language (a file whose extension is among the
// requested files', and for Go go.mod, go.sum and go.work); every other
// file the server sees on disk, which is the workspace content for
// unchanged files.
//
// A requested Go file at its disk content is sent as such
// ([lsp.Document.OnDisk]): gopls would take its return to the disk
// content for a save and run go mod tidy again, and the lsp package keeps
// it open when a later request leaves it out. Diagnostics of a document
// kept open that way are cut to what the server gives a closed file (see
// [view.closedLike]).
//
// A file deleted in the workspace but still on disk cannot be hidden from
// a language server by LSP: didOpen with empty content is a different
// (broken) file, and didChangeWatchedFiles makes the server read the disk,
// where the file still is. For Go files devbroker opens a stand-in: the
// disk file's header up to and including its package clause (build
// constraints and doc comments kept), which declares nothing, so the
// package type-checks as if the file were gone. Its own diagnostics are
// dropped. Deleted files of other languages are still seen on disk, and
// the answer's message says so.
//
// Nothing from outside the root reaches an answer. A file
// under the root reached through a symlink that leaves it is never shown:
// every such symlink with the extension of a requested file is opened as
// a stand-in whatever is on disk, so the server reads the document, never
// the link's target. For Go the stand-in is a file that "//go:build
// ignore" keeps out of every package (an empty file would be a parse
// error in its package, and a package clause would have to guess the
// package's name); for other languages it is empty. Such files'
// diagnostics are dropped, as are those of any file that resolves
// outside the root (below a symlinked directory that leaves it, which the
// stand-ins cannot cover: the server may still read what an import
// reaches there, but no diagnostic for those files is relayed).

import (
	"context"
	"go/parser"
	"go/token"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/lsp"
)

// view is one request's documents.
type view struct {
	root string
	docs map[string]lsp.Document // by workspace path
	// deleted holds the workspace paths of deleted files (stand-ins).
	deleted map[string]bool
	// outside holds the workspace paths of the symlinks that leave the
	// root (stand-ins).
	outside map[string]bool
	// fs confines paths to the root; nil when the root cannot be opened
	// (then every diagnostic is dropped).
	fs *rootfs.FS
	// unhidden lists deleted files the server still sees on disk.
	unhidden []string
}

// goModFiles are Go's module files, sent with their own language ids.
var goModFiles = map[string]string{"go.mod": "go.mod", "go.sum": "go.sum", "go.work": "go.work"}

// jsxIDs are LSP's language identifiers of the JSX forms of TypeScript
// and JavaScript, by extension, as the LSP specification lists them.
// typescript-language-server parses a document by its identifier, so a
// .tsx file sent as typescript would be full of syntax errors. Every other
// file is sent as its language's name (TestLanguageIDsFromConfiguration).
var jsxIDs = map[string]string{".tsx": "typescriptreact", ".jsx": "javascriptreact"}

// languageOf is the language of the file at workspace path p among those
// whose lists name the driver (the first, by name, whose file types
// match), or "" when none's do or the driver was built alone.
func (d *Driver) languageOf(p string) string {
	for _, lang := range slices.Sorted(maps.Keys(d.fileTypes)) {
		for _, pat := range d.fileTypes[lang] {
			if configs.MatchFileType(pat, p) {
				return lang
			}
		}
	}
	return ""
}

// fileLanguageID is the LSP language identifier of p's language among
// the driver's (languageOf), the JSX forms by their own; "" when p is of
// none of them.
func (d *Driver) fileLanguageID(p string) string {
	lang := d.languageOf(p)
	if id, ok := jsxIDs[strings.ToLower(path.Ext(p))]; ok && lang+"react" == id {
		return id
	}
	return lang
}

// languageID is the language identifier the file at workspace path p is
// sent with: the configured language_id; without one, its language's
// (fileLanguageID: clangd, which serves c and cpp, is told each file's,
// and a .h file is c's, as the configuration lists it), else the
// language's name the driver was built for.
func (d *Driver) languageID(p string) string {
	if d.cfg.LanguageID == "" {
		if id := d.fileLanguageID(p); id != "" {
			return id
		}
	}
	return d.langID
}

func (d *Driver) view(ctx context.Context, srv *lsp.Server, req *capabilities.Request) *view {
	v := &view{root: req.Root, docs: map[string]lsp.Document{}, deleted: map[string]bool{}, outside: map[string]bool{}}
	exts := map[string]bool{}
	for _, p := range req.Files {
		exts[path.Ext(p)] = true
	}
	if fsys, err := rootfs.New(req.Root); err == nil {
		v.fs = fsys
		for _, p := range outsideLinks(ctx, srv, fsys, filepath.Clean(srv.Root()) != filepath.Clean(req.Root)) {
			if exts[path.Ext(p)] {
				v.outside[p] = true
				v.docs[p] = lsp.Document{Path: v.abs(p), LanguageID: d.languageID(p), Text: outsideStandIn(p)}
			}
		}
	}
	add := func(p, langID string) {
		if doc := req.All[p]; doc != nil {
			v.docs[p] = lsp.Document{Path: v.abs(p), LanguageID: langID, Text: doc.Content()}
		}
	}
	changed := map[string]bool{}
	for _, p := range req.Changed {
		changed[p] = true
	}
	for _, p := range req.Files {
		add(p, d.languageID(p))
		// Unchanged is not enough: a session's copy can be older than the
		// disk (an editor's buffer pins it, or another session wrote the
		// file since), and a document kept open at it would hide the disk
		// from every later request. Only the disk's own bytes are kept.
		if doc, ok := v.docs[p]; ok && !changed[p] && doc.LanguageID == "go" && doc.Text == string(v.read(p)) {
			doc.OnDisk = true
			// Read again when a turn shared with other sessions would show
			// it to them (lsp.Document.Current): they see the disk as it is.
			doc.Current = func() bool { return doc.Text == string(v.read(p)) }
			v.docs[p] = doc
		}
	}
	for _, p := range req.Changed {
		if id, ok := goModFiles[path.Base(p)]; ok && d.langID == "go" {
			add(p, id)
		} else if exts[path.Ext(p)] {
			add(p, d.languageID(p))
		}
	}
	for _, p := range req.Deleted {
		if !exts[path.Ext(p)] {
			continue
		}
		if path.Ext(p) != ".go" {
			v.unhidden = append(v.unhidden, p)
			continue
		}
		v.deleted[p] = true
		v.docs[p] = lsp.Document{Path: v.abs(p), LanguageID: d.langID, Text: goStandIn(v.abs(p), v.read(p))}
	}
	sort.Strings(v.unhidden)
	return v
}

func (v *view) abs(p string) string { return filepath.Join(v.root, filepath.FromSlash(p)) }

// shown is the workspace path of an absolute path whose diagnostics may
// be relayed, or "": a file outside the root or resolving outside it, a
// deleted file's or an outside symlink's stand-in.
func (v *view) shown(abs string) string {
	p := v.rel(abs)
	if p == "" || v.deleted[p] || v.outside[p] || v.fs == nil {
		return ""
	}
	if _, ok := v.fs.Inside(v.abs(p)); !ok {
		return ""
	}
	return p
}

// outsideLinks lists the workspace paths of the symlinks under the root
// that leave it: from the request's check of the server's inputs, which
// knows every symlink under the root, when it could see every input;
// else by walking the root.
//
// A server of a project below the root (below) knows the symlinks under its own
// root only, and may read files of the root outside it (an import of
// "../shared"): the root is walked.
func outsideLinks(ctx context.Context, srv *lsp.Server, fsys *rootfs.FS, below bool) []string {
	if below {
		return fsys.OutsideLinks(rootfs.SkipDir)
	}
	links, ok := srv.Links(ctx)
	if !ok {
		return fsys.OutsideLinks(rootfs.SkipDir)
	}
	var out []string
	for _, p := range links {
		if fsys.Leaves(p) {
			out = append(out, p)
		}
	}
	return out
}

// outsideStandIn is what the server sees of a file reached through a
// symlink that leaves the root.
func outsideStandIn(p string) string {
	if path.Ext(p) == ".go" {
		return "//go:build ignore\n\n// This file is outside the workspace root; devbroker does not show it.\npackage ignore\n"
	}
	return ""
}

// rel is the workspace path of an absolute path, or "" outside the root.
func (v *view) rel(abs string) string {
	r, err := filepath.Rel(v.root, abs)
	if err != nil || !filepath.IsLocal(r) {
		return ""
	}
	return filepath.ToSlash(r)
}

// list returns the documents, sorted by path.
func (v *view) list() []lsp.Document {
	out := make([]lsp.Document, 0, len(v.docs))
	for _, d := range v.docs {
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// read returns the disk content of the file at workspace path p, through
// rootfs (so never through a symlink that leaves the root); nil when it
// cannot be read.
func (v *view) read(p string) []byte {
	if v.fs == nil {
		return nil
	}
	data, _, err := v.fs.ReadFile(p)
	if err != nil {
		return nil
	}
	return data
}

// goStandIn is a deleted Go file's header (src, its content on disk) up
// to the end of its package clause: a file that declares nothing. An
// unreadable file gets a bare "package" that fails to parse, which gopls
// reports on that file only (and those diagnostics are dropped).
func goStandIn(abs string, src []byte) string {
	if src == nil {
		return ""
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, abs, src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil || f.Name == nil {
		return ""
	}
	end := fset.Position(f.Name.End()).Offset
	return string(src[:end]) + "\n"
}

// closedLike returns, for a report, whether a diagnostic of the file at
// abs is one the server gives a closed file. A document kept open at disk
// content from an earlier request ([lsp.Report.Kept]) is closed as far
// as the request goes, but gopls analyzes the packages of open files and
// reports hints on open files only: its other findings count only when a
// document of the request shares its directory (its package is analyzed
// anyway).
func closedLike(rep *lsp.Report) func(abs string, ld lsp.Diagnostic) bool {
	kept := map[string]bool{}
	for _, p := range rep.Kept {
		kept[p] = true
	}
	dirs := map[string]bool{}
	for p := range rep.Versions {
		dirs[filepath.Dir(p)] = true
	}
	return func(abs string, ld lsp.Diagnostic) bool {
		if !kept[abs] {
			return true
		}
		if ld.Severity == lsp.SeverityHint {
			return false
		}
		return compilerSource(ld.Source) || dirs[filepath.Dir(abs)]
	}
}
