package staticcheck

// This file defines [converter]: staticcheck's findings, positioned in the
// stage with byte columns, become engine.Diagnostic values on workspace
// paths with character columns of the workspace content.

import (
	"go/token"
	"os"
	"path/filepath"
	"strings"

	"honnef.co/go/tools/analysis/lint"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// Source is the Source of the driver's diagnostics.
const Source = "staticcheck"

// converter converts the findings of one run.
type converter struct {
	st   *stage
	root string
	all  map[string]*text.Doc
	docs map[string]*fileText // by stage file name
}

// fileText is a file as staticcheck read it, for column conversion.
type fileText struct {
	bom bool
	m   *text.Mapper
}

func newConverter(st *stage, root string, all map[string]*text.Doc) *converter {
	return &converter{st: st, root: root, all: all, docs: map[string]*fileText{}}
}

// diagnostic converts f. It reports false for a check's finding in a file
// the request did not ask about; load failures are always reported.
func (c *converter) diagnostic(f finding, files map[string]bool) (engine.Diagnostic, bool) {
	msg := f.Message
	if c.st.tree != c.st.base {
		// A load error may name a directory: the module's, not the
		// stage's.
		msg = strings.ReplaceAll(msg, c.st.tree, c.st.base)
	}
	dg := engine.Diagnostic{Severity: severity(f.Category), Source: Source, Code: f.Category, Message: msg}
	if f.Position.Filename == "" {
		return dg, f.Category == catCompile || f.Category == catConfig
	}
	p, inRoot := c.path(f.Position.Filename)
	if !files[p] && f.Category != catCompile && f.Category != catConfig {
		return dg, false
	}
	if !inRoot {
		// A package outside the root (a go.mod replace or go.work
		// directory, or the rest of a module the root is inside) does
		// not load: nothing of it is shown, but the answer says so.
		dg.Message = outsideFailure
		return dg, true
	}
	dg.Path = p
	dg.Line, dg.Column = c.position(f.Position, inRoot)
	dg.EndLine, dg.EndColumn = dg.Line, dg.Column
	if f.End.IsValid() && f.End.Filename == f.Position.Filename {
		dg.EndLine, dg.EndColumn = c.position(f.End, inRoot)
	}
	for _, sf := range f.SuggestedFixes {
		fix := engine.Fix{Title: sf.Message}
		ok := true
		for _, e := range sf.TextEdits {
			ep, in := c.path(e.Position.Filename)
			if !in {
				ok = false
				break
			}
			fe := engine.FixEdit{Path: ep, New: string(e.NewText)}
			fe.Line, fe.Column = c.position(e.Position, true)
			fe.EndLine, fe.EndColumn = fe.Line, fe.Column
			if e.End.IsValid() {
				fe.EndLine, fe.EndColumn = c.position(e.End, true)
			}
			fix.Edits = append(fix.Edits, fe)
		}
		if ok && len(fix.Edits) > 0 {
			dg.Fixes = append(dg.Fixes, fix)
		}
	}
	return dg, true
}

// outsideFailure replaces a load failure in a file outside the root,
// which is not shown.
const outsideFailure = "this code or a package it depends on does not compile, in a file outside the root (reached through a go.mod replace or go.work directory, elsewhere in the module that holds the root, or a C file that a cgo preamble includes); that file is not shown: fix it there, or lint from a root that holds it"

// path converts a stage file name (absolute, or relative to the staged
// tree) to a workspace path, and reports whether the file is in the
// workspace root.
func (c *converter) path(name string) (string, bool) {
	if !filepath.IsAbs(name) {
		// go list's errors name files relative to its working
		// directory, the staged tree.
		name = filepath.Join(c.st.tree, name)
	}
	p, ok := c.st.workspacePath(name)
	if ok {
		return p, true
	}
	if rel, err := filepath.Rel(c.root, p); err == nil {
		return filepath.ToSlash(rel), false
	}
	return p, false
}

// position converts a staticcheck position (1-based line, 1-based byte
// column) to a 1-based line and character column of the content
// staticcheck read. A column of 0 (a position without one) stays 1.
func (c *converter) position(pos token.Position, inRoot bool) (line, col int) {
	if pos.Line <= 0 {
		return 1, 1
	}
	if pos.Column <= 0 || !inRoot {
		return pos.Line, max(pos.Column, 1)
	}
	ft := c.text(pos.Filename)
	if ft == nil {
		return pos.Line, pos.Column
	}
	byteCol := pos.Column - 1
	if ft.bom && pos.Line == 1 {
		// go/token counts the byte-order mark; the mapper's content
		// does not hold it.
		byteCol = max(byteCol-len(text.BOM), 0)
	}
	_, ch := ft.m.Position(ft.m.Offset(pos.Line-1, byteCol, text.Bytes), text.Chars)
	return pos.Line, ch + 1
}

// text returns the content of a stage file: the workspace's when it holds
// the file, else the staged copy.
func (c *converter) text(name string) *fileText {
	if ft, ok := c.docs[name]; ok {
		return ft
	}
	var doc *text.Doc
	if p, ok := c.st.workspacePath(name); ok && c.all[p] != nil {
		doc = c.all[p]
	} else if data, err := os.ReadFile(name); err == nil {
		doc, _ = text.Parse(data)
	}
	var ft *fileText
	if doc != nil {
		ft = &fileText{bom: doc.BOM(), m: text.NewMapper(doc.Content())}
	}
	c.docs[name] = ft
	return ft
}

// severity maps a check's documented severity: error for errors and load
// failures, info for hints and informational checks, warning otherwise
// (warnings, deprecations, staticcheck's remarks about directives).
func severity(category string) engine.Severity {
	switch category {
	case catCompile, catConfig:
		return engine.SeverityError
	case catStaticcheck:
		return engine.SeverityWarning
	}
	a := analyzers[strings.ToLower(category)]
	if a == nil || a.Doc == nil {
		return engine.SeverityWarning
	}
	switch a.Doc.Severity {
	case lint.SeverityError:
		return engine.SeverityError
	case lint.SeverityInfo, lint.SeverityHint:
		return engine.SeverityInfo
	default:
		return engine.SeverityWarning
	}
}
