package main

// This file runs the navigation measurement: definition and references
// through devbroker and straight to gopls, each on its own copy of the
// module, warmed, then n interleaved rounds.

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// warmRounds are the rounds before the measured ones, not counted.
const warmRounds = 2

// query is one request: a tool at a place, by position or by symbol.
type query struct {
	tool         string // definition or references
	file, symbol string // symbol "" asks by line and column
	line, column int    // 1-based, the column in characters
	char         int    // the column as LSP counts it (UTF-16, 0-based)
	t            *target
}

// label names the request in the results.
func (q query) label() string {
	switch {
	case q.tool == "definition":
		return fmt.Sprintf("definition at a use (%s:%d:%d)", q.file, q.line, q.column)
	case q.symbol != "":
		return fmt.Sprintf("references {symbol: %s}", q.symbol)
	}
	return fmt.Sprintf("references {line: %d, column: %d}", q.line, q.column)
}

// at is the query at t's name.
func at(tool string, t *target, bySymbol bool) query {
	q := query{tool: tool, file: t.file, line: t.line, column: t.column, char: t.char, t: t}
	if bySymbol {
		q.symbol = t.symbol
	}
	return q
}

// measureNav starts both sides, finds each target's definition query (at
// its first use outside its own file, from gopls's references), warms
// both and measures n rounds.
func measureNav(ctx context.Context, c *corpus, t *tools, o options, res *results) error {
	gRoot, err := c.copyOf("nav-gopls")
	if err != nil {
		return err
	}
	dRoot, err := c.copyOf("nav-devbroker")
	if err != nil {
		return err
	}
	logf("starting gopls (raw LSP) and devbroker (MCP)")
	g, err := startGopls(ctx, t, gRoot)
	if err != nil {
		return err
	}
	defer g.close()
	d, err := startDevbroker(ctx, t, dRoot)
	switch {
	case errors.Is(err, errMissingTools) && !o.smoke:
		// The baseline alone, until devbroker has the tools.
		res.devSkip = err.Error()
		logf("%v: measuring gopls alone", err)
	case err != nil:
		return err
	}
	res.dev, res.devRoot = d, dRoot
	var qs []query
	for _, tg := range c.nav {
		refs := at("references", tg, false)
		locs, _, err := g.ask(ctx, "textDocument/references", refs.file, refs.line, refs.char)
		if err != nil {
			return err
		}
		use, err := firstUse(g, tg, locs)
		if err != nil {
			return err
		}
		qs = append(qs, refs, at("references", tg, true), use)
	}
	logf("warming up: %d rounds", warmRounds)
	for round := range warmRounds {
		if err := navRound(ctx, g, d, qs, round, nil); err != nil {
			return err
		}
	}
	logf("measuring %d rounds of %d requests", o.n, len(qs))
	for round := range o.n {
		if err := navRound(ctx, g, d, qs, round, res); err != nil {
			return err
		}
	}
	return nil
}

// firstUse is the definition query at the first reference to tg (in
// path order) outside its own file.
func firstUse(g *goplsClient, tg *target, locs []lspLocation) (query, error) {
	ps, err := places(g.root, locs)
	if err != nil {
		return query{}, err
	}
	best := -1
	for i, p := range ps {
		if p.path != tg.file && (best < 0 || comparePlaces(p, ps[best]) < 0) {
			best = i
		}
	}
	if best < 0 {
		return query{}, fmt.Errorf("%s: gopls lists no reference outside %s (%d references): choose a target used in other files", tg.symbol, tg.file, len(ps))
	}
	p := ps[best]
	return query{tool: "definition", file: p.path, line: p.line, column: p.column, char: locs[best].Range.Start.Character, t: tg}, nil
}

// navRound asks every query of both sides, alternating which goes first,
// and records the times and whether devbroker agreed (res nil: warm-up,
// where a disagreement is an error only in the last round).
func navRound(ctx context.Context, g *goplsClient, d *devbrokerClient, qs []query, round int, res *results) error {
	for j := range qs {
		q := qs[(round+j)%len(qs)]
		var gl, dl listing
		var gt, dt time.Duration
		sides := []func() error{
			func() (err error) { gl, gt, err = goplsAsk(ctx, g, q); return err },
			func() (err error) { dl, dt, err = d.ask(ctx, q.tool, q); return err },
		}
		if d == nil {
			sides = sides[:1]
		}
		if err := both(sides, round); err != nil {
			return fmt.Errorf("%s: %w", q.label(), err)
		}
		if d == nil { // the baseline alone
			if res != nil {
				res.nav(q).addGopls(gt, gl.count())
			}
			continue
		}
		ok, why := dl.sameAs(gl)
		if res == nil {
			if !ok && round == warmRounds-1 {
				logf("%s %s: devbroker disagrees with gopls after warm-up: %s", q.t, q.label(), why)
			}
			continue
		}
		res.nav(q).add(dt, gt, ok, why, gl.count())
	}
	return nil
}

// both runs the sides in turn, the second first in odd rounds.
func both(sides []func() error, round int) error {
	if round%2 == 1 {
		sides = slices.Clone(sides)
		slices.Reverse(sides)
	}
	for _, side := range sides {
		if err := side(); err != nil {
			return err
		}
	}
	return nil
}

// goplsAsk is gopls's listing for q.
func goplsAsk(ctx context.Context, g *goplsClient, q query) (listing, time.Duration, error) {
	method := "textDocument/" + q.tool
	locs, took, err := g.ask(ctx, method, q.file, q.line, q.char)
	if err != nil {
		return listing{}, took, err
	}
	ps, err := places(g.root, locs)
	if err != nil {
		return listing{}, took, err
	}
	return newListing(ps, 0), took, nil
}
