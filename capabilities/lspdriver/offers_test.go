package lspdriver_test

import (
	"context"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// TestServerWithoutRename: the probe reads what a server offers from its
// initialize answer (a server without a smoke test is started for it),
// and a request it does not offer answers unchecked, saying so.
func TestServerWithoutRename(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"x.txt": "hello\n"})
	d, err := lspdriver.Type.New("fake", configtest.Driver(&configs.Driver{Type: "lsp", Command: []string{os.Args[0]}, Env: []string{lsptest.EnvVar + "=" + lsptest.NoRename}}), capabilities.Env{Root: root, Language: "text"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	p := d.Probe(context.Background())
	want := []engine.Kind{engine.Check, engine.Lint, engine.Format, engine.Definition, engine.References, engine.Hover, engine.Symbols}
	if p.State != capabilities.Found || !slices.Equal(p.Offers, want) {
		t.Fatalf("probe: %+v; want offers %v", p, want)
	}
	all := map[string]*text.Doc{"x.txt": text.FromString("hello\n")}
	q := &engine.Query{Path: "x.txt", Line: 1, Column: 1, NewName: "y"}
	res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Rename, Root: root, Files: []string{"x.txt"}, All: all, Query: q})
	if res.Status != engine.StatusUnchecked || !strings.Contains(res.Message, "fake-no-rename does not offer rename") || len(res.Edits) != 0 {
		t.Fatalf("rename: %s: %s", res.Status, res.Message)
	}
	res = d.Run(context.Background(), &capabilities.Request{Kind: engine.Definition, Root: root, Files: []string{"x.txt"}, All: all, Query: q})
	if res.Status != engine.StatusOK || len(res.Locations) != 1 || res.Locations[0].Text != "hello" {
		t.Fatalf("definition: %s: %s %+v", res.Status, res.Message, res.Locations)
	}
}
