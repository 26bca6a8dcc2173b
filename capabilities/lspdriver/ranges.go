package lspdriver

// This file defines the format of ranges of lines (format's only:
// "changed") through textDocument/rangeFormatting.

import (
	"context"
	"errors"
	"fmt"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// FormatsRanges is true: whether the server offers range formatting is
// known once it runs, and a file it cannot format by range is said so in
// the answer (see capabilities.RangeFormatter).
func (d *Driver) FormatsRanges() bool { return true }

// Canonical reports whether the configuration says the server's
// formatting is canonical (gopls's is gofmt's).
func (d *Driver) Canonical() bool { return d.cfg.Canonical }

// formatRanges asks the server to format the runs of lines req.Ranges
// lists in each file. A server without range formatting leaves every
// file to the caller, saying why; lines it rewrites keep their endings.
func (d *Driver) formatRanges(ctx context.Context, srv *lsp.Server, v *view, req *capabilities.Request) *capabilities.Result {
	res := &capabilities.Result{Status: engine.StatusOK, Output: engine.Output{Edits: map[string]*text.Doc{}}}
	for _, p := range req.Files {
		doc, ok := v.docs[p]
		if !ok {
			continue
		}
		cur := req.All[p]
		m := text.NewMapper(doc.Text)
		var rs []lsp.Range
		for _, r := range req.Ranges[p] {
			// From the first line's start to the last line's end.
			el, ec := m.Position(m.Offset(r.End-1, 1<<30, text.UTF16), text.UTF16)
			rs = append(rs, lsp.Range{Start: lsp.Position{Line: r.Start - 1}, End: lsp.Position{Line: el, Character: ec}})
		}
		edits, err := srv.FormatRanges(ctx, v.list(), doc.Path, rs)
		switch {
		case errors.Is(err, lsp.ErrNoRangeFormatting):
			for _, q := range req.Files {
				res.Formatted = append(res.Formatted, engine.Formatted{Path: q, Reason: fmt.Sprintf("%s does not offer range formatting (textDocument/rangeFormatting)", d.name)})
			}
			return res
		case err != nil:
			return failed(res, fmt.Errorf("formatting lines of %s: %w", p, err), false)
		}
		out, err := applyEdits(doc.Text, edits)
		if err != nil {
			return failed(res, fmt.Errorf("formatting lines of %s: the server's edits do not apply: %w", p, err), false)
		}
		if out != doc.Text {
			res.Edits[p] = text.RestoreEOL(cur, newDoc(cur, out).LFContent())
		}
		res.Formatted = append(res.Formatted, engine.Formatted{Path: p, How: engine.FormatRange})
	}
	return res
}

var (
	_ capabilities.RangeFormatter = (*Driver)(nil)
	_ capabilities.Canonical      = (*Driver)(nil)
)
