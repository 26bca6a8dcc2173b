package lsp

// This file defines the settle step for typescript-language-server, which
// publishes diagnostics without a document version and offers neither
// pull diagnostics nor a barrier: nothing it pushes says which content it
// describes. It does offer typescript.tsserverRequest, which forwards a
// request to tsserver; tsserver answers requests in the order it gets
// them, after the document updates sent before, so its synchronous
// diagnostics requests answer for the content just sent.

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
)

// TSServerRequestCommand is typescript-language-server's command that
// forwards a request to tsserver and returns tsserver's response.
const TSServerRequestCommand = "typescript.tsserverRequest"

// tsserverDiagnostics are the tsserver requests asked per document:
// syntax errors, then type errors. Suggestions (unused names) are hints
// an editor shows, not errors a check reports.
var tsserverDiagnostics = []string{"syntacticDiagnosticsSync", "semanticDiagnosticsSync"}

// tsResponse is tsserver's response to a request.
type tsResponse struct {
	Success bool           `json:"success"`
	Message string         `json:"message"`
	Body    []tsDiagnostic `json:"body"`
}

// tsDiagnostic is one of tsserver's diagnostics: 1-based lines, 1-based
// UTF-16 offsets.
type tsDiagnostic struct {
	Start    tsLocation `json:"start"`
	End      tsLocation `json:"end"`
	Text     string     `json:"text"`
	Code     int        `json:"code"`
	Category string     `json:"category"`
}

type tsLocation struct {
	Line   int `json:"line"`
	Offset int `json:"offset"`
}

// tsserverPull asks tsserver, through typescript-language-server, for the
// syntax and type errors of each URI (open documents only: tsserver knows
// a closed file only through a project that includes it).
func (in *instance) tsserverPull(ctx context.Context, uris []string) (map[string][]Diagnostic, error) {
	pulled := map[string][]Diagnostic{}
	for _, u := range uris {
		ds := []Diagnostic{}
		for _, req := range tsserverDiagnostics {
			var r tsResponse
			if err := in.call(ctx, "workspace/executeCommand", executeCommandParams{
				Command:   TSServerRequestCommand,
				Arguments: []any{req, map[string]any{"file": u}},
			}, &r); err != nil {
				return pulled, err
			}
			if !r.Success {
				return pulled, fmt.Errorf("%s: tsserver's %s for %s failed: %s", in.name, req, Path(u), r.Message)
			}
			for _, td := range r.Body {
				ds = append(ds, td.diagnostic())
			}
		}
		pulled[u] = ds
	}
	return pulled, nil
}

// diagnostic converts a tsserver diagnostic to LSP's, as
// typescript-language-server does for the ones it publishes.
func (td tsDiagnostic) diagnostic() Diagnostic {
	sev := SeverityError
	switch td.Category {
	case "warning":
		sev = SeverityWarning
	case "suggestion":
		sev = SeverityHint
	case "message":
		sev = SeverityInformation
	}
	d := Diagnostic{
		Range: Range{
			Start: Position{Line: max(td.Start.Line-1, 0), Character: max(td.Start.Offset-1, 0)},
			End:   Position{Line: max(td.End.Line-1, 0), Character: max(td.End.Offset-1, 0)},
		},
		Severity: sev,
		Source:   "typescript",
		Message:  td.Text,
	}
	if td.Code != 0 {
		d.Code = json.RawMessage(strconv.Itoa(td.Code))
	}
	return d
}
