package main

// This file holds the samples and writes them: navbench's Markdown section
// of bench/RESULTS.md, and the short summary of a smoke run.

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/devbroker/devbroker/bench/internal/host"
	"github.com/devbroker/devbroker/bench/internal/section"
	"github.com/devbroker/devbroker/bench/internal/stats"
)

// sectionName is navbench's section of the results file.
const sectionName = "navbench"

// results is one run.
type results struct {
	opts                  options
	start                 time.Time
	took                  time.Duration
	loadBefore, loadAfter string
	module                string
	// section is the results file's section; chosen says that the
	// targets were chosen from the module, described by targets.
	section    string
	chosen     bool
	targets    []string
	versions   []string
	pairs      []*pair // the navigation requests, in order
	rename     *pair
	symQueries []string
	syms       []*pair // the workspace symbol searches, in order
	renameCmd  string
	bytesSame  bool
	bytesWhy   string
	// dev is the devbroker session the measurements share, on devRoot.
	dev     *devbrokerClient
	devRoot string
	// devSkip says why devbroker was not measured ("" when it was).
	devSkip string
}

// pair is one request's samples on both sides.
type pair struct {
	target, request string
	dev, gopls      []time.Duration
	answers         int // the count of gopls's last answer
	correct         int
	whys            []string // the first disagreements
}

func newResults(o options) *results {
	return &results{opts: o, start: time.Now(), loadBefore: host.Load(), rename: &pair{request: "rename"}}
}

// nav returns q's pair, adding it when new.
func (r *results) nav(q query) *pair {
	for _, p := range r.pairs {
		if p.target == q.t.String() && p.request == q.label() {
			return p
		}
	}
	p := &pair{target: q.t.String(), request: q.label()}
	r.pairs = append(r.pairs, p)
	return p
}

// symbol returns the pair of the workspace symbol search for q, adding
// it when new.
func (r *results) symbol(q string) *pair {
	for _, p := range r.syms {
		if p.request == q {
			return p
		}
	}
	p := &pair{target: "symbols", request: q}
	r.syms = append(r.syms, p)
	return p
}

// all is every pair: navigation, symbols, rename.
func (r *results) all() []*pair {
	return append(append(slices.Clone(r.pairs), r.syms...), r.rename)
}

// add records one round: both times and whether devbroker agreed.
func (p *pair) add(dev, gopls time.Duration, ok bool, why string, answers int) {
	p.dev, p.gopls, p.answers = append(p.dev, dev), append(p.gopls, gopls), answers
	if ok {
		p.correct++
	} else if len(p.whys) < 3 {
		p.whys = append(p.whys, why)
		logf("%s %s: devbroker disagrees with gopls: %s", p.target, p.request, why)
	}
}

// addGopls records one round of gopls alone (devbroker not measured).
func (p *pair) addGopls(gopls time.Duration, answers int) {
	p.gopls, p.answers = append(p.gopls, gopls), answers
}

// ratio is devbroker's p50 over gopls's.
func (p *pair) ratio() string {
	g := stats.Percentile(p.gopls, 50)
	if g == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", float64(stats.Percentile(p.dev, 50))/float64(g))
}

func (p *pair) row(b *strings.Builder, first string) {
	if len(p.dev) == 0 {
		fmt.Fprintf(b, "| %s | %d | — | — | — | %s | %s | — |\n", first, p.answers, ms(stats.Percentile(p.gopls, 50)), ms(stats.Percentile(p.gopls, 95)))
		return
	}
	fmt.Fprintf(b, "| %s | %d | %d/%d | %s | %s | %s | %s | %s |\n", first, p.answers, p.correct, len(p.dev),
		ms(stats.Percentile(p.dev, 50)), ms(stats.Percentile(p.dev, 95)), ms(stats.Percentile(p.gopls, 50)), ms(stats.Percentile(p.gopls, 95)), p.ratio())
}

func (r *results) finish() {
	r.took, r.loadAfter = time.Since(r.start), host.Load()
}

// document is navbench's section of the results file.
func (r *results) document() string {
	var b strings.Builder
	on := ""
	if r.section != sectionName {
		on = " on " + strings.TrimPrefix(r.section, sectionName+" ")
	}
	fmt.Fprintf(&b, "## Definition, references, symbols and rename%s: devbroker against gopls\n\n", on)
	fmt.Fprintf(&b, "Written by `go run ./bench/navbench %s` (see README.md).\n\n", strings.Join(r.opts.args, " "))
	fmt.Fprintf(&b, "- date: %s (the run took %s)\n", r.start.Format("2006-01-02 15:04 MST"), r.took.Round(time.Second))
	fmt.Fprintf(&b, "- machine: %s\n", host.Machine())
	fmt.Fprintf(&b, "- load average (1, 5, 15 min): %s before, %s after\n", r.loadBefore, r.loadAfter)
	fmt.Fprintf(&b, "- module: %s\n", r.module)
	if r.chosen {
		fmt.Fprintf(&b, "- targets, chosen from the module's packages by navbench's rule (README.md):\n")
		for _, t := range r.targets {
			fmt.Fprintf(&b, "  - %s\n", t)
		}
	}
	for _, v := range r.versions {
		fmt.Fprintf(&b, "- %s\n", v)
	}
	if r.devSkip != "" {
		fmt.Fprintf(&b, "- devbroker NOT MEASURED: %s; the tables give gopls's side alone\n", r.devSkip)
	}
	fmt.Fprintf(&b, "\n### Warm definition and references, %d rounds\n\n", r.opts.n)
	fmt.Fprintf(&b, "devbroker: its `definition` and `references` MCP tools (stdio, the official Go SDK's client), from the call to the answer. gopls: the same request (`textDocument/definition` or `textDocument/references`, includeDeclaration false) sent by a minimal raw LSP client straight to gopls on its own copy, from the request to the answer. Both warmed (%d rounds not counted), then interleaved, alternating which goes first. Correct: devbroker's answer lists the places gopls lists (path, line, column), the same count (devbroker lists at most 100 and counts the rest), and its listed places are gopls's first ones in path order. The ratio, devbroker's p50 over gopls's, is the broker's overhead.\n\n", warmRounds)
	fmt.Fprintf(&b, "| target | request | places | correct | devbroker p50 | p95 | gopls p50 | p95 | p50 ÷ gopls's |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range r.pairs {
		p.row(&b, p.target+" | "+p.request)
	}
	if len(r.syms) > 0 {
		fmt.Fprintf(&b, "\n### Workspace symbols against gopls mcp, %d rounds\n\n", r.opts.n)
		fmt.Fprintf(&b, "devbroker: its `symbols` MCP tool with `query`. gopls mcp: its `go_search` tool with the same query (`gopls mcp`, the same pinned gopls, on its own copy of the module; the client's MCP root is the copy). Both over stdio through the official Go SDK's client, from the call to the answer; both warmed (%d rounds not counted), then interleaved, alternating which goes first. Both answer from gopls's `workspace/symbol` (at most 100 symbols). Correct: as many symbols, and the same ones (name and file) as many times each; for a search that reached gopls's limit of %d, gopls mcp's first %d (symbols that score the same are ranked in no fixed order, so which of them make the cut differs between two gopls processes).\n\n", warmRounds, goplsSymbolLimit, rankedPrefix)
		fmt.Fprintf(&b, "| query | symbols | correct | devbroker p50 | p95 | gopls mcp p50 | p95 | p50 ÷ gopls mcp's |\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
		for _, p := range r.syms {
			p.row(&b, "`"+p.request+"`")
		}
	}
	if len(r.rename.gopls) > 0 {
		fmt.Fprintf(&b, "\n### Rename, %d rounds\n\n", r.opts.renameN)
		fmt.Fprintf(&b, "devbroker: `dev_plan {paths: [file], ops: [rename, check]}`, the rename applied to the session's in-memory workspace and type-checked, nothing written (a `discard` after each round, not timed, resets it). gopls: `%s` on a copy of the module, put back from the pristine module after each round (not timed). One round of each not counted, then interleaved, alternating which goes first. Correct: the same files changed, and both without an error. ", r.renameCmd)
		switch {
		case r.devSkip != "":
			b.WriteString("\n\n")
		case r.bytesSame:
			fmt.Fprintf(&b, "After the rounds, `dev_plan [rename, check, write]` on devbroker's copy left exactly the tree `gopls rename -w` left on its own (every file byte for byte).\n\n")
		default:
			fmt.Fprintf(&b, "After the rounds, the trees differed: %s.\n\n", r.bytesWhy)
		}
		fmt.Fprintf(&b, "| target | request | files changed | correct | devbroker p50 | p95 | gopls p50 | p95 | p50 ÷ gopls's |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
		r.rename.row(&b, r.rename.target+" | rename + check")
	}
	for _, p := range r.all() {
		for _, w := range p.whys {
			fmt.Fprintf(&b, "\n- disagreement, %s %s: %s", p.target, p.request, w)
		}
	}
	return b.String()
}

// summary is a smoke run's output: a line per request.
func (r *results) summary() string {
	var b strings.Builder
	for _, p := range r.all() {
		if len(p.gopls) > 0 {
			fmt.Fprintf(&b, "navbench: %s %s: %d/%d correct, devbroker p50 %s, gopls p50 %s\n", p.target, p.request, p.correct, len(p.dev), ms(stats.Percentile(p.dev, 50)), ms(stats.Percentile(p.gopls, 50)))
		}
	}
	if len(r.rename.dev) > 0 {
		fmt.Fprintf(&b, "navbench: written rename byte for byte as gopls's: %t %s\n", r.bytesSame, r.bytesWhy)
	}
	return b.String()
}

// devbrokerWrong fails when a devbroker answer disagreed with gopls's: a
// smoke run asserts devbroker's correctness, never its timings.
func (r *results) devbrokerWrong() error {
	for _, p := range r.all() {
		if p.correct < len(p.dev) {
			return fmt.Errorf("%s %s: %d of %d answers disagree with gopls, first: %s", p.target, p.request, len(p.dev)-p.correct, len(p.dev), p.whys[0])
		}
	}
	if len(r.rename.dev) > 0 && !r.bytesSame {
		return fmt.Errorf("the written rename: %s", r.bytesWhy)
	}
	return nil
}

// write replaces the run's section of the file out ("" for none): a new
// one of a module given with -module goes after the default module's.
func (r *results) write(out, body string) error {
	if err := section.WriteAfter(out, r.section, sectionName, body); err != nil || out == "" {
		return err
	}
	logf("wrote %s", out)
	return nil
}
