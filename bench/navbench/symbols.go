package main

// This file measures the workspace symbol search: devbroker's symbols
// tool with a query against gopls mcp's go_search with the same query
// (the pinned gopls's own MCP server, on its own copy of the module),
// both through the official Go SDK's MCP client over stdio.

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// goplsMCP is one gopls mcp session over stdio.
type goplsMCP struct {
	cs   *sdk.ClientSession
	root string
}

// startGoplsMCP starts gopls mcp in root, the client's MCP root.
func startGoplsMCP(ctx context.Context, t *tools, root string) (*goplsMCP, error) {
	cmd := exec.Command(t.gopls, "mcp")
	cmd.Dir, cmd.Env = root, t.env()
	c := sdk.NewClient(&sdk.Implementation{Name: "navbench", Version: "1"}, nil)
	//lint:ignore SA1019 gopls mcp watches the roots its client reports.
	c.AddRoots(&sdk.Root{URI: "file://" + filepath.ToSlash(root), Name: "module"})
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, fmt.Errorf("gopls mcp: %w", err)
	}
	return &goplsMCP{cs: cs, root: root}, nil
}

func (g *goplsMCP) close() { g.cs.Close() }

// symbol is one symbol a search found: its name and its file (a slash
// path relative to the root, or absolute outside it).
type symbol struct{ name, path string }

// search asks go_search and reads its text: "Top symbol matches:" then a
// line "\tNAME (KIND in `PATH`)" per symbol.
func (g *goplsMCP) search(ctx context.Context, query string) ([]symbol, time.Duration, error) {
	t0 := time.Now()
	res, err := g.cs.CallTool(ctx, &sdk.CallToolParams{Name: "go_search", Arguments: map[string]any{"query": query}})
	took := time.Since(t0)
	if err != nil {
		return nil, took, fmt.Errorf("go_search: %w", err)
	}
	text := resultText(res)
	if res.IsError {
		return nil, took, fmt.Errorf("go_search: %s", text)
	}
	var out []symbol
	for line := range strings.SplitSeq(text, "\n") {
		line = strings.TrimPrefix(line, "\t")
		open := strings.LastIndex(line, " (")
		tick := strings.Index(line, " in `")
		if open < 0 || tick < open || !strings.HasSuffix(line, "`)") {
			continue
		}
		out = append(out, symbol{name: line[:open], path: relTo(g.root, line[tick+len(" in `"):len(line)-2])})
	}
	return out, took, nil
}

// relTo is abs as a slash path relative to root, or abs outside it.
func relTo(root, abs string) string {
	if rel, err := filepath.Rel(root, abs); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return abs
}

// symbols asks devbroker's symbols tool with query.
func (d *devbrokerClient) symbols(ctx context.Context, query string) ([]symbol, int, time.Duration, error) {
	r, took, err := d.call(ctx, "symbols", map[string]any{"query": query})
	if err != nil {
		return nil, 0, took, err
	}
	if len(r.Answers) != 1 {
		return nil, 0, took, fmt.Errorf("symbols: %d answers, want 1", len(r.Answers))
	}
	a := r.Answers[0]
	out := make([]symbol, len(a.Symbols))
	for i, s := range a.Symbols {
		out[i] = symbol{name: s.Name, path: s.Path}
	}
	return out, a.Omitted, took, nil
}

// goplsSymbolLimit is the most symbols gopls lists for a search.
const goplsSymbolLimit = 100

// rankedPrefix is how many of gopls's first symbols must be in
// devbroker's list when the search reached gopls's limit: symbols that
// score the same are ranked in no fixed order, so which of them make the
// cut differs between two gopls processes.
const rankedPrefix = 80

// sameSymbols says whether devbroker's symbols d (omitted more counted)
// are gopls mcp's g (in gopls's ranking): as many, and the same names in
// the same files as many times each; for a list at gopls's limit, every
// one of gopls's first rankedPrefix (devbroker lists the root's files
// first, gopls in its ranking).
func sameSymbols(d []symbol, omitted int, g []symbol) (bool, string) {
	if omitted > 0 || len(d) != len(g) {
		return false, fmt.Sprintf("%d symbols (%d more counted), gopls mcp %d", len(d), omitted, len(g))
	}
	key := func(s symbol) string { return s.path + "\x00" + s.name }
	show := func(k string) string { return strings.ReplaceAll(k, "\x00", " ") }
	have := map[string]int{}
	for _, s := range d {
		have[key(s)]++
	}
	want := g
	if len(g) >= goplsSymbolLimit {
		want = g[:rankedPrefix]
	}
	for _, s := range want {
		k := key(s)
		if have[k] == 0 {
			return false, fmt.Sprintf("gopls mcp lists %q, devbroker does not", show(k))
		}
		have[k]--
	}
	return true, ""
}

// measureSymbols starts gopls mcp on its own copy, warms both sides and
// measures n interleaved rounds of every query.
func measureSymbols(ctx context.Context, c *corpus, t *tools, o options, res *results) error {
	root, err := c.copyOf("symbols-goplsmcp")
	if err != nil {
		return err
	}
	logf("starting gopls mcp")
	g, err := startGoplsMCP(ctx, t, root)
	if err != nil {
		return err
	}
	defer g.close()
	d := res.dev
	round := func(n int, rec bool) error {
		for j, q := range res.symQueries {
			var gs, ds []symbol
			var omitted int
			var gt, dt time.Duration
			sides := []func() error{
				func() (err error) { gs, gt, err = g.search(ctx, q); return err },
				func() (err error) { ds, omitted, dt, err = d.symbols(ctx, q); return err },
			}
			if err := both(sides, n+j); err != nil {
				return fmt.Errorf("symbols %q: %w", q, err)
			}
			if !rec {
				continue
			}
			ok, why := sameSymbols(ds, omitted, gs)
			res.symbol(q).add(dt, gt, ok, why, len(gs))
		}
		return nil
	}
	logf("symbols: warming up, %d rounds", warmRounds)
	for n := range warmRounds {
		if err := round(n, false); err != nil {
			return err
		}
	}
	logf("symbols: measuring %d rounds of %d queries", o.n, len(res.symQueries))
	for n := range o.n {
		if err := round(n, true); err != nil {
			return err
		}
	}
	return nil
}
