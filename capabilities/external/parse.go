package external

// This file defines the output parsers (errorformat patterns and JSON
// mappings) and the mapping of their findings to engine diagnostics:
// workspace paths, 1-based character columns and severities.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/reviewdog/errorformat"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// finding is one finding as a tool reported it: its path, 1-based
// positions in the tool's column unit (0 when absent) and raw severity.
type finding struct {
	file                       string
	line, col, endLine, endCol int
	unit                       text.Unit
	severity                   string
	code, message              string
}

// parse reads findings from out with the driver's parser.
func (d *Driver) parse(out []byte) []finding {
	out = stripANSI(out)
	if d.cfg.JSON != nil {
		return parseJSON(out, d.cfg.JSON)
	}
	return parseErrorformat(out, d.efm)
}

// parseErrorformat reads findings with Vim errorformat patterns. Lines that
// match no pattern are skipped.
func parseErrorformat(out []byte, efm *errorformat.Errorformat) []finding {
	if efm == nil {
		return nil
	}
	var fs []finding
	s := efm.NewScanner(bytes.NewReader(out))
	for s.Scan() {
		e := s.Entry()
		if e == nil || !e.Valid {
			continue
		}
		f := finding{
			file: e.Filename, line: e.Lnum, col: e.Col, endLine: e.EndLnum, endCol: e.EndCol,
			unit: text.Bytes, message: strings.TrimSpace(e.Text),
		}
		if e.Vcol {
			f.unit = text.Chars
		}
		if e.Type != 0 {
			f.severity = string(e.Type)
		}
		if e.Nr > 0 {
			f.code = strconv.Itoa(e.Nr)
		}
		fs = append(fs, f)
	}
	return fs
}

// parseJSON reads findings with a JSON mapping. Output that is not JSON
// (or, for "lines", lines that are not) is skipped.
func parseJSON(out []byte, m *configs.JSONMapping) []finding {
	var items []any
	if m.Findings == "lines" {
		sc := bufio.NewScanner(bytes.NewReader(out))
		sc.Buffer(nil, MaxOutput)
		for sc.Scan() {
			line := bytes.TrimSpace(sc.Bytes())
			if len(line) == 0 || line[0] != '{' {
				continue
			}
			if v, err := decode(line); err == nil {
				items = append(items, v)
			}
		}
	} else {
		dec := json.NewDecoder(bytes.NewReader(out))
		dec.UseNumber()
		for {
			var v any
			if err := dec.Decode(&v); err != nil {
				break // the end, or not JSON from here on: keep what was read
			}
			if m.Findings != "" {
				v = lookup(v, m.Findings)
			}
			switch v := v.(type) {
			case []any:
				items = append(items, v...)
			case map[string]any:
				items = append(items, v)
			}
		}
	}
	unit, _ := unitOf(m.ColumnUnit)
	var fs []finding
	for _, it := range items {
		f := finding{
			file:     str(lookup(it, m.File)),
			line:     num(lookup(it, m.Line)),
			col:      num(lookup(it, m.Column)),
			endLine:  num(lookup(it, m.EndLine)),
			endCol:   num(lookup(it, m.EndColumn)),
			unit:     unit,
			severity: str(lookup(it, m.Severity)),
			code:     str(lookup(it, m.Code)),
			message:  strings.TrimSpace(str(lookup(it, m.Message))),
		}
		if f.message == "" {
			continue // not a finding (a summary or progress record)
		}
		fs = append(fs, f)
	}
	return fs
}

func decode(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// lookup follows a dot-separated path of object keys and array indexes.
func lookup(v any, path string) any {
	if path == "" {
		return nil
	}
	for _, key := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[key]
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case json.Number:
		return x.String()
	case bool:
		return strconv.FormatBool(x)
	}
	return ""
}

func num(v any) int {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return int(i)
		}
		if f, err := x.Float64(); err == nil {
			return int(f)
		}
	case string:
		if i, err := strconv.Atoi(strings.TrimSpace(x)); err == nil {
			return i
		}
	}
	return 0
}

// unitOf parses a column unit name.
func unitOf(s string) (text.Unit, bool) {
	switch strings.ToLower(s) {
	case "", "chars", "characters":
		return text.Chars, true
	case "bytes":
		return text.Bytes, true
	case "utf16", "utf-16":
		return text.UTF16, true
	}
	return text.Chars, false
}

// severityName parses a configured default severity ("" is warning).
func severityName(s string) (engine.Severity, bool) {
	switch s {
	case "", "warning":
		return engine.SeverityWarning, true
	case "error":
		return engine.SeverityError, true
	case "info":
		return engine.SeverityInfo, true
	}
	return "", false
}

// severityOf maps a tool's severity (an errorformat type letter, a word,
// or ESLint's 2 and 1) to an engine severity; unknown ones get def.
func severityOf(raw string, def engine.Severity) engine.Severity {
	switch strings.ToLower(strings.TrimSpace(raw)) {
	case "e", "error", "err", "fatal", "critical", "blocker", "high", "2":
		return engine.SeverityError
	case "w", "warning", "warn", "major", "medium", "1":
		return engine.SeverityWarning
	case "i", "n", "info", "information", "note", "hint", "help", "style",
		"low", "minor", "refactor", "convention", "suggestion":
		return engine.SeverityInfo
	}
	return def
}

// diagnostics maps findings to diagnostics about the files in want, with
// columns converted to characters of the workspace content in all.
// Findings about other files, or paths that map to no workspace file, are
// dropped; when an error among them names a file outside the root, one
// error without its path or text says so ([outsideError]).
func (d *Driver) diagnostics(fs []finding, s *site, all map[string]*text.Doc, want map[string]bool) []engine.Diagnostic {
	var ds []engine.Diagnostic
	mappers := map[string]*text.Mapper{}
	outside := false
	for _, f := range fs {
		p, ok := s.workspacePath(f.file)
		if !ok && strings.TrimSpace(f.file) != "" && severityOf(f.severity, d.defaultSev) == engine.SeverityError {
			outside = true
		}
		if !ok || !want[p] || all[p] == nil {
			continue
		}
		m := mappers[p]
		if m == nil {
			m = text.NewMapper(all[p].Content())
			mappers[p] = m
		}
		line := max(f.line, 1)
		col := chars(m, line, f.col, f.unit)
		endLine, endCol := f.endLine, 0
		if endLine < line {
			endLine = line
		}
		switch {
		case f.endCol > 0:
			endCol = chars(m, endLine, f.endCol, f.unit)
		case endLine == line:
			endCol = col
		default:
			endCol = 1
		}
		ds = append(ds, engine.Diagnostic{
			Path: p, Line: line, Column: col, EndLine: endLine, EndColumn: endCol,
			Severity: severityOf(f.severity, d.defaultSev),
			Source:   d.name, Code: f.code, Message: f.message,
		})
	}
	if outside {
		ds = append(ds, engine.Diagnostic{Severity: engine.SeverityError, Source: d.name, Message: outsideError})
	}
	return ds
}

// outsideError stands for the errors a tool reported in files outside the
// root (a go.mod replace or go.work directory, say): they are not shown,
// and the answer is not clean.
const outsideError = "the tool reported errors in files outside the root (reached through a go.mod replace or go.work directory, a C file that a cgo preamble includes, or a path the tool was given), which are not shown; the code here may depend on them: fix them there, or run from a root that holds them"

// chars converts a 1-based column in unit on a 1-based line to a 1-based
// column in characters (1 when the tool gave none).
func chars(m *text.Mapper, line, col int, unit text.Unit) int {
	if col <= 0 {
		return 1
	}
	if unit == text.Chars {
		return col
	}
	return m.Convert(line-1, col-1, unit, text.Chars) + 1
}

// ansiEscape matches terminal escape sequences (colours, cursor moves).
var ansiEscape = regexp.MustCompile(`\x1b\[[0-9;?]*[ -/]*[@-~]`)

// stripANSI removes terminal escape sequences, which some tools print even
// when asked not to.
func stripANSI(b []byte) []byte {
	if bytes.IndexByte(b, 0x1b) < 0 {
		return b
	}
	return ansiEscape.ReplaceAll(b, nil)
}
