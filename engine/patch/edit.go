package patch

// This file defines [FromFindReplace], the edit step's lowering of one
// {find, replace} to a [Hunk].

import (
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// FromFindReplace lowers one edit of the edit step to a hunk: find's lines
// are the lines to match, replace's lines replace them. Both are split on
// "\n"; a trailing "\n" does not make an extra empty line, and a "\r" before
// a "\n" (or at the very end) is a CRLF terminator, not content. Terminators
// follow the patch rule (see [Hunk.OldEOL]): when a line of find ends in
// "\r\n", every terminator of find and replace is meant as written. An empty
// replace deletes the matched lines. An empty find has no lines, which
// [Match] would read as a pure addition: the edit step rejects it first.
// A replace that ends with a terminator, matched at the end of a file that
// has no final newline, gives the file one ([Hunk.FinalNewline]); one
// that does not end with a terminator leaves the file without.
func FromFindReplace(find, replace string) Hunk {
	var h Hunk
	var oldEOL []string
	for _, l := range splitText(find) {
		h.Old = append(h.Old, l.Text)
		oldEOL = append(oldEOL, l.EOL)
	}
	h.New = splitText(replace)
	h.FinalNewline = len(h.New) > 0 && h.New[len(h.New)-1].EOL != ""
	h.setTerminators(oldEOL)
	return h
}

// splitText splits s into lines, each with its terminator as written:
// "\r\n" for a line that ended in "\r", "\n", or "" for a last line
// without one.
func splitText(s string) []text.Line {
	if s == "" {
		return nil
	}
	final := strings.HasSuffix(s, "\n")
	parts := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	out := make([]text.Line, len(parts))
	for i, p := range parts {
		switch t := trimCR(p); {
		case len(t) < len(p):
			out[i] = text.Line{Text: t, EOL: text.CRLF}
		case i < len(parts)-1 || final:
			out[i] = text.Line{Text: p, EOL: text.LF}
		default:
			out[i] = text.Line{Text: p}
		}
	}
	return out
}
