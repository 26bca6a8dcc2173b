package editfile

import (
	"fmt"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
	"regexp"
	"strconv"
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// snippetContext is how many lines around an edit its snippet shows.
const snippetContext = 4

// MaxOutput is the most file content one view or read_file answer holds:
// the numbered lines, 256 KiB. A larger answer is refused with the range
// that fits, so a huge file never floods the caller or the server.
const MaxOutput = 256 << 10

// fitLines returns the last line, at most last, through which the numbered
// lines first..last of s stay within max bytes (first-1 when even line
// first does not fit). It walks only as far as max allows.
func fitLines(s string, first, last, max int) int {
	off, size := lineStart(s, first), 0
	for i := first; i <= last && off < len(s); i++ {
		j := strings.IndexByte(s[off:], '\n')
		n := len(s) - off
		if j >= 0 {
			n = j + 1
		}
		size += len(strconv.Itoa(i)) + 1 + n
		if size > max {
			return i - 1
		}
		off += n
	}
	return last
}

// tooLong is the error of an answer over [MaxOutput] for lines
// first..last of s, of which first..fit fit: what was asked, and the
// parameter (param renders it for a range) and range to ask for instead.
// A line that alone is over the limit can never be shown: the error says
// so, and where to continue past it.
func tooLong(abs, s string, first, last, fit int, param func(from, to int) string) error {
	alone := func(line int) bool { return fitLines(s, line, line, MaxOutput) < line }
	if fit < first {
		msg := fmt.Sprintf("%s: line %d alone is longer than the %d KiB an answer may hold, so it cannot be shown: edit it or around it with str_replace (anchors) or patch", abs, first, MaxOutput>>10)
		if first < last {
			next := first + 1
			msg += fmt.Sprintf("; the lines after it: %s", param(next, min(last, max(next, fitLines(s, next, last, MaxOutput)))))
		}
		return fault.New(fault.Bounds, "%s", msg)
	}
	next := fmt.Sprintf("then continue from line %d", fit+1)
	if fit+1 <= last && alone(fit+1) {
		next = fmt.Sprintf("line %d alone is longer than the limit and cannot be shown, so edit it with str_replace (anchors) or patch and continue from line %d", fit+1, fit+2)
	}
	return fault.New(fault.Bounds, "%s: lines %d-%d are more than the %d KiB an answer may hold; ask for fewer lines: %s (%s)", abs, first, last, MaxOutput>>10, param(first, fit), next)
}

// numbered renders lines first..last (1-based, inclusive, clamped) of s as
// "N<TAB>text" lines. It only walks to the window, so a snippet of a large
// file costs what the window costs.
func numbered(s string, first, last int) string {
	if first < 1 {
		first = 1
	}
	off := lineStart(s, first)
	var b strings.Builder
	for i := first; i <= last && off < len(s); i++ {
		l := s[off:]
		if j := strings.IndexByte(l, '\n'); j >= 0 {
			l = l[:j]
			off += j + 1
		} else {
			off = len(s)
		}
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\t')
		b.WriteString(strings.TrimSuffix(l, "\r"))
		b.WriteByte('\n')
	}
	return b.String()
}

// lineCount is the number of lines of s (see lines).
func lineCount(s string) int {
	if s == "" {
		return 0
	}
	n := strings.Count(s, "\n")
	if !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// snippet renders the edited region of s (lines first..last) with context.
func snippet(s string, first, last int) string {
	if last < first {
		last = first
	}
	return numbered(s, first-snippetContext, last+snippetContext)
}

// diffContext is how many lines of context a unified diff shows.
const diffContext = 3

// unifiedDiff is the unified diff between two bodies. Only the region
// between their common leading and trailing lines (plus context) is
// diffed, and the hunk headers are shifted back to file line numbers, so
// a small edit of a large file costs about what comparing the bytes
// costs.
func unifiedDiff(path, before, after string) string {
	// Common prefix, cut back to a line start, then diffContext lines.
	p := text.CommonPrefix(before, after)
	p = strings.LastIndexByte(before[:p], '\n') + 1
	for k := 0; k < diffContext && p > 0; k++ {
		p = strings.LastIndexByte(before[:p-1], '\n') + 1
	}
	// Common suffix of what is left, cut forward to a line start (that
	// is, after a "\n" in both), then diffContext lines.
	b, a := before[p:], after[p:]
	q := text.CommonSuffix(b, a)
	suf := b[len(b)-q:]
	atLineStart := func(t string) bool { return q == len(t) || t[len(t)-q-1] == '\n' }
	if !atLineStart(b) || !atLineStart(a) {
		// The suffix starts mid-line: skip to the next line start.
		if j := strings.IndexByte(suf, '\n'); j >= 0 {
			suf = suf[j+1:]
		} else {
			suf = ""
		}
	}
	for k := 0; k < diffContext && suf != ""; k++ {
		j := strings.IndexByte(suf, '\n')
		if j < 0 {
			suf = ""
			break
		}
		suf = suf[j+1:]
	}
	q = len(suf)
	d := udiff.Unified(path, path, b[:len(b)-q], a[:len(a)-q])
	offset := strings.Count(before[:p], "\n")
	if offset == 0 || d == "" {
		return d
	}
	return hunkHeader.ReplaceAllStringFunc(d, func(h string) string {
		m := hunkHeader.FindStringSubmatch(h)
		return "@@ -" + shift(m[1], offset) + m[2] + " +" + shift(m[3], offset) + m[4] + " @@"
	})
}

// hunkHeader matches a unified diff's hunk header.
var hunkHeader = regexp.MustCompile(`(?m)^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@`)

func shift(n string, by int) string {
	v, _ := strconv.Atoi(n)
	return strconv.Itoa(v + by)
}

// quoteLine renders a line for an error message so that tabs, trailing
// spaces and "\r" are visible.
func quoteLine(s string) string { return fmt.Sprintf("%q", s) }
