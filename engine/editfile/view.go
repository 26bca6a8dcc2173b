package editfile

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/symbols"
)

// defaultContext is view's default context around an anchor.
const defaultContext = 20

// view shows a file, a line range, or the region around an anchor or a
// symbol, numbered, and marks the file as read.
func (s *Session) view(p *Params) (*Result, error) {
	f, err := s.load(p.FilePath)
	if err != nil {
		return nil, err
	}
	b := bodyOf(f.doc)
	n := lineCount(b.s)
	first, last := 1, n
	header := ""
	given := 0
	for _, set := range []bool{p.ViewRange != nil, p.Anchor != nil, p.Symbol != nil} {
		if set {
			given++
		}
	}
	if given > 1 {
		return nil, fault.New(fault.BadArgument, "view takes one of view_range, anchor or symbol, not several")
	}
	if (p.ContextBefore != nil || p.ContextAfter != nil) && p.Anchor == nil && p.Symbol == nil {
		return nil, fault.New(fault.BadArgument, "context_before and context_after go with anchor or symbol")
	}
	before, after := defaultContext, defaultContext
	if p.ContextBefore != nil {
		before = *p.ContextBefore
	}
	if p.ContextAfter != nil {
		after = *p.ContextAfter
	}
	if before < 0 || after < 0 {
		return nil, fault.New(fault.BadArgument, "context_before and context_after must not be negative")
	}
	switch {
	case p.ViewRange != nil:
		if len(p.ViewRange) != 2 {
			return nil, fault.New(fault.BadArgument, "view_range must be [start, end] (end -1 = to the end of the file), got %v", p.ViewRange)
		}
		start, end := p.ViewRange[0], p.ViewRange[1]
		if start < 1 {
			return nil, fault.New(fault.BadArgument, "view_range start must be 1 or more (lines are 1-based), got %d", start)
		}
		if start > n {
			return nil, fault.New(fault.Bounds, "view_range start %d is past the end of %s: the file has %d lines", start, f.abs, n)
		}
		if end == -1 || end > n {
			end = n
		}
		if end < start {
			return nil, fault.New(fault.BadArgument, "view_range end %d is before start %d; use -1 to read to the end of the file", end, start)
		}
		first, last = start, end
	case p.Anchor != nil:
		line, err := uniqueLine(b, *p.Anchor, "anchor")
		if err != nil {
			return nil, fault.Wrap(fault.KindOf(err), err, "%s", f.abs)
		}
		first, last = line-before, line+strings.Count(strings.TrimSuffix(b.in(*p.Anchor), "\n"), "\n")+after
		header = fmt.Sprintf("anchor at line %d\n", line)
	case p.Symbol != nil:
		sym, err := symbols.Lookup(f.rel, strings.ReplaceAll(b.s, "\r\n", "\n"), *p.Symbol, p.SymbolKind)
		if err != nil {
			return nil, symbolFault(err, f.abs)
		}
		// The edit_file tool's rule: the region around a symbol, like an anchor's, has
		// context_before/context_after lines of context, default 20.
		first, last = sym.StartLine-before, sym.EndLine+after
		header = fmt.Sprintf("%s %s: lines %d-%d\n", sym.Kind, sym.Name, sym.StartLine, sym.EndLine)
	}
	if first < 1 {
		first = 1
	}
	if last > n {
		last = n
	}
	if n > 0 {
		if fit := fitLines(b.s, first, last, MaxOutput); fit < last {
			return nil, tooLong(f.abs, b.s, first, last, fit, func(from, to int) string { return fmt.Sprintf("view_range [%d, %d]", from, to) })
		}
	}
	s.markSeen(f.rel, f.rev)
	var out strings.Builder
	out.WriteString(header)
	if n == 0 {
		out.WriteString("(empty file)\n")
	} else {
		out.WriteString(numbered(b.s, first, last))
		if last < n || first > 1 {
			fmt.Fprintf(&out, "(lines %d-%d of %d)\n", first, last, n)
		}
	}
	fmt.Fprintf(&out, "revision: %s\n", f.rev)
	return &Result{Path: f.abs, Text: out.String(), Revision: f.rev}, nil
}

// uniqueLine finds the 1-based line where the unique string anchor starts.
func uniqueLine(b body, anchor, what string) (int, error) {
	a := b.in(anchor)
	if a == "" {
		return 0, fault.New(fault.BadArgument, "%s is empty", what)
	}
	hits := indexAll(b.s, a)
	switch len(hits) {
	case 0:
		return 0, fault.New(fault.NoMatch, "%s %s was not found; copy it exactly from a view of the file", what, quoteLine(anchor))
	case 1:
		return lineOf(b.s, hits[0]), nil
	}
	return 0, fault.New(fault.Ambiguous, "%s %s is not unique: it appears at lines %s; use a longer anchor that appears once", what, quoteLine(anchor), lineList(b.s, hits))
}

// lineList renders the lines of offsets, for messages.
func lineList(s string, offs []int) string {
	// docs/semantics.md asks for every match's line. Count lines incrementally:
	// offs is ascending.
	parts := make([]string, 0, len(offs))
	line, prev := 1, 0
	for _, o := range offs {
		line += strings.Count(s[prev:o], "\n")
		prev = o
		parts = append(parts, strconv.Itoa(line))
	}
	return strings.Join(parts, ", ")
}

// symbolFault classifies a symbol lookup error.
func symbolFault(err error, abs string) error {
	var nf *symbols.NotFoundError
	var amb *symbols.AmbiguousError
	switch {
	case errors.As(err, &nf):
		return fault.Wrap(fault.NotFound, err, "%s", abs)
	case errors.As(err, &amb):
		return fault.Wrap(fault.Ambiguous, err, "%s", abs)
	}
	return fault.Wrap(fault.BadArgument, err, "%s", abs)
}
