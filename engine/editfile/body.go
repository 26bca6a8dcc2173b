package editfile

import (
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// body is a file's text as edit_file matches it: without the BOM and, in a
// file whose every line ends in CRLF, with LF line ends (docs/line-endings.md: there
// old_str, anchors and new_str are read with LF and written with CRLF). In
// any other file it is the raw text, byte-exact, "\r" included.
type body struct {
	s    string
	crlf bool
	bom  bool
	// restore, for a mixed-ending file matched in LF form (the patch
	// command: docs/line-endings.md's line matchers ignore terminators), is the
	// original whose terminators are put back on the lines kept.
	restore *text.Doc
}

func bodyOf(d *text.Doc) body {
	if d.AllCRLF() {
		return body{s: d.LFContent(), crlf: true, bom: d.BOM()}
	}
	return body{s: d.Content(), bom: d.BOM()}
}

// lineBodyOf is bodyOf for the line matchers (patch): a mixed-ending file
// is matched in LF form too, and its kept lines keep their terminators.
func lineBodyOf(d *text.Doc) body {
	if d.Mixed() {
		return body{s: d.LFContent(), bom: d.BOM(), restore: d}
	}
	return bodyOf(d)
}

// in converts a caller's string to the body's form.
func (b body) in(s string) string {
	if b.crlf || b.restore != nil {
		return strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s
}

// file converts body text back to the file's text, as on disk.
func (b body) file(s string) string {
	if b.restore != nil {
		return text.RestoreEOL(b.restore, s).String()
	}
	if b.crlf {
		s = strings.ReplaceAll(s, "\n", "\r\n")
	}
	if b.bom {
		s = text.BOM + s
	}
	return s
}

// lineOf is the 1-based line of byte offset off in s.
func lineOf(s string, off int) int { return strings.Count(s[:off], "\n") + 1 }

// lines splits s into lines without terminators; a final "\n" does not
// start another line.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// lineStart returns the byte offset where 1-based line n starts in s
// (len(s) when n is past the end).
func lineStart(s string, n int) int { return text.LineOffset(s, n-1) }

// indexAll returns the start offsets of the non-overlapping occurrences of
// sub in s.
func indexAll(s, sub string) []int {
	var out []int
	for off := 0; off <= len(s); {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			break
		}
		out = append(out, off+i)
		off += i + len(sub)
	}
	return out
}
