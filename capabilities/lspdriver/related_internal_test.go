package lspdriver

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// TestRelatedPlacesConfined: a related place is converted as a location
// is (docs/semantics.md): in the root, its workspace path and character
// column on the content the server was shown; outside the root, its
// absolute path and the server's own column; under the root through a
// symlink that leaves it, or not a file, left out.
func TestRelatedPlacesConfined(t *testing.T) {
	v, req, outside := changeRoot(t)
	v.docs["a.go"] = lsp.Document{Path: filepath.Join(v.root, "a.go"), Text: "package a // 𝄞 changed\n"}
	ms := &mappers{v: v, req: req, m: map[string]*text.Mapper{}}
	at := func(uri string, line, char int, msg string) lsp.RelatedInformation {
		return lsp.RelatedInformation{Location: lsp.RelatedLocation{URI: uri, Range: lsp.Range{Start: lsp.Position{Line: line, Character: char}}}, Message: msg}
	}
	got := related(v, ms, lsp.Related{
		at(lsp.URI(filepath.Join(v.root, "a.go")), 0, 15, "here"), // after 𝄞, two UTF-16 units
		at(lsp.URI(filepath.Join(outside, "o.go")), 0, 8, "outside"),
		at(lsp.URI(filepath.Join(v.root, "sub", "o.go")), 0, 8, "through the link"),
		at("untitled:x", 0, 0, "not a file"),
		at(lsp.URI(filepath.Join(v.root, "d", "x.go")), 0, 8, ""),
	})
	want := []engine.Related{
		{Path: "a.go", Line: 1, Column: 15, Message: "here"},
		{Path: filepath.Join(outside, "o.go"), Line: 1, Column: 9, Message: "outside"},
		{Path: "d/x.go", Line: 1, Column: 9},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("related = %+v\nwant %+v", got, want)
	}
}

// TestSymbolLimit: the servers whose workspace symbol search stops at a
// limit, and that limit as their command or settings set it.
func TestSymbolLimit(t *testing.T) {
	for _, tc := range []struct {
		command  []string
		settings map[string]any
		want     int
	}{
		{[]string{"gopls"}, nil, 100},
		{[]string{"/usr/local/bin/gopls", "-remote=auto"}, nil, 100},
		{[]string{"clangd", "--background-index=false"}, nil, 100},
		{[]string{"clangd", "--limit-results=20"}, nil, 20},
		{[]string{"clangd", "-limit-results", "0"}, nil, 0},
		{[]string{"rust-analyzer"}, nil, 128},
		{[]string{"rust-analyzer"}, map[string]any{"workspace": map[string]any{"symbol": map[string]any{"search": map[string]any{"limit": int64(500)}}}}, 500},
		{[]string{"pyright-langserver", "--stdio"}, nil, 0},
		{[]string{"typescript-language-server", "--stdio"}, nil, 0},
	} {
		d := &Driver{cfg: configs.Driver{Command: tc.command, Settings: tc.settings}}
		if got := d.symbolLimit(); got != tc.want {
			t.Errorf("%v %v: limit %d, want %d", tc.command, tc.settings, got, tc.want)
		}
	}
}
