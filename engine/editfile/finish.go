package editfile

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/syntax"
	"github.com/devbroker/devbroker/engine/text"
)

// finish validates, previews or writes an edit and renders its result.
func (s *Session) finish(f *file, p *Params, ed *edit) (*Result, error) {
	out := ed.body.file(ed.now)
	if out == string(f.data) {
		return nil, fault.New(fault.BadArgument, "the %s leaves %s unchanged: nothing to do (check new_str)", p.Command, f.abs)
	}
	// new_str may carry a NUL ("\u0000" in JSON): never turn a text file
	// into one that no tool will edit again. (The same test as text.Parse,
	// without building lines.)
	if strings.IndexByte(out, 0) >= 0 {
		return nil, fault.Wrap(fault.BadArgument, text.ErrBinary, "the %s would make %s binary; nothing was written", p.Command, f.abs)
	}
	if !utf8.ValidString(out) {
		return nil, fault.Wrap(fault.BadArgument, text.ErrNotUTF8, "the %s would make %s invalid text; nothing was written", p.Command, f.abs)
	}
	var data []byte // the bytes to write, made only when needed
	if p.ValidateSyntax {
		data = []byte(out)
		if err := syntax.Validate(f.rel, f.data, data); err != nil {
			return nil, fault.Wrap(fault.BadArgument, err, "validate_syntax rejected the %s, nothing was written", p.Command)
		}
	}
	diff := unifiedDiff(f.abs, ed.before, ed.now)
	rev, sums := s.next(f, out)
	if p.DryRun {
		return &Result{
			Path:     f.abs,
			Text:     fmt.Sprintf("Dry run: %s would change as follows%s (nothing was written):\n%s\nrevision (would be): %s\n", f.abs, ed.count(), diff, rev),
			Revision: rev,
			Diff:     diff,
			Replaced: ed.replaced,
		}, nil
	}
	if data == nil {
		data = []byte(out)
	}
	rev, after, err := s.commit(f, data, revEntry{doc: text.FromString(out), rev: rev, sums: sums}, p.Force)
	if err != nil {
		return nil, err
	}
	var msg strings.Builder
	fmt.Fprintf(&msg, "Edited %s%s.\n", f.abs, ed.count())
	ed.snippet(&msg)
	fmt.Fprintf(&msg, "revision: %s\n", rev)
	msg.WriteString(changedAfterNote(f.abs, after))
	return &Result{Path: f.abs, Text: msg.String(), Revision: rev, Diff: diff, Changed: true, ChangedAfterWrite: after, Replaced: ed.replaced}, nil
}

// count is ": replaced N occurrences" for a replace_all, "" for other
// edits.
func (ed *edit) count() string {
	switch ed.replaced {
	case 0:
		return ""
	case 1:
		return ": replaced 1 occurrence"
	}
	return fmt.Sprintf(": replaced %d occurrences", ed.replaced)
}

// maxSnippetSpan is the most lines a replace_all's snippet spans; a wider
// edit shows its first replacement and says where the last one is.
const maxSnippetSpan = 30

// snippet writes the numbered lines around the edit.
func (ed *edit) snippet(msg *strings.Builder) {
	if ed.replaced < 2 || ed.last-ed.first < maxSnippetSpan {
		msg.WriteString(snippet(ed.now, ed.first, ed.last))
		return
	}
	last := ed.first + ed.last - ed.lastAt // the first replacement's end
	msg.WriteString(snippet(ed.now, ed.first, last))
	fmt.Fprintf(msg, "... and %d more replacements, the last at line %d (the diff shows each one)\n", ed.replaced-1, ed.lastAt)
}

// changedAfterNote is the line that tells the caller its write was changed
// on disk by something else right after it was made ("" when it was not).
func changedAfterNote(abs string, after bool) string {
	if !after {
		return ""
	}
	return fmt.Sprintf("Warning: %s changed on disk right after this write, by something outside the broker; view it again before editing it.\n", abs)
}
