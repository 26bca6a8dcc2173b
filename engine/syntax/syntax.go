// Package syntax checks whether a file's content is syntactically valid, so
// that edit_file's validate_syntax can reject an edit before it is written.
//
// [Check] picks a checker by the file name's extension: go/parser for Go, a
// real parser for JSON and YAML, and a strings-and-comments-aware
// balanced-delimiter check for the other languages engine/lex knows, in
// its token stream.
// Unrecognized file types always pass. [Validate] compares the file before and
// after an edit and returns a [*CheckError] that says whether the breakage was
// already there.
//
// Positions are reported as [Error] values: 1-based lines and 1-based columns
// counted in Unicode characters, computed by [text.Mapper] from byte offsets.
// A leading byte-order mark is not part of the content: it is removed before
// checking, and positions count from the first character after it.
//
// This file defines [Error], [Check], [Validate] and [CheckError].
package syntax

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// Error is one syntax error, 1-based line and column (column in Unicode characters).
type Error struct {
	Line, Column int
	Msg          string
}

// String formats e as "line:column: message".
func (e Error) String() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg) }

// Error implements the error interface; it is the same as [Error.String].
func (e Error) Error() string { return e.String() }

// checker is one syntax check: its name, the extensions it claims (lower
// case, with the dot) and the function that runs it on content without a BOM.
type checker struct {
	name  string
	exts  []string
	check func(src []byte) []Error
}

// checkers is the registry, in the order extensions are looked up. The
// delimiter checkers come from engine/lex's language table.
var checkers = append([]checker{
	{name: "go/parser", exts: []string{".go"}, check: checkGo},
	{name: "json", exts: []string{".json"}, check: checkJSON},
	{name: "yaml", exts: []string{".yaml", ".yml"}, check: checkYAML},
}, delimiterCheckers()...)

// byExt maps a lower-case extension to its checker.
var byExt = func() map[string]*checker {
	m := make(map[string]*checker)
	for i := range checkers {
		for _, ext := range checkers[i].exts {
			if _, dup := m[ext]; dup {
				panic("syntax: extension " + ext + " registered twice")
			}
			m[ext] = &checkers[i]
		}
	}
	return m
}()

// Check validates src (file content) by the file name's extension. It
// returns no errors when the file is valid or its type is not recognized;
// checker names the check used ("go/parser", "json", "yaml",
// "delimiters", "" for none).
//
// The extension is matched case-insensitively. Errors are in file order; the
// delimiter and YAML checks stop at the first error.
func Check(filename string, src []byte) (checker string, errs []Error) {
	c := byExt[strings.ToLower(filepath.Ext(filename))]
	if c == nil {
		return "", nil
	}
	src = bytes.TrimPrefix(src, []byte(text.BOM))
	return c.name, c.check(src)
}

// maxListed is how many errors a [CheckError] message lists.
const maxListed = 5

// CheckError reports that an edit's result fails a syntax check.
type CheckError struct {
	File    string  // the file name given to [Validate]
	Checker string  // the check that failed, as from [Check]
	Errors  []Error // the result's errors; never empty
	Before  []Error // the original's errors under the same check; nil when it passed
}

// Error lists the first few errors, one per line, and says whether the file
// already failed the check before the edit.
func (e *CheckError) Error() string {
	var b strings.Builder
	if len(e.Errors) == 1 {
		fmt.Fprintf(&b, "%s fails the %s syntax check: %s", e.File, e.Checker, e.Errors[0])
	} else {
		fmt.Fprintf(&b, "%s fails the %s syntax check with %d errors:", e.File, e.Checker, len(e.Errors))
		writeList(&b, e.Errors)
	}
	if len(e.Before) == 0 {
		b.WriteString("\nThe file passed this check before the edit.")
		return b.String()
	}
	b.WriteString("\nThe file already failed this check before the edit: ")
	if len(e.Before) == 1 {
		b.WriteString(e.Before[0].String())
	} else {
		fmt.Fprintf(&b, "%d errors:", len(e.Before))
		writeList(&b, e.Before)
	}
	return b.String()
}

// writeList writes up to maxListed errors, each on its own indented line.
func writeList(b *strings.Builder, errs []Error) {
	for i, e := range errs {
		if i == maxListed {
			fmt.Fprintf(b, "\n  (and %d more)", len(errs)-maxListed)
			break
		}
		b.WriteString("\n  ")
		b.WriteString(e.String())
	}
}

// Validate compares before and after: it returns nil when after passes; otherwise an error whose message
// lists the first few errors with line:column and, when before ALREADY failed the same check, says so
// ("the file already failed this check before the edit: ...") so an agent knows the breakage is not its own.
//
// The error is a [*CheckError]. Before is checked only when after fails.
func Validate(filename string, before, after []byte) error {
	name, errs := Check(filename, after)
	if len(errs) == 0 {
		return nil
	}
	_, prev := Check(filename, before)
	return &CheckError{File: filename, Checker: name, Errors: errs, Before: prev}
}

// positions converts byte offsets in one text to [Error] positions. It
// builds its [text.Mapper] only when first asked.
type positions struct {
	src []byte
	m   *text.Mapper
}

// at returns the 1-based line and character column of offset. An offset at
// or past the end of a text that ends with a newline maps to the end of the
// last line, not to the line after it, so the position names a real line.
func (p *positions) at(offset int) (line, col int) {
	if p.m == nil {
		p.m = text.NewMapper(string(p.src))
	}
	if offset >= len(p.src) {
		offset = len(p.src)
		if bytes.HasSuffix(p.src, []byte("\n")) {
			offset--
		}
	}
	if offset == len(p.src) && offset > 0 {
		// The end of a text without a final newline: one past its last
		// character. (text.Mapper.Position indexes past the end here.)
		l, c := p.m.Position(offset-1, text.Chars)
		return l + 1, c + 2
	}
	l, c := p.m.Position(offset, text.Chars)
	return l + 1, c + 1
}

// errorAt returns an Error at offset.
func (p *positions) errorAt(offset int, msg string) Error {
	l, c := p.at(offset)
	return Error{Line: l, Column: c, Msg: msg}
}

// pos formats offset as "line:column".
func (p *positions) pos(offset int) string {
	l, c := p.at(offset)
	return fmt.Sprintf("%d:%d", l, c)
}
