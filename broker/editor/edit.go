package editor

// This file turns a plan's file changes into an LSP WorkspaceEdit that an
// editor applies to what it shows: for each file, the base is the editor's
// open buffer when it has one, else the file on disk; the edit turns that
// base into the workspace's content after the plan.

import (
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"
	"go.lsp.dev/protocol"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/engine/workspace"
)

// base is what the editor shows for a path: an open buffer's text and
// version, or the disk's content (version nil); ok is false when the path
// exists in neither.
type base func(path string) (content string, version *int32, ok bool, err error)

// buildEdit makes the WorkspaceEdit for changes. Its documentChanges are,
// in order: renames (a rename that vacates another's destination first),
// deletions, creations, then one TextDocumentEdit per changed file with
// line-granular edits in unit.
func buildEdit(changes []broker.FileChange, baseOf base, uriOf func(string) protocol.DocumentURI, unit text.Unit) (*WorkspaceEdit, error) {
	var renames []protocol.RenameFile
	var deletes, creates, edits []any
	for _, fc := range changes {
		if fc.After == nil {
			if strings.HasPrefix(fc.Pending, "renamed to ") {
				continue // the destination's change carries the rename
			}
			if _, _, ok, err := baseOf(fc.Path); err != nil {
				return nil, err
			} else if ok {
				deletes = append(deletes, protocol.DeleteFile{Kind: "delete", URI: uriOf(fc.Path), Options: &protocol.DeleteFileOptions{IgnoreIfNotExists: true}})
			}
			continue
		}
		after := fc.After.Content()
		if from, ok := strings.CutPrefix(fc.Pending, "renamed from "); ok {
			fromText, _, had, err := baseOf(from)
			if err != nil {
				return nil, err
			}
			if had {
				_, _, taken, err := baseOf(fc.Path)
				if err != nil {
					return nil, err
				}
				renames = append(renames, protocol.RenameFile{Kind: "rename", OldURI: uriOf(from), NewURI: uriOf(fc.Path), Options: &protocol.RenameFileOptions{Overwrite: taken}})
				if te := textDocumentEdit(uriOf(fc.Path), nil, fromText, after, unit); te != nil {
					edits = append(edits, *te)
				}
				continue
			}
		}
		cur, version, ok, err := baseOf(fc.Path)
		if err != nil {
			return nil, err
		}
		if !ok {
			creates = append(creates, protocol.CreateFile{Kind: "create", URI: uriOf(fc.Path), Options: &protocol.CreateFileOptions{IgnoreIfExists: true}})
			version = nil
		}
		if te := textDocumentEdit(uriOf(fc.Path), version, cur, after, unit); te != nil {
			edits = append(edits, *te)
		}
	}
	ordered, err := orderRenames(renames)
	if err != nil {
		return nil, err
	}
	out := &WorkspaceEdit{DocumentChanges: []any{}}
	for _, r := range ordered {
		out.DocumentChanges = append(out.DocumentChanges, r)
	}
	out.DocumentChanges = append(out.DocumentChanges, deletes...)
	out.DocumentChanges = append(out.DocumentChanges, creates...)
	out.DocumentChanges = append(out.DocumentChanges, edits...)
	return out, nil
}

// orderRenames puts the renames in the order a write issues them
// ([workspace.OrderRenames]: a rename that vacates another's destination
// first, lexical for ties). A cycle (a swap) cannot be expressed without a
// temporary name and is refused.
func orderRenames(rs []protocol.RenameFile) ([]protocol.RenameFile, error) {
	moves := make([]workspace.Rename, len(rs))
	for i, r := range rs {
		moves[i] = workspace.Rename{From: string(r.OldURI), To: string(r.NewURI)}
	}
	order, ok := workspace.OrderRenames(moves)
	if !ok {
		return nil, fault.New(fault.Conflict, "the plan swaps files by renaming them in a cycle, which an editor edit cannot express; run it with apply \"disk\"")
	}
	out := make([]protocol.RenameFile, len(order))
	for i, j := range order {
		out[i] = rs[j]
	}
	return out, nil
}

// textDocumentEdit returns the edit turning before into after, or nil when
// they are equal. Edits replace whole lines (with their terminators), so
// no range ever splits a "\r\n"; ranges are in unit over before.
func textDocumentEdit(uri protocol.DocumentURI, version *int32, before, after string, unit text.Unit) *protocol.TextDocumentEdit {
	edits := lineEdits(before, after, unit)
	if len(edits) == 0 {
		return nil
	}
	return &protocol.TextDocumentEdit{
		TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{
			TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri},
			Version:                version,
		},
		Edits: edits,
	}
}

// lineEdits diffs before and after line by line (terminators included).
func lineEdits(before, after string, unit text.Unit) []protocol.TextEdit {
	if before == after {
		return nil
	}
	a, b := text.SplitLines(before), text.SplitLines(after)
	as, bs := make([]string, len(a)), make([]string, len(b))
	starts := make([]int, len(a)+1)
	off := 0
	for i, l := range a {
		as[i] = l.Text + l.EOL
		starts[i] = off
		off += len(as[i])
	}
	starts[len(a)] = off
	for i, l := range b {
		bs[i] = l.Text + l.EOL
	}
	m := text.NewMapper(before)
	var out []protocol.TextEdit
	for _, d := range lcs.DiffLines(as, bs) {
		sl, sc := m.Position(starts[d.Start], unit)
		el, ec := m.Position(starts[d.End], unit)
		out = append(out, protocol.TextEdit{
			Range: protocol.Range{
				Start: protocol.Position{Line: uint32(sl), Character: uint32(sc)},
				End:   protocol.Position{Line: uint32(el), Character: uint32(ec)},
			},
			NewText: strings.Join(bs[d.ReplStart:d.ReplEnd], ""),
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return less(out[i].Range.Start, out[j].Range.Start) })
	return out
}

func less(a, b protocol.Position) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Character < b.Character
}

// applyEdits applies LSP text edits in unit to s, as an editor would, by
// the one applier of LSP edits ([text.ApplyRanges]). It is how incremental
// buffer changes land, and how tests check an edit.
func applyEdits(s string, edits []protocol.TextEdit, unit text.Unit) (string, error) {
	rs := make([]text.RangeEdit, len(edits))
	for i, e := range edits {
		rs[i] = text.RangeEdit{
			StartLine: int(e.Range.Start.Line), StartCol: int(e.Range.Start.Character),
			EndLine: int(e.Range.End.Line), EndCol: int(e.Range.End.Character), New: e.NewText,
		}
	}
	return text.ApplyRanges(s, rs, unit)
}
