package lspdriver

// This file defines the conversion of a server's answers to engine values:
// workspace paths, 1-based lines, columns in characters. Positions are
// UTF-16 in the content the server was given (the synced document, or the
// disk for files it read itself), converted by text.Mapper.

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// mappers caches a Mapper per workspace path for one request.
type mappers struct {
	v   *view
	req *capabilities.Request
	m   map[string]*text.Mapper
	// text holds the content each mapper maps, for line.
	text map[string]string
	// dirs, while set (see batch), reads the disk's files directory by
	// directory.
	dirs *dirReader
	// files, when set, keeps the disk's files read through dirs for the
	// requests after this one (filecache.go).
	files *fileCache
}

// batch makes the reads of the disk's files until done go through
// directories held open (many answers name many files of a few
// directories): each read is then an open, a stat and a read, not a
// resolution of the whole path from the root and an open of the root.
func (ms *mappers) batch() (done func()) {
	if ms.dirs != nil || ms.v.fs == nil {
		return func() {}
	}
	ms.dirs = &dirReader{v: ms.v, open: map[string]*rootfs.Dir{}}
	return func() {
		ms.dirs.close()
		ms.dirs = nil
	}
}

// dirReader reads files of the root through their directories, each
// opened once.
type dirReader struct {
	v    *view
	open map[string]*rootfs.Dir // by workspace directory ("" for the root); nil when it could not be opened
}

// read is [view.read] of the file at workspace path p, through its
// directory; a file the directory refuses (a symlink leaving it, which
// may still stay inside the root) is read as view.read reads it.
func (r *dirReader) read(p string) []byte {
	d, name := r.dir(p)
	if d != nil {
		if data, _, err := d.ReadFileMax(name, 0); err == nil {
			return data
		}
	}
	return r.v.read(p)
}

// dir is the directory of the file at workspace path p, opened once (nil
// when it cannot be), and the file's name in it.
func (r *dirReader) dir(p string) (*rootfs.Dir, string) {
	dir, name := path.Split(p)
	dir = strings.TrimSuffix(dir, "/")
	d, seen := r.open[dir]
	if !seen {
		var err error
		if d, err = r.v.fs.OpenDir(dir); err != nil {
			d = nil
		}
		r.open[dir] = d
	}
	return d, name
}

func (r *dirReader) close() {
	for _, d := range r.open {
		if d != nil {
			d.Close()
		}
	}
}

// disk is the disk content of the file at workspace path p, as
// [view.read] gives it.
func (ms *mappers) disk(p string) []byte {
	if ms.dirs != nil {
		return ms.dirs.read(p)
	}
	return ms.v.read(p)
}

func (ms *mappers) get(p string) *text.Mapper {
	if m, ok := ms.m[p]; ok {
		return m
	}
	var content string
	var m *text.Mapper
	if d, ok := ms.v.docs[p]; ok {
		content = d.Text
	} else if doc := ms.req.All[p]; doc != nil {
		content = doc.Content()
	} else if ms.dirs != nil && ms.files != nil {
		content, m = ms.dirs.readKept(p, ms.files)
	} else if b := ms.disk(p); b != nil {
		content = strings.TrimPrefix(string(b), text.BOM)
	}
	if m == nil {
		m = text.NewMapper(content)
	}
	ms.m[p] = m
	if ms.text == nil {
		ms.text = map[string]string{}
	}
	ms.text[p] = content
	return m
}

// line is the text of the 1-based line n of the file at p, without its
// terminator ("" past the end).
func (ms *mappers) line(p string, n int) string {
	m := ms.get(p)
	if n < 1 || n > m.Lines() {
		return ""
	}
	start, end := m.Offset(n-1, 0, text.Bytes), m.Offset(n-1, len(ms.text[p]), text.Bytes)
	return ms.text[p][start:end]
}

// point converts an LSP position to a 1-based line and character column.
func point(m *text.Mapper, pos lsp.Position) (line, col int) {
	off := m.Offset(pos.Line, pos.Character, text.UTF16)
	l, c := m.Position(off, text.Chars)
	return l + 1, c + 1
}

func severity(s int) engine.Severity {
	switch s {
	case lsp.SeverityError:
		return engine.SeverityError
	case lsp.SeverityWarning:
		return engine.SeverityWarning
	default:
		return engine.SeverityInfo
	}
}

// diagnostics converts a report's diagnostics of workspace files (files
// outside the root or resolving outside it, deleted files and outside
// symlinks left out: see [view.shown]; of documents kept open, those a
// closed file would have: see [closedLike]). keep filters them.
// Positions are in the document's text (a position past its end, on the
// newline added to a document at disk content, is its end).
func (d *Driver) diagnostics(rep *lsp.Report, v *view, ms *mappers, keep func(lsp.Diagnostic) bool) []engine.Diagnostic {
	var out []engine.Diagnostic
	closed := closedLike(rep)
	for abs, ds := range rep.Files {
		p := v.shown(abs)
		if p == "" {
			continue
		}
		m := ms.get(p)
		for _, ld := range ds {
			if keep != nil && !keep(ld) || !closed(abs, ld) {
				continue
			}
			out = append(out, d.diagnostic(v, ms, p, m, ld))
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Line < out[j].Line
	})
	return out
}

func (d *Driver) diagnostic(v *view, ms *mappers, p string, m *text.Mapper, ld lsp.Diagnostic) engine.Diagnostic {
	l, c := point(m, ld.Range.Start)
	el, ec := point(m, ld.Range.End)
	if el < l || (el == l && ec < c) {
		el, ec = l, c
	}
	// The source is the driver; a server's own source (an analyzer's
	// name) becomes the code when the diagnostic has none.
	code := ld.CodeString()
	if code == "" && !compilerSource(ld.Source) {
		code = ld.Source
	}
	rel := related(v, ms, ld.Related)
	return engine.Diagnostic{
		Path: p, Line: l, Column: c, EndLine: el, EndColumn: ec,
		Severity: severity(ld.Severity), Source: d.name, Code: code, Message: includedOutside(ld, rel),
		Related: rel,
	}
}

// includedPrefix starts clangd's report, on an #include line, of an error
// in the file it includes; the error's own place is the related
// information ("Error occurred here").
const includedPrefix = "In included file: "

// includedOutside is the diagnostic's message, except that clangd's
// report of an error in an included file that is not the root's to show
// (its related place outside the root or left out) keeps only what it is:
// the error's text is the included file's (‘SECRET’ is an unknown type
// name), which no answer may carry.
func includedOutside(ld lsp.Diagnostic, rel []engine.Related) string {
	if !strings.HasPrefix(ld.Message, includedPrefix) {
		return ld.Message
	}
	inside := len(rel) > 0 && len(rel) == len(ld.Related)
	for _, r := range rel {
		if filepath.IsAbs(r.Path) {
			inside = false
		}
	}
	if inside {
		return ld.Message
	}
	return includedPrefix + capabilities.Withheld
}

// related converts a diagnostic's related places as locations are
// converted (see nav.go's file comment): a file under the root by its
// workspace path and character column, a file outside it by its absolute
// path and the server's own column; a place in a file under the root that
// is not the root's to show (reached through a symlink that leaves the
// root, or deleted in the workspace) is left out, and so is one that is
// not a file.
func related(v *view, ms *mappers, rs lsp.Related) []engine.Related {
	var out []engine.Related
	for _, r := range rs {
		abs := lsp.Path(r.Location.URI)
		if abs == "" {
			continue
		}
		p, ok := place(v, abs)
		if !ok {
			continue
		}
		er := engine.Related{Path: p, Message: r.Message}
		if p == abs {
			er.Line, er.Column = r.Location.Range.Start.Line+1, r.Location.Range.Start.Character+1
		} else {
			er.Line, er.Column = point(ms.get(p), r.Location.Range.Start)
		}
		out = append(out, er)
	}
	return out
}

// applyEdits applies LSP text edits to content (UTF-16 positions in it),
// by the one applier of LSP edits ([text.ApplyRanges]).
func applyEdits(content string, edits []lsp.TextEdit) (string, error) {
	rs := make([]text.RangeEdit, len(edits))
	for i, e := range edits {
		rs[i] = text.RangeEdit{
			StartLine: e.Range.Start.Line, StartCol: e.Range.Start.Character,
			EndLine: e.Range.End.Line, EndCol: e.Range.End.Character, New: e.NewText,
		}
	}
	return text.ApplyRanges(content, rs, text.UTF16)
}

// newDoc is the Doc with content, keeping old's BOM.
func newDoc(old *text.Doc, content string) *text.Doc {
	if old != nil && old.BOM() {
		return text.FromString(text.BOM + content)
	}
	return text.FromString(content)
}

// compilerSource reports whether a diagnostic source names the compiler
// (gopls: "compiler", "syntax", "go list"), as opposed to a linter.
func compilerSource(src string) bool {
	switch src {
	case "", "compiler", "syntax", "go list", "go mod tidy", "typecheck":
		return true
	}
	return false
}
