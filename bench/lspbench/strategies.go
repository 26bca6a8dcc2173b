package main

// This file defines the measured strategies: devbroker's lspdriver (and
// gopls's memory and cold start under it), gopls check per edit, and the
// peers' fixed sleep and quiet window.
//
// Every strategy sees the same edits (bench.content) and is judged
// against the same answers: the diagnostics devbroker settled for the
// edited file in its clean and broken states, recorded during warm-up.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/lsp"
)

// opTimeout bounds one check of any strategy.
const opTimeout = 3 * time.Minute

// goplsConfig is the embedded default configuration's gopls driver, run
// with the bench's gopls binary.
func (b *bench) goplsConfig() (configs.Driver, error) {
	p, err := configs.LoadProject(b.root)
	if err != nil {
		return configs.Driver{}, err
	}
	if p.Invalid != nil {
		return configs.Driver{}, p.Invalid
	}
	cfg := p.Config
	dc, ok := cfg.Drivers["gopls"]
	if !ok || dc.Type != lspdriver.Type.Name {
		return configs.Driver{}, fmt.Errorf("the default configuration has no gopls lsp driver")
	}
	c := *dc
	c.Command = append([]string{b.gopls}, c.Command[1:]...)
	c.Timeout = configs.Duration{Duration: opTimeout}
	return c, nil
}

func (b *bench) driver(cfg configs.Driver) (capabilities.Driver, error) {
	return lspdriver.Type.New("gopls", &cfg, capabilities.Env{Root: b.root, Language: "go"})
}

// check runs one devbroker check of the edited file at content and
// returns its diagnostics on that file, as keys.
func (b *bench) check(ctx context.Context, d capabilities.Driver, content string) ([]string, time.Duration, error) {
	req := &capabilities.Request{
		Kind: engine.Check, Root: b.root, Files: []string{b.file},
		All: map[string]*text.Doc{b.file: text.FromString(content)},
	}
	if content != b.clean { // as the engine says: only content unlike the disk's
		req.Changed = []string{b.file}
	}
	start := time.Now()
	r := d.Run(ctx, req)
	took := time.Since(start)
	if r.Status != engine.StatusOK {
		return nil, took, fmt.Errorf("status %s: %s", r.Status, r.Message)
	}
	var keys []string
	for _, dg := range r.Diagnostics {
		if dg.Path == b.file {
			keys = append(keys, key(dg.Line, dg.Column, dg.Severity, dg.Message))
		}
	}
	slices.Sort(keys)
	return keys, took, nil
}

// key is one diagnostic as the strategies are compared on it.
func key(line, col int, sev engine.Severity, msg string) string {
	return fmt.Sprintf("%d:%d: %s: %s", line, col, sev, msg)
}

// devbroker measures cold starts, the warm edit loop and gopls's memory,
// and records the expected answers in b.want.
func (b *bench) devbroker(ctx context.Context, res *results) error {
	cfg, err := b.goplsConfig()
	if err != nil {
		return err
	}
	if js, err := json.Marshal(cfg.Settings); err == nil {
		res.settings = string(js)
	}
	if b.opts.cold {
		c := cfg
		c.Env = append(slices.Clone(c.Env), "GOPLSCACHE="+filepath.Join(b.tmp, "gopls-cache"))
		logf("devbroker: cold start with an empty gopls cache")
		if res.coldEmpty, err = b.coldStart(ctx, c); err != nil {
			return err
		}
	}
	logf("devbroker: cold start")
	d, err := b.driver(cfg)
	if err != nil {
		return err
	}
	defer d.Close()
	start := time.Now()
	clean, _, err := b.check(ctx, d, b.clean)
	if err != nil {
		return err
	}
	res.cold = time.Since(start)
	broken, _, err := b.check(ctx, d, b.broken())
	if err != nil {
		return err
	}
	added := 0
	for _, k := range broken {
		if strings.Contains(k, "devbroker-bench") && !slices.Contains(clean, k) {
			added++
		}
	}
	if added != 1 || len(broken) != len(clean)+1 {
		return fmt.Errorf("the edit should add one diagnostic to %s: clean %q, broken %q", b.file, clean, broken)
	}
	b.want = map[bool][]string{false: clean, true: broken}
	res.baseline = len(clean)
	for i := range 4 { // warm-up, ending clean
		content, _ := b.content(i)
		if _, _, err := b.check(ctx, d, content); err != nil {
			return err
		}
	}
	pid := childGopls()
	res.memWarm = readMem(pid)
	logf("devbroker: %d edits", b.opts.n)
	s := res.add("devbroker (lspdriver, gopls.diagnose_files barrier)")
	// The two directions apart: the remove puts the file back to its
	// content on disk, whose answer is reused when it holds no error.
	dir := map[bool]*series{true: res.add("devbroker: add the error"), false: res.add("devbroker: remove it (back to the disk content, whose answer can be reused)")}
	for i := range b.opts.n {
		content, isBroken := b.content(i)
		cctx, cancel := context.WithTimeout(ctx, opTimeout)
		keys, took, err := b.check(cctx, d, content)
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		ok := err == nil && slices.Equal(keys, b.want[isBroken])
		s.add(took, ok)
		dir[isBroken].add(took, ok)
	}
	res.memEnd = readMem(pid)
	return nil
}

// coldStart starts a gopls through a fresh driver and times its first
// settled check, then closes it.
func (b *bench) coldStart(ctx context.Context, cfg configs.Driver) (time.Duration, error) {
	d, err := b.driver(cfg)
	if err != nil {
		return 0, err
	}
	defer d.Close()
	start := time.Now()
	if _, _, err := b.check(ctx, d, b.clean); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// goplsCheck runs gopls check on the edited file, written to disk, per
// edit. It counts as correct when the edit's error is reported exactly
// when the file has it (gopls check prints its own format, so the full
// diagnostic sets are not compared).
func (b *bench) goplsCheck(ctx context.Context, res *results) error {
	if b.opts.checkN == 0 {
		return nil
	}
	defer os.WriteFile(b.abs, []byte(b.clean), 0o644)
	logf("gopls check: %d edits", b.opts.checkN)
	s := res.add("gopls check FILE (a gopls per edit, file on disk)")
	for i := range b.opts.checkN {
		content, isBroken := b.content(i)
		if err := os.WriteFile(b.abs, []byte(content), 0o644); err != nil {
			return err
		}
		cctx, cancel := context.WithTimeout(ctx, opTimeout)
		cmd := exec.CommandContext(cctx, b.gopls, "check", b.abs)
		cmd.Dir = b.root
		start := time.Now()
		out, err := cmd.CombinedOutput()
		took := time.Since(start)
		cancel()
		if ctx.Err() != nil {
			return ctx.Err()
		}
		s.add(took, err == nil && strings.Contains(string(out), "devbroker-bench") == isBroken)
	}
	return nil
}

// peers measures the quiet window and the fixed sleep over one raw gopls
// with devbroker's settings, except that gopls diagnoses on every edit
// (devbroker's diagnosticsTrigger "Save" leaves that to its own
// diagnose_files request, which the peers do not make: with it they would
// wait for publishes that never come).
func (b *bench) peers(ctx context.Context, res *results) error {
	cfg, err := b.goplsConfig()
	if err != nil {
		return err
	}
	settings := maps.Clone(cfg.Settings)
	delete(settings, "diagnosticsTrigger")
	logf("peers: starting gopls")
	sctx, cancel := context.WithTimeout(ctx, opTimeout)
	defer cancel()
	p, err := startPeer(sctx, b.gopls, b.root, settings)
	if err != nil {
		return err
	}
	defer p.close()
	if err := p.open(sctx, b.abs, b.clean); err != nil {
		return err
	}
	if err := p.waitPublish(sctx, b.abs); err != nil {
		return err
	}
	edits := 0 // edits sent so far: the next content is b.content(edits)
	edit := func(wait func(since time.Time) error) (time.Duration, bool, error) {
		content, isBroken := b.content(edits)
		edits++
		start := time.Now()
		if err := p.change(ctx, b.abs, content); err != nil {
			return 0, false, err
		}
		if err := wait(start); err != nil {
			return 0, false, err
		}
		took := time.Since(start)
		return took, slices.Equal(b.peerKeys(content, p.published(b.abs)), b.want[isBroken]), nil
	}
	generous := func(since time.Time) error { return p.waitQuiet(sctx, since, 2*time.Second) }
	for range 4 { // warm-up, ending clean
		if _, _, err := edit(generous); err != nil {
			return err
		}
	}
	if len(b.peerKeys(b.clean, p.published(b.abs))) != len(b.want[false]) {
		logf("peers: warning: after warm-up the raw client sees %q, devbroker %q", b.peerKeys(b.clean, p.published(b.abs)), b.want[false])
	}
	for _, st := range []struct {
		name string
		n    int
		wait func(since time.Time) error
	}{
		{fmt.Sprintf("quiet window: no publish for %v", b.opts.quiet), b.opts.n, func(since time.Time) error { return p.waitQuiet(ctx, since, b.opts.quiet) }},
		{fmt.Sprintf("fixed sleep: %v after didChange", b.opts.sleep), b.opts.sleepN, func(time.Time) error {
			select {
			case <-time.After(b.opts.sleep):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}},
	} {
		if st.n == 0 {
			continue
		}
		logf("peers: %s, %d edits", st.name, st.n)
		s := res.add(st.name)
		if edits%2 == 1 { // start each strategy from clean, adding the error
			if _, _, err := edit(generous); err != nil {
				return err
			}
		}
		for range st.n {
			took, ok, err := edit(st.wait)
			if err != nil {
				return err
			}
			s.add(took, ok)
		}
	}
	return nil
}

// peerKeys converts what the raw client holds, UTF-16 positions on
// content, to keys as devbroker reports them.
func (b *bench) peerKeys(content string, ds []lsp.Diagnostic) []string {
	m := text.NewMapper(content)
	keys := make([]string, 0, len(ds))
	for _, d := range ds {
		off := m.Offset(d.Range.Start.Line, d.Range.Start.Character, text.UTF16)
		l, c := m.Position(off, text.Chars)
		sev := engine.SeverityInfo
		switch d.Severity {
		case lsp.SeverityError:
			sev = engine.SeverityError
		case lsp.SeverityWarning:
			sev = engine.SeverityWarning
		}
		keys = append(keys, key(l+1, c+1, sev, d.Message))
	}
	slices.Sort(keys)
	return keys
}
