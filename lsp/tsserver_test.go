package lsp

import (
	"encoding/json"
	"testing"
)

// tsserverAnswer is tsserver's answer to semanticDiagnosticsSync as
// typescript-language-server 4.4.1 relays it from TypeScript 5.9.
const tsserverAnswer = `{"seq":0,"type":"response","command":"semanticDiagnosticsSync","request_seq":7,"success":true,"body":[{"start":{"line":1,"offset":7},"end":{"line":1,"offset":8},"text":"Type 'string' is not assignable to type 'number'.","code":2322,"category":"error"},{"start":{"line":3,"offset":1},"end":{"line":3,"offset":2},"text":"unused","code":6133,"category":"suggestion","reportsUnnecessary":true}]}`

// TestTSServerDiagnostic converts tsserver's 1-based lines and offsets to
// LSP's 0-based positions, and its categories to severities.
func TestTSServerDiagnostic(t *testing.T) {
	var r tsResponse
	if err := json.Unmarshal([]byte(tsserverAnswer), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Success || len(r.Body) != 2 {
		t.Fatalf("parsed %+v", r)
	}
	d := r.Body[0].diagnostic()
	want := Range{Start: Position{Line: 0, Character: 6}, End: Position{Line: 0, Character: 7}}
	if d.Range != want || d.Severity != SeverityError || d.CodeString() != "2322" || d.Source != "typescript" || d.Message != "Type 'string' is not assignable to type 'number'." {
		t.Errorf("error: %+v", d)
	}
	if d := r.Body[1].diagnostic(); d.Severity != SeverityHint || d.Range.Start.Line != 2 {
		t.Errorf("suggestion: %+v", d)
	}
}

// FuzzTSServerResponse parses any answer without panicking, and converts
// every diagnostic to positions that are never negative.
func FuzzTSServerResponse(f *testing.F) {
	f.Add([]byte(tsserverAnswer))
	f.Add([]byte(`{"success":false,"message":"No Project."}`))
	f.Add([]byte(`{"success":true,"body":[{"start":{"line":0,"offset":0},"end":{"line":-3,"offset":-1}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var r tsResponse
		if json.Unmarshal(data, &r) != nil {
			return
		}
		for _, td := range r.Body {
			d := td.diagnostic()
			if d.Range.Start.Line < 0 || d.Range.Start.Character < 0 || d.Range.End.Line < 0 || d.Range.End.Character < 0 {
				t.Fatalf("negative position %+v from %+v", d.Range, td)
			}
			if d.Severity < SeverityError || d.Severity > SeverityHint {
				t.Fatalf("severity %d from %q", d.Severity, td.Category)
			}
		}
	})
}
