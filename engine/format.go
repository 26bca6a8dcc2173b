package engine

// This file defines what a format step says about each file (the
// [Formatted] entries of a result, with the diff of what it changed) and
// format's only: "changed": the lines the session changed, against the
// content before its change (the disk's, for the workspace's unwritten
// changes; for a file edit_file wrote, the content this session first
// read, its undo base).

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/aymanbagabas/go-udiff"
	"github.com/aymanbagabas/go-udiff/lcs"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/merge"
	"github.com/devbroker/devbroker/engine/text"
)

// OnlyChanged is format's only: "changed".
const OnlyChanged = "changed"

// LineRange is a run of lines, 1-based and inclusive.
type LineRange struct{ Start, End int }

// FormatHow says what a format step did with a file.
type FormatHow string

// How a file was formatted.
const (
	// FormatWhole: the formatter formatted the whole file.
	FormatWhole FormatHow = "whole"
	// FormatRange: only the changed lines (and what the formatter must
	// take with them, the statement around) were formatted, through the
	// formatter's range formatting.
	FormatRange FormatHow = "range"
	// FormatLeft: the file was left as it was; Reason says why.
	FormatLeft FormatHow = "left"
)

// Formatted is what a format step did with one file: how it formatted
// it, or why it left it, and the diff of what formatting changed.
type Formatted struct {
	Path   string
	How    FormatHow
	Driver string
	// Reason says why a file was left ("" otherwise).
	Reason string
	// Diff is the unified diff of what the formatting changed in the
	// file (its content before the step, "a/PATH", to after, "b/PATH");
	// "" when it changed nothing. The agent's next edit goes to the
	// after side.
	Diff string
}

// MaxFormatDiff is the most diff text one format answer carries (256
// KiB, as one read): past it a file's entry says how many lines changed
// instead (see [Result.Changes]).
const MaxFormatDiff = 256 << 10

// BaseFunc gives, for a file this session changed on disk without the
// workspace (edit_file), the content before its changes: before nil when
// the session created the file. ok is false when the session did not
// change the file, or when cur (its content now) is not what the
// session's last change left.
type BaseFunc func(path string, cur *text.Doc) (before *text.Doc, ok bool)

// SetBases gives the engine the bases of the files the session changed
// on disk itself (edit_file's undo bases), for format's only: "changed".
func (e *Engine) SetBases(fn BaseFunc) { e.bases = fn }

// checkOnly checks format's only.
func checkOnly(only string) error {
	if only != "" && only != OnlyChanged {
		return fault.New(fault.BadArgument, "only must be %q (format just the lines this session changed), or left out to format whole files; got %q", OnlyChanged, only)
	}
	return nil
}

// changedLines is, for each of paths, the runs of lines of its content
// now that the session changed, and its content before (nil for a file
// the session created: every line is changed). Paths the session did not
// change are left out. With a [BaseSource] (devbroker format --only
// changed --since REV), the content before is the source's (the
// revision's) where it differs from the disk, and line endings alone make
// no line changed there: a checkout may convert them.
func (e *Engine) changedLines(ctx context.Context, paths []string, files map[string]*text.Doc) (map[string][]LineRange, map[string]*text.Doc, error) {
	var since map[string]Base
	if e.since != nil {
		var err error
		if since, err = e.since.Bases(ctx, paths); err != nil {
			return nil, nil, err
		}
	}
	ranges, before := map[string][]LineRange{}, map[string]*text.Doc{}
	for _, p := range paths {
		cur := files[p]
		if cur == nil {
			continue
		}
		var base *text.Doc
		ok, endings := false, true
		if b, in := since[p]; in {
			// The revision's content: nil where it had no such file
			// (or none that is text).
			ok, endings = true, false
			if b.Exists {
				base, _ = text.Parse(b.Content)
			}
		} else {
			// The revision holds what the disk does (or there is no
			// revision): the session's own base.
			base, ok = e.ws.Base(p)
			if !ok && e.bases != nil && e.since == nil {
				base, ok = e.bases(p, cur)
			}
		}
		if !ok {
			continue
		}
		if base == nil {
			if n := cur.Len(); n > 0 {
				ranges[p] = []LineRange{{1, n}}
				before[p] = nil
			}
			continue
		}
		b, a := base.String(), cur.String()
		if !endings {
			b, a = strings.ReplaceAll(b, "\r\n", "\n"), strings.ReplaceAll(a, "\r\n", "\n")
		}
		if rs := lineRuns(b, a); len(rs) > 0 {
			ranges[p], before[p] = rs, base
		}
	}
	return ranges, before, nil
}

// lineRuns is the runs of lines of after that differ from before (a
// deletion alone marks no line of after), runs that touch joined.
func lineRuns(before, after string) []LineRange {
	var out []LineRange
	for _, d := range lcs.DiffLines(merge.Split(before), merge.Split(after)) {
		if d.ReplEnd == d.ReplStart {
			continue
		}
		r := LineRange{d.ReplStart + 1, d.ReplEnd}
		if n := len(out); n > 0 && out[n-1].End+1 >= r.Start {
			out[n-1].End = max(out[n-1].End, r.End)
			continue
		}
		out = append(out, r)
	}
	return out
}

// formatted lists what a format step did with each file: the
// capability's own entries (only: "changed"), else a whole-file entry for
// each file it changed; each with the diff from the content before the
// step (before) to its edit, within [MaxFormatDiff] in all.
func formatted(resp *Response, before map[string]*text.Doc) []Formatted {
	out := slices.Clone(resp.Formatted)
	for _, p := range slices.Sorted(maps.Keys(resp.Edits)) {
		if !slices.ContainsFunc(out, func(f Formatted) bool { return f.Path == p }) {
			out = append(out, Formatted{Path: p, How: FormatWhole})
		}
	}
	slices.SortFunc(out, func(a, b Formatted) int { return strings.Compare(a.Path, b.Path) })
	size := 0
	for i := range out {
		f := &out[i]
		after, ok := resp.Edits[f.Path]
		b := before[f.Path]
		if !ok || b == nil {
			continue
		}
		d := udiff.Unified("a/"+f.Path, "b/"+f.Path, b.String(), after.String())
		if size += len(d); size > MaxFormatDiff {
			f.Diff = ""
			f.Reason = strings.TrimPrefix(f.Reason+"; ", "; ") + "its diff is left out: this answer's diffs passed 256 KiB; read the file again before editing it"
			continue
		}
		f.Diff = d
	}
	return out
}
