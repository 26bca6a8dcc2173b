package editor

// This file defines diagnostics push: after a plan that ran lint or check,
// when the client opted in at initialize, each file's findings go out as
// textDocument/publishDiagnostics, and files whose findings are gone get an
// empty list.

import (
	"context"
	"sort"

	"go.lsp.dev/protocol"

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
	for _, d := range ds {
		if reverted[d.Path] {
			continue
		}
		m, ok := mappers[d.Path]
		if !ok {
			content := ""
			if doc, held := c.sess.Doc(d.Path); held {
				content = doc.Content()
			}
			m = text.NewMapper(content)
			mappers[d.Path] = m
		}
		u := c.uriOf(d.Path)
		paths[u] = d.Path
		pd := protocol.Diagnostic{
			Range:    lspRange(m, d, c.unit),
			Severity: severities[d.Severity],
			Source:   d.Source,
			Message:  d.Message,
		}
		if d.Code != "" {
			pd.Code = d.Code
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
