package main

// This file holds the samples and writes them: the Markdown section of
// bench/RESULTS.md (peerbench's), and the short summary of a smoke run.

import (
	"fmt"
	"strings"
	"time"

	"github.com/devbroker/devbroker/bench/internal/host"
	"github.com/devbroker/devbroker/bench/internal/section"
	"github.com/devbroker/devbroker/bench/internal/stats"
)

// sectionName is peerbench's section of the results file.
const sectionName = "peerbench"

// results is one run.
type results struct {
	opts                  options
	start                 time.Time
	took                  time.Duration
	loadBefore, loadAfter string
	module, file          string
	versions              []string
	baselines             []string // errors of the clean module, per candidate
	edits, cold, sessions *group
	sessionFiles          []string
	failures              []string // measurements that failed
}

// group is a table's series, in the order they were first added.
type group struct{ list []*series }

// series is one candidate's samples in one direction.
type series struct {
	name, dir string
	samples   []time.Duration
	correct   int
	wrong     int      // cold start: wrong answers before the first correct one
	whys      []string // the first wrong answers' reasons
}

func newResults(o options) *results {
	return &results{opts: o, start: time.Now(), loadBefore: host.Load(), edits: &group{}, cold: &group{}, sessions: &group{}}
}

// series returns g's series for name and dir, adding it when new.
func (r *results) series(g *group, name, dir string) *series {
	for _, s := range g.list {
		if s.name == name && s.dir == dir {
			return s
		}
	}
	s := &series{name: name, dir: dir}
	g.list = append(g.list, s)
	return s
}

// add records one answer: how long it took and whether it was right.
func (s *series) add(d time.Duration, ok bool, why string) *series {
	s.samples = append(s.samples, d)
	if ok {
		s.correct++
	} else if len(s.whys) < maxLogged {
		s.whys = append(s.whys, why)
		logf("%s, %s: wrong answer: %s", s.name, s.dir, why)
	}
	return s
}

// percentile is the nearest-rank percentile p of every sample, right or
// wrong: the wait was spent either way.
func (s *series) percentile(p int) time.Duration { return stats.Percentile(s.samples, p) }

func (r *results) finish() {
	r.took, r.loadAfter = time.Since(r.start), host.Load()
}

// table writes g as a Markdown table, with each p50 divided by the p50 of
// base's series in the same direction (base "" for no ratio column).
func (g *group) table(b *strings.Builder, base string) {
	fmt.Fprintf(b, "| candidate | edit | answers | correct | p50 | p95 |")
	if base != "" {
		fmt.Fprintf(b, " p50 ÷ dev_plan's |")
	}
	fmt.Fprintf(b, "\n|---|---|---:|---:|---:|---:|")
	if base != "" {
		fmt.Fprintf(b, "---:|")
	}
	b.WriteString("\n")
	for _, s := range g.list {
		fmt.Fprintf(b, "| %s | %s | %d | %d | %s | %s |", s.name, s.dir, len(s.samples), s.correct, ms(s.percentile(50)), ms(s.percentile(95)))
		if base != "" {
			ratio := "—"
			for _, t := range g.list {
				if t.name == base && t.dir == s.dir && t.percentile(50) > 0 {
					ratio = fmt.Sprintf("%.2f×", float64(s.percentile(50))/float64(t.percentile(50)))
				}
			}
			fmt.Fprintf(b, " %s |", ratio)
		}
		b.WriteString("\n")
	}
}

// document is peerbench's section of the results file.
func (r *results) document() string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Against the peers: devbroker, gopls mcp, agent-lsp\n\n")
	fmt.Fprintf(&b, "Written by `go run ./bench/peerbench %s` (see README.md): edit → diagnostics through MCP over stdio with the official Go SDK's client, each candidate on its own copy of the module, interleaved (a rotating order per round); every round adds `%s` at the end of the file, then removes it.\n\n", strings.Join(r.opts.args, " "), errorLine)
	fmt.Fprintf(&b, "- date: %s (the run took %s)\n", r.start.Format("2006-01-02 15:04 MST"), r.took.Round(time.Second))
	fmt.Fprintf(&b, "- machine: %s\n", host.Machine())
	fmt.Fprintf(&b, "- load average (1, 5, 15 min): %s before, %s after\n", r.loadBefore, r.loadAfter)
	fmt.Fprintf(&b, "- module: %s; edited file: %s\n", r.module, r.file)
	for _, v := range r.versions {
		fmt.Fprintf(&b, "- %s\n", v)
	}
	fmt.Fprintf(&b, "- errors in the clean module, per candidate (not counted against it): %s\n\n", strings.Join(r.baselines, ", "))
	fmt.Fprintf(&b, "### Edit → answer, %d edits per candidate and direction\n\n", r.opts.n)
	r.edits.table(&b, kinds(&tools{})[0].name)
	fmt.Fprintf(&b, "\nAn answer is correct when it names the error (file, line, message) exactly when the file has it, and no other error the clean module did not have. Percentiles count every answer, correct or not. dev_plan keeps the edit in memory; the others put it on disk: edit_file writes it, and for gopls mcp and agent-lsp the benchmark writes the file before it asks. dev_plan's removal brings the file back to the disk's bytes, a state devbroker answered for in the warm-up with nothing changed on disk since: it gives that answer again without asking gopls (lsp/reuse.go; Settle \"reused\"), as it would after any check of the unchanged disk in the same server. edit_file's writes change the disk, so its answers are never reused. gopls mcp learns of the write from go_diagnostics itself, which is given the file and compares the modification times of its package's files before answering (its fsnotify watcher, on the client's MCP root, would report it too, later); agent-lsp's get_diagnostics reopens the file from disk and waits for gopls to publish, then for 500 ms without a publish.\n")
	if len(r.cold.list) > 0 {
		fmt.Fprintf(&b, "\n### Cold start to the first correct answer\n\nFrom starting the server process to its first answer naming the error the file has on disk (devbroker: once `check` is listed, the check tool; gopls mcp: go_diagnostics; agent-lsp: start_lsp, then get_diagnostics), asking again after each wrong answer. gopls's file cache is warm (the same module copy, one start not counted); the servers take turns.\n\n")
		fmt.Fprintf(&b, "| candidate | starts | wrong answers before | p50 | p95 |\n|---|---:|---:|---:|---:|\n")
		for _, s := range r.cold.list {
			fmt.Fprintf(&b, "| %s | %d | %d | %s | %s |\n", s.name, len(s.samples), s.wrong, ms(s.percentile(50)), ms(s.percentile(95)))
		}
	}
	if len(r.sessions.list) > 0 {
		fmt.Fprintf(&b, "\n### %d sessions at once on one root\n\nOne server, %d MCP clients over HTTP at once, each editing its own file (%s) %d times per direction; correct is judged on the session's own file.\n\n", r.opts.sessions, r.opts.sessions, strings.Join(r.sessionFiles, ", "), r.opts.n)
		r.sessions.table(&b, "")
	}
	for _, f := range r.failures {
		fmt.Fprintf(&b, "\n- FAILED: %s\n", f)
	}
	return b.String()
}

// summary is a smoke run's output: a line per series.
func (r *results) summary() string {
	var b strings.Builder
	for _, g := range []*group{r.edits, r.cold, r.sessions} {
		for _, s := range g.list {
			fmt.Fprintf(&b, "peerbench: %s, %s: %d/%d correct, p50 %s\n", s.name, s.dir, s.correct, len(s.samples), ms(s.percentile(50)))
		}
	}
	return b.String()
}

// devbrokerWrong fails when a devbroker answer was wrong: a smoke run
// asserts devbroker's correctness, never its timings (or the peers').
func (r *results) devbrokerWrong() error {
	for _, g := range []*group{r.edits, r.cold, r.sessions} {
		for _, s := range g.list {
			if strings.HasPrefix(s.name, "devbroker") && s.correct < len(s.samples) {
				return fmt.Errorf("%s, %s: %d of %d answers wrong, first: %s", s.name, s.dir, len(s.samples)-s.correct, len(s.samples), s.whys[0])
			}
		}
	}
	return nil
}

// write replaces peerbench's section of the file out ("" for none).
func (r *results) write(out, body string) error {
	if err := section.Write(out, sectionName, body); err != nil || out == "" {
		return err
	}
	logf("wrote %s", out)
	return nil
}
