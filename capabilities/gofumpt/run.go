package gofumpt

// This file defines Run: formatting one request's files, in parallel, and
// turning each outcome into edits, diagnostics and a status.

import (
	"context"
	"errors"
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"mvdan.cc/gofumpt/format"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// outcome is what formatting one file gave.
type outcome struct {
	// formatted is the new content, nil when it equals the old one or the
	// file was not formatted.
	formatted *text.Doc
	diags     []engine.Diagnostic
	// crash says why gofumpt failed on the file, "" when it did not.
	crash string
}

// Run formats req.Files (format), or reports those that are not
// gofumpt-formatted (lint, formatting them when req.Fix is set).
func (d *Driver) Run(ctx context.Context, req *capabilities.Request) *capabilities.Result {
	if !d.calls.Begin() {
		return capabilities.ClosedResult(d.name)
	}
	defer d.calls.End()
	res := &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Edits: map[string]*text.Doc{}}}
	if req.Kind != engine.Format && req.Kind != engine.Lint {
		res.Status = engine.StatusCrashed
		res.Message = fmt.Sprintf("gofumpt cannot %s; it formats and lints", req.Kind)
		return res
	}

	// Options first, serially: the go.mod lookup caches by directory.
	mods := newModules(req)
	opts := make([]module, len(req.Files))
	for i, p := range req.Files {
		opts[i] = mods.of(p)
	}

	outs := make([]outcome, len(req.Files))
	done := make([]bool, len(req.Files))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, p := range req.Files {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			if ctx.Err() != nil {
				return
			}
			outs[i] = d.formatFile(p, req.All[p], opts[i])
			done[i] = true
		}()
	}
	wg.Wait()

	var crashes, skipped []string
	for i, p := range req.Files {
		if !done[i] {
			skipped = append(skipped, p)
			continue
		}
		o := outs[i]
		res.Diagnostics = append(res.Diagnostics, o.diags...)
		if o.crash != "" {
			crashes = append(crashes, p+": "+o.crash)
		}
		if o.formatted == nil {
			continue
		}
		if req.Kind == engine.Format || req.Fix {
			res.Edits[p] = o.formatted
		}
		if req.Kind == engine.Lint {
			res.Diagnostics = append(res.Diagnostics, d.unformatted(p, req.All[p], o.formatted, req.Fix))
		}
	}
	switch {
	case len(crashes) > 0:
		res.Status = engine.StatusCrashed
		res.Message = "gofumpt failed on " + strings.Join(crashes, "; ")
	case len(skipped) > 0:
		res.Status = engine.StatusTimeout
		res.Message = fmt.Sprintf("stopped (%v) before formatting %d of %d files: %s", ctx.Err(), len(skipped), len(req.Files), strings.Join(skipped, ", "))
	}
	return res
}

// formatFile formats one file's workspace content.
func (d *Driver) formatFile(p string, doc *text.Doc, mod module) outcome {
	if doc == nil {
		return outcome{diags: []engine.Diagnostic{d.diag(p, 1, 1, engine.SeverityWarning, "not formatted: the file is not in the workspace")}}
	}
	if mod.problem != "" {
		return outcome{diags: []engine.Diagnostic{d.diag(p, 1, 1, engine.SeverityError,
			fmt.Sprintf("not formatted: %s, the nearest go.mod, cannot be used: %s", mod.gomod, mod.problem))}}
	}
	// gofumpt writes LF; CR is never significant in Go source (the
	// scanner drops it from raw strings and comments), so the LF form
	// formats the same.
	src := doc.LFContent()
	if isGenerated(src) {
		return outcome{}
	}
	out, err := safeSource([]byte(src), format.Options{LangVersion: mod.lang, ModulePath: mod.path})
	if err != nil {
		var list scanner.ErrorList
		if errors.As(err, &list) {
			return outcome{diags: d.syntaxErrors(p, src, list)}
		}
		return outcome{crash: err.Error()}
	}
	if string(out) == src && uniformEOL(doc) {
		return outcome{} // most files of a formatted module: no new Doc to build
	}
	formatted := withLineEnds(doc, string(out))
	if formatted.Equal(doc) {
		return outcome{}
	}
	o := outcome{formatted: formatted}
	if doc.Mixed() {
		o.diags = append(o.diags, d.diag(p, 1, 1, engine.SeverityInfo,
			fmt.Sprintf("the file had mixed line endings; the formatted file uses %s throughout (its dominant ending)", eolName(doc.EOL()))))
	}
	return o
}

// withLineEnds is out (gofumpt's LF output) with the original's BOM and
// dominant line ending.
func withLineEnds(orig *text.Doc, out string) *text.Doc {
	eol := orig.EOL()
	lines := text.SplitLines(out)
	if eol != text.LF {
		for i := range lines {
			if lines[i].EOL != "" {
				lines[i].EOL = eol
			}
		}
	}
	return text.New(orig.BOM(), lines, eol)
}

// uniformEOL reports whether every line of doc that ends ends with its
// dominant terminator: then withLineEnds of its own LF form gives doc back.
func uniformEOL(doc *text.Doc) bool {
	eol := doc.EOL()
	for _, l := range doc.Lines() {
		if l.EOL != "" && l.EOL != eol {
			return false
		}
	}
	return true
}

func eolName(eol string) string {
	if eol == text.CRLF {
		return "CRLF"
	}
	return "LF"
}

// safeSource is format.Source with a panic turned into an error.
func safeSource(src []byte, opts format.Options) (out []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("gofumpt panicked: %v", r)
		}
	}()
	return formatSource(src, opts)
}

// formatSource is format.Source; tests replace it to make gofumpt fail.
var formatSource = format.Source

// syntaxErrors turns the parser's errors into diagnostics with 1-based
// lines and character columns (the parser counts bytes).
func (d *Driver) syntaxErrors(p, src string, list scanner.ErrorList) []engine.Diagnostic {
	m := text.NewMapper(src)
	var out []engine.Diagnostic
	for _, e := range list {
		line, col := max(e.Pos.Line, 1), max(e.Pos.Column, 1)
		col = m.Convert(line-1, col-1, text.Bytes, text.Chars) + 1
		dg := d.diag(p, line, col, engine.SeverityError, "syntax error: "+e.Msg+" (not formatted)")
		dg.Code = "syntax"
		out = append(out, dg)
	}
	return out
}

// unformatted is lint's finding for a file whose formatting differs: it
// points at the first line that changes.
func (d *Driver) unformatted(p string, orig, formatted *text.Doc, fixed bool) engine.Diagnostic {
	line := 1
	for line <= orig.Len() && line <= formatted.Len() && orig.Line(line-1) == formatted.Line(line-1) {
		line++
	}
	msg := "the file is not gofumpt-formatted (format fixes it)"
	if fixed {
		msg = "the file was not gofumpt-formatted; it is now"
	}
	dg := d.diag(p, line, 1, engine.SeverityWarning, msg)
	dg.Code = "unformatted"
	return dg
}

func (d *Driver) diag(p string, line, col int, sev engine.Severity, msg string) engine.Diagnostic {
	return engine.Diagnostic{
		Path: p, Line: line, Column: col, EndLine: line, EndColumn: col,
		Severity: sev, Source: d.name, Message: msg,
	}
}

// rxCodeGenerated and isGenerated are the gofumpt CLI's (gofmt.go in
// mvdan.cc/gofumpt v0.12.0, unexported there): a file is generated when a
// comment group before the package clause has a line matching the
// standard "// Code generated ... DO NOT EDIT." comment. go/ast.IsGenerated
// is close but not the same (it also looks inside /* */ comments).
var rxCodeGenerated = regexp.MustCompile(`^// Code generated .* DO NOT EDIT\.$`)

// isGenerated parses src up to its package clause and applies the CLI's
// rule. Source that does not get that far is not generated: formatting it
// reports the syntax error.
func isGenerated(src string) bool {
	if !strings.Contains(src, " DO NOT EDIT.") {
		return false // the comment cannot be there: no parse
	}
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.PackageClauseOnly|parser.ParseComments)
	if err != nil {
		return false
	}
	for _, cg := range f.Comments {
		if cg.Pos() > f.Package {
			return false
		}
		for _, line := range cg.List {
			if rxCodeGenerated.MatchString(line.Text) {
				return true
			}
		}
	}
	return false
}
