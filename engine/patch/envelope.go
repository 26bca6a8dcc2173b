package patch

// This file defines [ParseEnvelope], the parser of apply_patch's
// "*** Begin Patch" envelope, and its results [FileOp] and [ParseError].
//
// Grammar (line by line; a trailing "\r" is not part of a line):
//
//	*** Begin Patch
//	( *** Add File: PATH      then "+" lines, the file's content
//	| *** Delete File: PATH
//	| *** Update File: PATH   [*** Move to: PATH] ["--- ..." "+++ ..."] hunk*
//	)*
//	*** End Patch
//
//	hunk = ("@@" | "@@ HINT" | "@@ -a,b +c,d @@ [HINT]") line+ ["*** End of File"]
//	line = " " context | "-" removed | "+" added | "" (an empty context line)
//
// The first hunk of a file may omit its "@@" line. Blank lines around the
// envelope, between sections, and at the end of a hunk (before the next "@@",
// header or "*** End Patch") are separators, not content.

import (
	"errors"
	"fmt"
	"path"
	"regexp"
	"strconv"
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// OpKind is the kind of a [FileOp].
type OpKind int

const (
	Add    OpKind = iota + 1 // "*** Add File:"
	Delete                   // "*** Delete File:"
	Update                   // "*** Update File:", possibly with "*** Move to:"
)

// String is the kind's name: "add", "delete" or "update".
func (k OpKind) String() string {
	switch k {
	case Add:
		return "add"
	case Delete:
		return "delete"
	case Update:
		return "update"
	}
	return "OpKind(" + strconv.Itoa(int(k)) + ")"
}

// FileOp is one section of the envelope.
type FileOp struct {
	Kind OpKind
	// Path is the file the section names, as written (trimmed). It is not
	// validated here, except that it is not empty.
	Path string
	// MoveTo is the "*** Move to:" destination of an Update ("" if none).
	// An Update with MoveTo and no Hunks is a pure move.
	MoveTo string
	// Hunks are an Update's hunks, in patch order.
	Hunks []Hunk
	// Lines are an Add's lines. Every line has a terminator: "\r\n" if it
	// carried "\r" in the patch, "\n" otherwise; an added file ends with a
	// newline. No lines is an empty file.
	Lines []text.Line
	// Line is the 1-based line of the section's header in the patch text.
	Line int
}

// ErrUnifiedDiff is wrapped by the [*ParseError] that refuses a unified diff.
var ErrUnifiedDiff = errors.New("unified diff instead of a \"*** Begin Patch\" envelope")

// ParseError reports a malformed envelope: the 1-based line number and the
// offending line (Line 0 when the error is about the whole patch).
type ParseError struct {
	Line int
	Text string
	Msg  string

	err error // a sentinel it wraps, if any
}

// Error returns "line N: "TEXT": MSG", or MSG alone when Line is 0.
func (e *ParseError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("line %d: %s: %s", e.Line, quote(e.Text), e.Msg)
}

// Unwrap returns [ErrUnifiedDiff] for a refused unified diff,
// [text.ErrBinary] or [text.ErrNotUTF8] for a line that is not text, nil
// otherwise.
func (e *ParseError) Unwrap() error { return e.err }

// Markers of the envelope.
const (
	beginPatch  = "*** Begin Patch"
	endPatch    = "*** End Patch"
	addFile     = "*** Add File:"
	deleteFile  = "*** Delete File:"
	updateFile  = "*** Update File:"
	moveTo      = "*** Move to:"
	endOfFile   = "*** End of File"
	expectedHdr = `expected a file header ("*** Add File: PATH", "*** Delete File: PATH" or "*** Update File: PATH") or "*** End Patch"`
	expectedHnk = `expected a hunk line starting with ' ', '-' or '+' (or "@@", "*** End of File", a new "*** ... File:" header, or "*** End Patch")`
	unifiedMsg  = `apply_patch takes the "*** Begin Patch" envelope only; this looks like a unified diff: use the edit step (find/replace whole lines) or edit_file's patch command`
)

// rangeHeader matches a unified-diff hunk header, "@@ -10,3 +10,4 @@", and
// captures the section text git puts after it.
var rangeHeader = regexp.MustCompile(`^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@(.*)$`)

// pline is one line of the patch text.
type pline struct {
	text string // without "\n" and without one trailing "\r"
	cr   bool   // the line carried "\r" before its "\n"
}

type parser struct {
	lines []pline
	i     int            // the next line, 0-based
	ops   []FileOp       // parsed so far
	seen  map[string]int // cleaned path → line that named it as an operation's subject
	dests map[string]int // cleaned path → line that made it a destination (Add, Move to)
	inRun int            // lines before it are in a blank run that is not a separator
}

// ParseEnvelope parses a "*** Begin Patch" ... "*** End Patch" envelope into
// its file operations, in order. Errors are [*ParseError]s; a unified diff is
// refused with one that wraps [ErrUnifiedDiff].
func ParseEnvelope(patch string) ([]FileOp, error) {
	p := &parser{lines: splitPatch(patch), seen: map[string]int{}, dests: map[string]int{}}
	if err := p.text(); err != nil {
		return nil, err
	}
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.ops, nil
}

// text refuses a patch line that is not text (a NUL byte or invalid
// UTF-8): no file may be made binary, whichever entry writes it.
func (p *parser) text() error {
	for i, l := range p.lines {
		if err := text.CheckString(l.text); err != nil {
			return &ParseError{Line: i + 1, Text: l.text, err: err,
				Msg: err.Error() + "; a file is text (valid UTF-8 with no NUL byte): remove that byte (a program that needs one can write an escape such as \\x00)"}
		}
	}
	return nil
}

func splitPatch(s string) []pline {
	raw := strings.Split(s, "\n")
	if raw[len(raw)-1] == "" {
		raw = raw[:len(raw)-1]
	}
	out := make([]pline, len(raw))
	for i, r := range raw {
		t := trimCR(r)
		out[i] = pline{text: t, cr: len(t) < len(r)}
	}
	return out
}

// marker is a line as compared with the markers: trailing blanks dropped.
func marker(s string) string { return strings.TrimRight(s, " \t") }

func blank(s string) bool { return strings.TrimSpace(s) == "" }

// isHeader reports whether s starts a new section or ends the envelope.
func isHeader(s string) bool {
	m := marker(s)
	return m == endPatch || strings.HasPrefix(m, addFile) || strings.HasPrefix(m, deleteFile) || strings.HasPrefix(m, updateFile)
}

func looksUnified(s string) bool {
	for _, p := range []string{"--- ", "+++ ", "diff ", "Index:", "@@"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

func (p *parser) errAt(i int, msg string, args ...any) *ParseError {
	if len(args) > 0 {
		msg = fmt.Sprintf(msg, args...)
	}
	return &ParseError{Line: i + 1, Text: p.lines[i].text, Msg: msg}
}

func (p *parser) skipBlank() {
	for p.i < len(p.lines) && blank(p.lines[p.i].text) {
		p.i++
	}
}

func (p *parser) parse() error {
	p.skipBlank()
	if p.i == len(p.lines) {
		return &ParseError{Msg: `the patch is empty: it must start with "*** Begin Patch" and end with "*** End Patch"`}
	}
	first := p.lines[p.i].text
	if strings.TrimSpace(first) != beginPatch {
		if looksUnified(first) {
			e := p.errAt(p.i, unifiedMsg)
			e.err = ErrUnifiedDiff
			return e
		}
		return p.errAt(p.i, `expected "*** Begin Patch" as the first line`)
	}
	p.i++
	for {
		p.skipBlank()
		if p.i == len(p.lines) {
			last := len(p.lines) - 1
			for blank(p.lines[last].text) {
				last--
			}
			return p.errAt(last, `the patch ends without "*** End Patch"`)
		}
		m := marker(p.lines[p.i].text)
		var err error
		switch {
		case m == endPatch:
			return p.finish()
		case strings.HasPrefix(m, addFile):
			err = p.parseAdd()
		case strings.HasPrefix(m, deleteFile):
			err = p.parseDelete()
		case strings.HasPrefix(m, updateFile):
			err = p.parseUpdate()
		case strings.HasPrefix(m, moveTo):
			err = p.errAt(p.i, `"*** Move to:" must come right after its "*** Update File:" line`)
		default:
			err = p.errAt(p.i, expectedHdr)
		}
		if err != nil {
			return err
		}
	}
}

// finish checks what follows "*** End Patch" at p.i.
func (p *parser) finish() error {
	end := p.i
	p.i++
	p.skipBlank()
	if p.i < len(p.lines) {
		return p.errAt(p.i, `unexpected text after "*** End Patch" (line %d)`, end+1)
	}
	if len(p.ops) == 0 {
		return p.errAt(end, `the patch has no file operations: add "*** Add File:", "*** Delete File:" or "*** Update File:" sections`)
	}
	return nil
}

// header reads the path of the header line at p.i and records it.
func (p *parser) header(prefix string) (string, error) {
	path := strings.TrimSpace(strings.TrimPrefix(marker(p.lines[p.i].text), prefix))
	if path == "" {
		return "", p.errAt(p.i, "%q needs a path", prefix)
	}
	return path, p.claim(path, prefix)
}

// claim records that line p.i names path. Operations apply in order, so a
// path may be named again once an earlier operation moved a file onto it
// (a swap through a third name), but each path is the subject of at most
// one operation (an Add, Delete or Update header) and the destination of
// at most one (an Add or a Move to): anything else is a mistake.
func (p *parser) claim(name, prefix string) error {
	key := path.Clean(name)
	subject := prefix != moveTo
	dest := prefix == moveTo || prefix == addFile
	if at, ok := p.seen[key]; ok && subject {
		return p.errAt(p.i, "the path %q is already the subject of the operation on line %d: give each file one operation in a patch", name, at)
	}
	if at, ok := p.dests[key]; ok && dest {
		return p.errAt(p.i, "the path %q already receives a file on line %d: two operations cannot both create or move a file onto one path", name, at)
	}
	if prefix == moveTo && p.i > 0 {
		if src := strings.TrimSpace(strings.TrimPrefix(marker(p.lines[p.i-1].text), updateFile)); path.Clean(src) == key {
			return p.errAt(p.i, "the path %q is moved onto itself: drop the \"*** Move to:\" line", name)
		}
	}
	if subject {
		p.seen[key] = p.i + 1
	}
	if dest {
		p.dests[key] = p.i + 1
	}
	return nil
}

func (p *parser) parseDelete() error {
	name, err := p.header(deleteFile)
	if err != nil {
		return err
	}
	p.ops = append(p.ops, FileOp{Kind: Delete, Path: name, Line: p.i + 1})
	p.i++
	p.skipBlank()
	if p.i < len(p.lines) && !isHeader(p.lines[p.i].text) {
		return p.errAt(p.i, `a deleted file takes no lines: %s`, expectedHdr)
	}
	return nil
}

func (p *parser) parseAdd() error {
	name, err := p.header(addFile)
	if err != nil {
		return err
	}
	op := FileOp{Kind: Add, Path: name, Line: p.i + 1, Lines: []text.Line{}}
	for p.i++; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		switch {
		case isHeader(l.text):
		case strings.HasPrefix(l.text, "+"):
			eol := text.LF
			if l.cr {
				eol = text.CRLF
			}
			op.Lines = append(op.Lines, text.Line{Text: l.text[1:], EOL: eol})
			continue
		case blank(l.text) && p.separator():
		default:
			return p.errAt(p.i, `expected a line of the added file starting with '+' (an empty line is a lone "+"), a new "*** ... File:" header, or "*** End Patch"`)
		}
		break
	}
	p.ops = append(p.ops, op)
	return nil
}

// separator reports whether the blank line at p.i begins a run of blank
// lines that ends at a header, an "@@" line or the end of the text. It
// remembers a run that does not, so a long run is scanned once.
func (p *parser) separator() bool {
	if p.i < p.inRun {
		return false
	}
	j := p.i
	for j < len(p.lines) && blank(p.lines[j].text) {
		j++
	}
	if j == len(p.lines) || isHeader(p.lines[j].text) || strings.HasPrefix(p.lines[j].text, "@@") {
		return true
	}
	p.inRun = j
	return false
}

func (p *parser) parseUpdate() error {
	name, err := p.header(updateFile)
	if err != nil {
		return err
	}
	op := FileOp{Kind: Update, Path: name, Line: p.i + 1}
	p.i++
	if p.i < len(p.lines) && strings.HasPrefix(marker(p.lines[p.i].text), moveTo) {
		if op.MoveTo, err = p.header(moveTo); err != nil {
			return err
		}
		p.i++
	}
	// "--- a/x" and "+++ b/x" header lines, as in the seed's example.
	if p.i+1 < len(p.lines) && strings.HasPrefix(p.lines[p.i].text, "--- ") && strings.HasPrefix(p.lines[p.i+1].text, "+++ ") {
		p.i += 2
	}
	for p.i < len(p.lines) {
		t := p.lines[p.i].text
		switch {
		case isHeader(t):
		case strings.HasPrefix(t, "@@"):
			h := Hunk{Hint: hint(t), Line: p.i + 1}
			p.i++
			if err := p.parseHunk(&h); err != nil {
				return err
			}
			op.Hunks = append(op.Hunks, h)
			continue
		case blank(t) && (len(op.Hunks) == 0 || p.separator()):
			p.skipBlank()
			continue
		case len(op.Hunks) == 0 && (t[0] == ' ' || t[0] == '-' || t[0] == '+'):
			// A first hunk without its "@@" line.
			h := Hunk{Line: p.i + 1}
			if err := p.parseHunk(&h); err != nil {
				return err
			}
			op.Hunks = append(op.Hunks, h)
			continue
		case strings.HasPrefix(marker(t), moveTo):
			return p.errAt(p.i, `"*** Move to:" must come right after its "*** Update File:" line, once`)
		case len(op.Hunks) > 0 && op.Hunks[len(op.Hunks)-1].EOF:
			return p.errAt(p.i, `expected "@@", a new "*** ... File:" header, or "*** End Patch" after "*** End of File"`)
		default:
			return p.errAt(p.i, expectedHnk)
		}
		break
	}
	if len(op.Hunks) == 0 && op.MoveTo == "" {
		return p.errAt(op.Line-1, `an updated file needs at least one "@@" hunk or a "*** Move to:" line (to delete it, use "*** Delete File:")`)
	}
	p.ops = append(p.ops, op)
	return nil
}

// hint returns the hint of an "@@" line: the text after "@@ ", or for a
// unified-diff range header the section text git writes after it.
func hint(t string) string {
	if m := rangeHeader.FindStringSubmatch(t); m != nil {
		return strings.TrimSpace(m[1])
	}
	return strings.TrimSpace(t[2:])
}

// parseHunk reads the lines of h from p.i up to the next "@@", header or
// "*** End of File" (which it consumes).
func (p *parser) parseHunk(h *Hunk) error {
	var oldEOL []string
	for ; p.i < len(p.lines); p.i++ {
		l := p.lines[p.i]
		t := l.text
		if isHeader(t) || strings.HasPrefix(t, "@@") {
			break
		}
		if marker(t) == endOfFile {
			h.EOF = true
			p.i++
			break
		}
		eol := text.LF
		if l.cr {
			eol = text.CRLF
		}
		switch {
		case t == "":
			if p.separator() {
				p.skipBlank()
				return p.checkHunk(h, oldEOL)
			}
			h.Old = append(h.Old, "")
			oldEOL = append(oldEOL, eol)
			h.New = append(h.New, text.Line{EOL: eol})
		case t[0] == ' ':
			h.Old = append(h.Old, t[1:])
			oldEOL = append(oldEOL, eol)
			h.New = append(h.New, text.Line{Text: t[1:], EOL: eol})
		case t[0] == '-':
			h.Old = append(h.Old, t[1:])
			oldEOL = append(oldEOL, eol)
		case t[0] == '+':
			h.New = append(h.New, text.Line{Text: t[1:], EOL: eol})
		default:
			return p.errAt(p.i, expectedHnk)
		}
	}
	return p.checkHunk(h, oldEOL)
}

// checkHunk refuses a hunk without lines, and settles its terminators
// (oldEOL: its Old lines' as written).
func (p *parser) checkHunk(h *Hunk, oldEOL []string) error {
	if len(h.Old) == 0 && len(h.New) == 0 {
		return p.errAt(h.Line-1, `empty hunk: an "@@" line must be followed by lines starting with ' ', '-' or '+'`)
	}
	h.setTerminators(oldEOL)
	return nil
}
