package main

// This file runs the measurements: the interleaved edits, the cold starts
// and the concurrent sessions.

import (
	"context"
	"fmt"
	"time"

	"github.com/devbroker/devbroker/bench/internal/modcache"
)

// maxLogged is how many wrong answers per series are shown on stderr.
const maxLogged = 3

// directions are the two edits, in the order each round makes them.
var directions = []bool{true, false}

func direction(broken bool) string {
	if broken {
		return "add the error"
	}
	return "remove it"
}

// measureEdits starts every candidate on its own copy of the module, warms
// it, then makes n rounds: in each, every candidate (in a rotating order)
// adds the error and removes it again, each edit timed to its answer.
func measureEdits(ctx context.Context, c *corpus, t *tools, o options, res *results) error {
	ks := kinds(t)
	cands := make([]candidate, len(ks))
	edits := make([]*edit, len(ks))
	baselines := make([][]diag, len(ks))
	defer func() {
		for _, c := range cands {
			if c != nil {
				c.close()
			}
		}
	}()
	for i, k := range ks {
		root, err := c.copyOf(fmt.Sprintf("edits-%d", i))
		if err != nil {
			return err
		}
		if edits[i], err = newEdit(root, c.file); err != nil {
			return err
		}
		logf("starting and warming %s", k.short)
		if cands[i], err = k.start(ctx, t, root, edits[i]); err != nil {
			return err
		}
		if baselines[i], err = warm(ctx, cands[i], edits[i], 5, false); err != nil {
			return fmt.Errorf("%s: %w", k.short, err)
		}
		res.baselines = append(res.baselines, fmt.Sprintf("%s %d", k.short, len(baselines[i])))
	}
	logf("measuring %d rounds of edits", o.n)
	for round := range o.n {
		for j := range ks {
			i := (round + j) % len(ks)
			for _, broken := range directions {
				a, d, err := timed(func() (answer, error) { return cands[i].set(ctx, broken) })
				if err != nil {
					return fmt.Errorf("%s: %w", ks[i].short, err)
				}
				ok, why := judge(a, edits[i], broken, baselines[i], false)
				res.series(res.edits, ks[i].name, direction(broken)).add(d, ok, why)
			}
		}
	}
	return nil
}

// measureCold times, for each server, its start to its first answer that
// names the error the file has on disk: one start not counted, then coldN
// rounds, the servers interleaved. Every start finds gopls's file cache
// as the earlier ones left it (warm).
func measureCold(ctx context.Context, c *corpus, t *tools, o options, res *results) error {
	if o.coldN == 0 {
		return nil
	}
	root, err := c.copyOf("cold")
	if err != nil {
		return err
	}
	e, err := newEdit(root, c.file)
	if err != nil {
		return err
	}
	if err := modcache.WriteTree(root, map[string]string{e.file: e.broken()}); err != nil {
		return err
	}
	var ks []kind
	for _, k := range kinds(t) {
		if k.short != "devbroker edit_file" { // the same server as dev_plan
			ks = append(ks, k)
		}
	}
	logf("measuring cold starts (%d rounds after one not counted)", o.coldN)
	for round := range o.coldN + 1 {
		for _, k := range ks {
			d, wrong, err := coldStart(ctx, k, t, root, e)
			if err != nil {
				return fmt.Errorf("%s cold start: %w", k.short, err)
			}
			if round > 0 {
				name := k.short
				if k.short == "devbroker dev_plan" {
					name = "devbroker (`check` tool)"
				}
				res.series(res.cold, name, "start → first correct answer").add(d, true, "").wrong += wrong
			}
		}
	}
	return nil
}

// coldStart starts k and asks until an answer names the error, and
// returns the time from the start and how many answers before were wrong.
func coldStart(ctx context.Context, k kind, t *tools, root string, e *edit) (time.Duration, int, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	t0 := time.Now()
	cand, err := k.start(ctx, t, root, e)
	if err != nil {
		return 0, 0, err
	}
	defer cand.close()
	for wrong := 0; ; wrong++ {
		a, err := cand.query(ctx)
		if err != nil {
			return 0, wrong, err
		}
		if ok, _ := judge(a, e, true, nil, true); ok {
			return time.Since(t0), wrong, nil
		}
		if ctx.Err() != nil {
			return 0, wrong, fmt.Errorf("no correct answer within 5 minutes: %w", ctx.Err())
		}
	}
}
