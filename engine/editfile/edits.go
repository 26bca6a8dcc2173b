package editfile

import (
	"fmt"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/symbols"
)

// edit is the result of a mutating command before it is written: the new
// body text and the lines (1-based, in the new text) that changed.
type edit struct {
	body        body
	before, now string
	first, last int
	// replaced counts a replace_all's replacements (0 for other edits);
	// lastAt is the line (in the new text) where the last one starts.
	replaced, lastAt int
}

func need(p *string, name, command string) (string, error) {
	if p == nil {
		return "", fault.New(fault.BadArgument, "%s needs %s", command, name)
	}
	return *p, nil
}

// strReplace replaces old_str (byte-exact; unique unless occurrence picks
// one) or the range start_anchor..end_anchor with new_str.
func strReplace(f *file, p *Params) (*edit, error) {
	b := bodyOf(f.doc)
	newStr, err := need(p.NewStr, "new_str", "str_replace")
	if err != nil {
		return nil, err
	}
	newStr = b.in(newStr)
	var start, end int
	switch {
	case p.StartAnchor != nil || p.EndAnchor != nil:
		if p.OldStr != nil || p.Occurrence != nil || p.ReplaceAll {
			return nil, fault.New(fault.BadArgument, "str_replace takes old_str (with optional occurrence or replace_all) or start_anchor/end_anchor, not both")
		}
		if p.StartAnchor == nil || p.EndAnchor == nil {
			return nil, fault.New(fault.BadArgument, "start_anchor and end_anchor go together: give both")
		}
		sa, ea := b.in(*p.StartAnchor), b.in(*p.EndAnchor)
		if sa == "" || ea == "" {
			return nil, fault.New(fault.BadArgument, "start_anchor and end_anchor must not be empty")
		}
		hits := indexAll(b.s, sa)
		switch len(hits) {
		case 0:
			return nil, noMatch(f, b, *p.StartAnchor, "start_anchor")
		case 1:
		default:
			return nil, fault.New(fault.Ambiguous, "start_anchor %s is not unique in %s: it appears at lines %s; use a longer start_anchor that appears once", quoteLine(*p.StartAnchor), f.abs, lineList(b.s, hits))
		}
		start = hits[0]
		j := strings.Index(b.s[start+len(sa):], ea)
		if j < 0 {
			return nil, fault.New(fault.NoMatch, "end_anchor %s does not appear after start_anchor (line %d) in %s", quoteLine(*p.EndAnchor), lineOf(b.s, start), f.abs)
		}
		end = start + len(sa) + j + len(ea)
	default:
		oldStr, err := need(p.OldStr, "old_str (or start_anchor and end_anchor)", "str_replace")
		if err != nil {
			return nil, err
		}
		if oldStr == "" {
			return nil, fault.New(fault.BadArgument, "old_str is empty: give the exact text to replace (to add text, use insert)")
		}
		if oldStr == *p.NewStr {
			return nil, fault.New(fault.BadArgument, "old_str and new_str are the same: the edit would change nothing")
		}
		old := b.in(oldStr)
		hits := indexAll(b.s, old)
		switch {
		case len(hits) == 0:
			return nil, noMatch(f, b, oldStr, "old_str")
		case p.ReplaceAll:
			if p.Occurrence != nil {
				return nil, fault.New(fault.BadArgument, "replace_all replaces every occurrence of old_str, occurrence picks one: give one of them")
			}
			return replaceAll(b, old, newStr, hits), nil
		case p.Occurrence != nil:
			k := *p.Occurrence
			if k < 1 || k > len(hits) {
				return nil, fault.New(fault.Bounds, "occurrence %d is out of range: old_str appears %d times in %s (lines %s); give 1-%d", k, len(hits), f.abs, lineList(b.s, hits), len(hits))
			}
			start = hits[k-1]
		case len(hits) > 1:
			return nil, fault.New(fault.Ambiguous, "old_str appears %d times in %s, at lines %s: add surrounding lines to make it unique, pass occurrence: 1-%d, or pass replace_all: true to replace them all", len(hits), f.abs, lineList(b.s, hits), len(hits))
		default:
			start = hits[0]
		}
		end = start + len(old)
	}
	now := b.s[:start] + newStr + b.s[end:]
	first := lineOf(now, start)
	last := first + strings.Count(newStr, "\n")
	return &edit{body: b, before: b.s, now: now, first: first, last: last}, nil
}

// replaceAll replaces old with newStr at each of hits, the offsets of
// old's non-overlapping occurrences in b.
func replaceAll(b body, old, newStr string, hits []int) *edit {
	now := strings.ReplaceAll(b.s, old, newStr)
	first := lineOf(now, hits[0])
	lastOff := hits[len(hits)-1] + (len(hits)-1)*(len(newStr)-len(old))
	lastAt := lineOf(now, lastOff)
	return &edit{body: b, before: b.s, now: now, first: first, last: lastAt + strings.Count(newStr, "\n"),
		replaced: len(hits), lastAt: lastAt}
}

// noMatch explains an old_str or anchor that is not in the file: the
// closest window of the file, and a sentence about line endings when they
// may be the reason.
func noMatch(f *file, b body, want, what string) error {
	var msg strings.Builder
	fmt.Fprintf(&msg, "%s was not found in %s (it must match byte-for-byte, indentation and all; copy it from a view).", what, f.abs)
	if line, window := closest(b.s, b.in(want)); line > 0 {
		fmt.Fprintf(&msg, " The closest text is at line %d:\n", line)
		for i, l := range window {
			fmt.Fprintf(&msg, "%d\t%s\n", line+i, quoteLine(l))
		}
	}
	if f.doc.Mixed() {
		msg.WriteString(" Note: this file has mixed line endings (LF and CRLF), so old_str must carry \\r\\n exactly where the file has it.")
	} else if strings.Contains(want, "\r\n") && !b.crlf {
		msg.WriteString(" Note: old_str has CRLF (\\r\\n) line endings but the file uses LF.")
	}
	return fault.New(fault.NoMatch, "%s", strings.TrimRight(msg.String(), "\n"))
}

// closest finds the window of s's lines most like want's lines and
// returns its 1-based first line and its lines; 0 when s is empty. Lines
// are compared trimmed, by the length of their common prefix and suffix, so
// a window that differs only in indentation, one character or a line
// ending still wins. Only the first closestLines lines of want count.
func closest(s, want string) (int, []string) {
	have := lines(s)
	w := lines(want)
	if len(have) == 0 {
		return 0, nil
	}
	if len(w) == 0 {
		w = []string{want}
	}
	score := w
	if len(score) > closestLines {
		score = score[:closestLines]
	}
	tw := make([]string, len(score))
	for j, l := range score {
		tw[j] = strings.TrimSpace(strings.TrimSuffix(l, "\r"))
	}
	best, bestAt := -1, 0
	for i := range have {
		total := 0
		for j := 0; j < len(tw) && i+j < len(have); j++ {
			total += similarity(strings.TrimSpace(strings.TrimSuffix(have[i+j], "\r")), tw[j])
		}
		if total > best {
			best, bestAt = total, i
		}
	}
	end := min(bestAt+len(w), len(have))
	return bestAt + 1, have[bestAt:end]
}

// closestLines bounds how many lines of old_str closest compares.
const closestLines = 8

// similarity is the length of the longest common prefix plus that of the
// longest common suffix of a and b (not counting a byte twice).
func similarity(a, b string) int {
	n := min(len(a), len(b))
	p := 0
	for p < n && a[p] == b[p] {
		p++
	}
	q := 0
	for q < n-p && a[len(a)-1-q] == b[len(b)-1-q] {
		q++
	}
	return p + q
}

// insert inserts new_str as whole lines after insert_line (0 = top) or
// before/after an anchor's line.
func insert(f *file, p *Params) (*edit, error) {
	b := bodyOf(f.doc)
	newStr, err := need(p.NewStr, "new_str", "insert")
	if err != nil {
		return nil, err
	}
	if newStr == "" {
		return nil, fault.New(fault.BadArgument, "new_str is empty: there is nothing to insert")
	}
	n := lineCount(b.s)
	given := 0
	for _, set := range []bool{p.InsertLine != nil, p.InsertBeforeAnchor != nil, p.InsertAfterAnchor != nil} {
		if set {
			given++
		}
	}
	if given != 1 {
		return nil, fault.New(fault.BadArgument, "insert needs exactly one of insert_line, insert_before_anchor or insert_after_anchor")
	}
	var after int // insert after this many lines
	switch {
	case p.InsertLine != nil:
		after = *p.InsertLine
		if after < 0 || after > n {
			return nil, fault.New(fault.Bounds, "insert_line %d is out of range: %s has %d lines, so give 0 (top) to %d (end)", after, f.abs, n, n)
		}
	case p.InsertBeforeAnchor != nil:
		line, err := uniqueLine(b, *p.InsertBeforeAnchor, "insert_before_anchor")
		if err != nil {
			return nil, err
		}
		after = line - 1
	default:
		line, err := uniqueLine(b, *p.InsertAfterAnchor, "insert_after_anchor")
		if err != nil {
			return nil, err
		}
		// The anchor's last line: a "\n" that ends the anchor ends that
		// line, it does not reach into the next one.
		after = line + strings.Count(strings.TrimSuffix(b.in(*p.InsertAfterAnchor), "\n"), "\n")
	}
	text := b.in(newStr)
	eol := "\n"
	if !b.crlf && f.doc.EOL() == "\r\n" {
		// A mixed file whose dominant ending is CRLF: inserted lines
		// take it.
		eol = "\r\n"
		text = strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\n", "\r\n")
	}
	if !strings.HasSuffix(text, "\n") {
		text += eol
	}
	at := lineStart(b.s, after+1)
	var now string
	finalNL := b.s == "" || strings.HasSuffix(b.s, "\n")
	if at == len(b.s) && !finalNL {
		// Appending after a last line without a newline: end that line,
		// and keep the file without a final newline.
		now = b.s + eol + strings.TrimSuffix(strings.TrimSuffix(text, "\n"), "\r")
	} else {
		now = b.s[:at] + text + b.s[at:]
	}
	first := after + 1
	last := after + strings.Count(strings.TrimSuffix(text, "\n"), "\n") + 1
	return &edit{body: b, before: b.s, now: now, first: first, last: last}, nil
}

// replaceSymbol replaces a declaration's whole lexical extent.
func replaceSymbol(f *file, p *Params) (*edit, error) {
	b := bodyOf(f.doc)
	name, err := need(p.Symbol, "symbol", "replace_symbol")
	if err != nil {
		return nil, err
	}
	newStr, err := need(p.NewStr, "new_str", "replace_symbol")
	if err != nil {
		return nil, err
	}
	sym, err := symbols.Lookup(f.rel, strings.ReplaceAll(b.s, "\r\n", "\n"), name, p.SymbolKind)
	if err != nil {
		return nil, symbolFault(err, f.abs)
	}
	start, end := lineStart(b.s, sym.StartLine), lineStart(b.s, sym.EndLine+1)
	text := b.in(newStr)
	// The replaced lines' final newline state is kept: a symbol that ends
	// a file without a final newline leaves it without one.
	switch {
	case text != "" && !strings.HasSuffix(text, "\n") && end > start && strings.HasSuffix(b.s[start:end], "\n"):
		text += "\n"
	case end == len(b.s) && end > start && !strings.HasSuffix(b.s, "\n"):
		if t, ok := strings.CutSuffix(text, "\r\n"); ok {
			text = t
		} else {
			text = strings.TrimSuffix(text, "\n")
		}
	}
	now := b.s[:start] + text + b.s[end:]
	first := sym.StartLine
	last := first + strings.Count(strings.TrimSuffix(text, "\n"), "\n")
	return &edit{body: b, before: b.s, now: now, first: first, last: last}, nil
}
