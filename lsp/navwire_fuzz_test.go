package lsp

import (
	"encoding/json"
	"testing"
)

// FuzzDecodeAnswers feeds arbitrary JSON to the decoders of the answers
// about code (locations, hover, symbols, code actions, workspace edits):
// nothing panics, every location and symbol kept names a file, and every
// step of a workspace edit has a kind.
func FuzzDecodeAnswers(f *testing.F) {
	f.Add(`[{"uri":"file:///r/a.go","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}}}]`)
	f.Add(`{"targetUri":"file:///r/a.go","targetRange":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}}}`)
	f.Add(`{"contents":[{"language":"go","value":"func F()"},"doc"]}`)
	f.Add(`{"contents":{"kind":"markdown","value":"**F**"}}`)
	f.Add(`[{"name":"T","kind":23,"range":{"start":{"line":0,"character":0},"end":{"line":3,"character":1}},"selectionRange":{"start":{"line":0,"character":5},"end":{"line":0,"character":6}},"children":[{"name":"f","kind":8,"range":{"start":{"line":1,"character":1},"end":{"line":1,"character":2}}}]}]`)
	f.Add(`[{"name":"F","kind":12,"location":{"uri":"file:///r/a.go"},"containerName":"a"}]`)
	f.Add(`[{"title":"Fix","kind":"quickfix","data":{"x":1},"edit":{"changes":{"file:///r/a.go":[]}}},{"title":"Run","command":"x","arguments":[1]}]`)
	f.Add(`{"documentChanges":[{"textDocument":{"uri":"file:///r/a.go","version":null},"edits":[]},{"kind":"rename","oldUri":"file:///r/a","newUri":"file:///r/b","options":{"overwrite":true}},{"kind":"create","uri":"file:///r/c.go"},{"kind":"delete","uri":"untitled:x"}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		raw := json.RawMessage(s)
		for _, l := range decodeLocations(raw) {
			if l.Path == "" {
				t.Fatalf("a location without a file: %+v", l)
			}
		}
		_ = decodeHover(raw)
		var walk func([]Symbol)
		walk = func(syms []Symbol) {
			for _, sym := range syms {
				if sym.Path == "" || sym.Name == "" {
					t.Fatalf("a symbol without a file or a name: %+v", sym)
				}
				_ = SymbolKindName(sym.Kind)
				walk(sym.Children)
			}
		}
		walk(decodeSymbols(raw, "/r/a.go"))
		walk(decodeSymbols(raw, ""))
		for _, a := range decodeCodeActions(raw) {
			if a.Title == "" {
				t.Fatalf("an action without a title: %+v", a)
			}
		}
		var w WorkspaceEdit
		if json.Unmarshal(raw, &w) == nil {
			for _, op := range w.Ops() {
				if op.Kind == "" {
					t.Fatalf("a step without a kind: %+v", op)
				}
			}
		}
	})
}
