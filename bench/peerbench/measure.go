package main

// This file runs the measurements: the interleaved edits, the cold starts
// and the concurrent sessions.

import (
	"context"
	"fmt"
	"strings"
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

// The modes, in the order the tables list them: what an agent's edits
// produce (distinct states, put-backs with another file changed), then
// the toggle, whose states every candidate has answered for before.
const (
	modeDistinct = "distinct"
	modePutBack  = "put-back"
	modeToggle   = "toggle"
)

var modes = []string{modeDistinct, modePutBack, modeToggle}

// step is one timed edit of a mode: the changes every candidate makes
// (each on its own copy, from the same state) and what the answer must
// say about the edited file.
type step struct {
	mode, label string
	changes     []change
	want        string
}

// steps are a mode's n rounds. seq numbers the distinct edits' lines so
// that no state repeats in the run; main and other are the files' lines
// as the mode finds them, and the returned reset makes both clean again
// (not timed).
func steps(mode string, n int, main, other *edit, seq *int) []step {
	var out []step
	cur := ""
	for range n {
		switch mode {
		case modeDistinct:
			// A new error, then a new clean state: each with a line no
			// state of the run had.
			*seq++
			e := errorLineN(*seq)
			out = append(out, step{mode, "a new error", []change{{main, cur, e}}, want(e)})
			*seq++
			c := cleanLineN(*seq)
			out = append(out, step{mode, "a new clean edit", []change{{main, e, c}}, ""})
			cur = c
		case modePutBack:
			// Another file changes (a new line) as the error comes in;
			// then the edited file is put back as the disk had it, the
			// other file still changed: a put-back to a state never seen.
			*seq++
			o := otherLineN(*seq)
			prevOther := ""
			if len(out) > 0 {
				prevOther = out[len(out)-2].changes[0].to
			}
			e := errorLineN(*seq)
			out = append(out, step{mode, "an error, another file changed", []change{{other, prevOther, o}, {main, cur, e}}, want(e)})
			out = append(out, step{mode, "put back, the other file still changed", []change{{main, e, ""}}, ""})
			cur = ""
		case modeToggle:
			out = append(out, step{mode, "add the error", []change{toggle(main, true)}, wantMessage})
			out = append(out, step{mode, "remove it", []change{toggle(main, false)}, ""})
		}
	}
	return out
}

// resetChanges make main and other clean after a mode's steps.
func resetChanges(ss []step) []change {
	last := map[*edit]string{}
	var order []*edit
	for _, s := range ss {
		for _, c := range s.changes {
			if _, ok := last[c.e]; !ok {
				order = append(order, c.e)
			}
			last[c.e] = c.to
		}
	}
	var cs []change
	for _, e := range order {
		if last[e] != "" {
			cs = append(cs, change{e, last[e], ""})
		}
	}
	return cs
}

// measureEdits starts every candidate on its own copy of the module and
// warms it; then, mode by mode, makes each step with every candidate in a
// rotating order (interleaved), each timed to its answer and judged.
func measureEdits(ctx context.Context, c *corpus, t *tools, o options, res *results) error {
	if len(o.modes) == 0 {
		return nil // -modes= measures the sessions (and cold starts) alone
	}
	ks := kinds(t)
	cands := make([]candidate, len(ks))
	baselines := make([][]diag, len(ks))
	defer func() {
		for _, c := range cands {
			if c != nil {
				c.close()
			}
		}
	}()
	main, err := newEdit(c.src, c.file)
	if err != nil {
		return err
	}
	otherFile, err := c.otherFile()
	if err != nil {
		return err
	}
	other, err := newEdit(c.src, otherFile)
	if err != nil {
		return err
	}
	res.otherFile = otherFile
	names, shorts, pids := make([]string, len(ks)), make([]string, len(ks)), make([]int, len(ks))
	for i, k := range ks {
		root, err := c.copyOf(fmt.Sprintf("edits-%d", i))
		if err != nil {
			return err
		}
		logf("starting %s", k.short)
		if cands[i], err = k.start(ctx, t, root, main, other); err != nil {
			return err
		}
		names[i], shorts[i], pids[i] = k.name, k.short, cands[i].pid()
	}
	// Every server's memory, from before its warm-up to the last mode's
	// end.
	mem := watchMemory("the edit modes ("+strings.Join(o.modes, ", ")+"), one session each", names, shorts, pids, ks[2].name)
	for i, k := range ks {
		logf("warming %s", k.short)
		var err error
		if baselines[i], err = warm(ctx, cands[i], main, 5, false); err != nil {
			return fmt.Errorf("%s: %w", k.short, err)
		}
		res.baselines = append(res.baselines, fmt.Sprintf("%s %d", k.short, len(baselines[i])))
	}
	mem.stage("the warm-up")
	seq, turn := 0, 0
	for mi, mode := range o.modes {
		ss := steps(mode, o.n, main, other, &seq)
		if mode == modeToggle {
			// The toggle's states were answered in the warm-up; one more
			// cycle, not counted, after the other modes' edits.
			ss = append(steps(mode, 1, main, other, &seq), ss...)
		}
		for _, s := range ss[len(ss)-2*o.n:] { // the tables' rows: by step, then candidate
			for _, k := range ks {
				res.series(res.mode(mode), k.name, s.label)
			}
		}
		logf("measuring %s: %d steps per candidate", mode, len(ss))
		for si, s := range ss {
			for j := range ks {
				i := (turn + j) % len(ks)
				a, d, err := timed(func() (answer, error) { return cands[i].apply(ctx, s.changes) })
				if err != nil {
					return fmt.Errorf("%s, %s, %s: %w", ks[i].short, mode, s.label, err)
				}
				if mode == modeToggle && si < 2 {
					continue
				}
				ok, why := judge(a, main, s.want, baselines[i], false)
				res.series(res.mode(mode), ks[i].name, s.label).add(d, ok, why)
			}
			turn++
		}
		if mi == len(o.modes)-1 {
			res.memory = append(res.memory, mem.end(mode))
		} else {
			mem.stage(mode)
		}
		if cs := resetChanges(ss); len(cs) > 0 {
			for i := range ks {
				if _, err := cands[i].apply(ctx, cs); err != nil {
					return fmt.Errorf("%s, putting the files back after %s: %w", ks[i].short, mode, err)
				}
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
		if k.short != "devbroker edit_file" && k.short != "baseline edit_file" { // the same server as dev_plan
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
		if ok, _ := judge(a, e, wantMessage, nil, true); ok {
			return time.Since(t0), wrong, nil
		}
		if ctx.Err() != nil {
			return 0, wrong, fmt.Errorf("no correct answer within 5 minutes: %w", ctx.Err())
		}
	}
}
