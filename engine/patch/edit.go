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
// a "\n" (or at the very end) is a CRLF terminator, not content. An empty
// replace deletes the matched lines. An empty find has no lines, which
// [Match] would read as a pure addition: the edit step rejects it first.
func FromFindReplace(find, replace string) Hunk {
	var h Hunk
	for _, l := range splitText(find) {
		h.Old = append(h.Old, l.Text)
	}
	h.New = splitText(replace)
	return h
}

// splitText splits s into lines. A line that ended in "\r" gets EOL "\r\n";
// any other line gets EOL "", the file's dominant terminator.
func splitText(s string) []text.Line {
	if s == "" {
		return nil
	}
	parts := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	out := make([]text.Line, len(parts))
	for i, p := range parts {
		if t := trimCR(p); len(t) < len(p) {
			out[i] = text.Line{Text: t, EOL: text.CRLF}
		} else {
			out[i] = text.Line{Text: p}
		}
	}
	return out
}
