package editor

// This file defines diagnostics push: after a plan that ran lint or check,
// when the client opted in at initialize, each file's findings go out as
// textDocument/publishDiagnostics, and files whose findings are gone get an
// empty list.

import (
	"context"
	"path/filepath"
	"sort"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// severities maps devbroker severities to LSP's.
var severities = map[engine.Severity]protocol.DiagnosticSeverity{
	engine.SeverityError:   protocol.DiagnosticSeverityError,
	engine.SeverityWarning: protocol.DiagnosticSeverityWarning,
	engine.SeverityInfo:    protocol.DiagnosticSeverityInformation,
}

// publish sends ds, grouped by file. Positions convert from devbroker's
// 1-based lines and character columns over the workspace content (what
// the diagnostics describe) to LSP positions in the negotiated encoding.
//
// The files in reverted, whose content the diagnostics describe was
// dropped (a failed plan's changes), are left as the last push left them:
// their findings are about text the editor does not show, and they are in
// the plan's result.
func (c *conn) publish(ctx context.Context, ds []engine.Diagnostic, reverted map[string]bool) {
	byURI := map[protocol.DocumentURI][]protocol.Diagnostic{}
	paths := map[protocol.DocumentURI]string{}
	mappers := map[string]*text.Mapper{}
	kept := map[string]bool{}
	for p := range reverted {
		if u := string(c.uriOf(p)); c.published[u] {
			kept[u] = true
		}
	}
	// mapper maps a file's content as the workspace holds it, else as
	// the disk does (a related place in a file the plan did not acquire).
	mapper := func(p string) *text.Mapper {
		m, ok := mappers[p]
		if !ok {
			content := ""
			if doc, held := c.sess.Doc(p); held {
				content = doc.Content()
			} else if doc, ok, err := c.sess.DiskDoc(p); err == nil && ok {
				content = doc.Content()
			}
			m = text.NewMapper(content)
			mappers[p] = m
		}
		return m
	}
	for _, d := range ds {
		if reverted[d.Path] {
			continue
		}
		u := c.uriOf(d.Path)
		paths[u] = d.Path
		pd := protocol.Diagnostic{
			Range:    lspRange(mapper(d.Path), d, c.unit),
			Severity: severities[d.Severity],
			Source:   d.Source,
			Message:  d.Message,
		}
		if d.Code != "" {
			pd.Code = d.Code
		}
		if d.Introduced != nil {
			// Over changed content: whether the change introduced the
			// finding, in the field LSP keeps for a server's own data.
			pd.Data = map[string]bool{"introduced": *d.Introduced}
		}
		for _, r := range d.Related {
			pd.RelatedInformation = append(pd.RelatedInformation, c.relatedInformation(r, mapper))
		}
		byURI[u] = append(byURI[u], pd)
	}
	var uris []protocol.DocumentURI
	for u := range c.published {
		if _, ok := byURI[protocol.DocumentURI(u)]; !ok && !kept[u] {
			byURI[protocol.DocumentURI(u)] = []protocol.Diagnostic{}
		}
	}
	for u := range byURI {
		uris = append(uris, u)
	}
	sort.Slice(uris, func(i, j int) bool { return uris[i] < uris[j] })
	c.published = kept
	for _, u := range uris {
		p := protocol.PublishDiagnosticsParams{URI: u, Diagnostics: byURI[u]}
		if b, ok := c.bufs[paths[u]]; ok && paths[u] != "" && b.version > 0 {
			p.Version = uint32(b.version)
		}
		if len(p.Diagnostics) > 0 {
			c.published[string(u)] = true
		}
		if err := c.rpc.Notify(ctx, "textDocument/publishDiagnostics", p); err != nil {
			c.log.Warn("publishing diagnostics", "uri", u, "err", err)
		}
	}
}

// lspRange converts a diagnostic's range. A missing line or column (0)
// means the start of the file or line; a missing end is the start.
func lspRange(m *text.Mapper, d engine.Diagnostic, unit text.Unit) protocol.Range {
	pos := func(line, col int) protocol.Position {
		l, c := max(line-1, 0), max(col-1, 0)
		return protocol.Position{Line: uint32(l), Character: uint32(m.Convert(l, c, text.Chars, unit))}
	}
	start := pos(d.Line, d.Column)
	end := start
	if d.EndLine > 0 {
		end = pos(d.EndLine, d.EndColumn)
	}
	return protocol.Range{Start: start, End: end}
}

// relatedInformation converts a related place: under the root, its
// position in the negotiated encoding; outside it (an absolute path), the
// line and column as the tool counted them, since devbroker reads no file
// there.
func (c *conn) relatedInformation(r engine.Related, mapper func(string) *text.Mapper) protocol.DiagnosticRelatedInformation {
	l, col := max(r.Line-1, 0), max(r.Column-1, 0)
	if filepath.IsAbs(r.Path) {
		pos := protocol.Position{Line: uint32(l), Character: uint32(col)}
		return protocol.DiagnosticRelatedInformation{
			Location: protocol.Location{URI: protocol.DocumentURI(uri.File(r.Path)), Range: protocol.Range{Start: pos, End: pos}},
			Message:  r.Message,
		}
	}
	pos := protocol.Position{Line: uint32(l), Character: uint32(mapper(r.Path).Convert(l, col, text.Chars, c.unit))}
	return protocol.DiagnosticRelatedInformation{
		Location: protocol.Location{URI: c.uriOf(r.Path), Range: protocol.Range{Start: pos, End: pos}},
		Message:  r.Message,
	}
}
