package main

// This file holds the samples and writes them: the Markdown section of
// bench/RESULTS.md (peerbench's), and the short summary of a smoke run.

import (
	"fmt"
	"slices"
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
	section               string // the results file's section (corpus.section)
	versions              []string
	baselines             []string          // errors of the clean module, per candidate
	otherFile             string            // the put-back mode's other file
	edits                 map[string]*group // by mode
	cold, sessions        *group
	sessionFiles          []string
	rates                 []rate // the sessions' throughput, per candidate
	sessionsLoad          string // the load average when the sessions' rounds ended
	memory                []*memPart
	failures              []string // measurements that failed
}

// rate is one candidate's throughput with all its sessions at once: the
// answers of the measured rounds over the time they took.
type rate struct {
	name    string
	answers int
	took    time.Duration
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
	return &results{opts: o, start: time.Now(), loadBefore: host.Load(), edits: map[string]*group{}, cold: &group{}, sessions: &group{}}
}

// mode is the edits' group of a mode.
func (r *results) mode(m string) *group {
	if r.edits[m] == nil {
		r.edits[m] = &group{}
	}
	return r.edits[m]
}

// groups are every group with samples, the modes' first.
func (r *results) groups() []*group {
	var gs []*group
	for _, m := range modes {
		if g := r.edits[m]; g != nil {
			gs = append(gs, g)
		}
	}
	return append(gs, r.cold, r.sessions)
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

// table writes g as a Markdown table, with each p50 and p95 divided by
// those of base's series in the same direction (base "" for no ratio
// columns).
func (g *group) table(b *strings.Builder, base string) {
	fmt.Fprintf(b, "| candidate | edit | answers | correct | p50 | p95 |")
	if base != "" {
		fmt.Fprintf(b, " p50 ÷ gopls mcp's | p95 ÷ gopls mcp's |")
	}
	fmt.Fprintf(b, "\n|---|---|---:|---:|---:|---:|")
	if base != "" {
		fmt.Fprintf(b, "---:|---:|")
	}
	b.WriteString("\n")
	for _, s := range g.list {
		fmt.Fprintf(b, "| %s | %s | %d | %d | %s | %s |", s.name, s.dir, len(s.samples), s.correct, ms(s.percentile(50)), ms(s.percentile(95)))
		if base != "" {
			r50, r95 := "—", "—"
			for _, t := range g.list {
				if t.name == base && t.dir == s.dir {
					r50, r95 = ratio(s.percentile(50), t.percentile(50)), ratio(s.percentile(95), t.percentile(95))
				}
			}
			fmt.Fprintf(b, " %s | %s |", r50, r95)
		}
		b.WriteString("\n")
	}
}

// ratio is a/b as "1.23×", or "—" without b.
func ratio(a, b time.Duration) string {
	if b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", float64(a)/float64(b))
}

// pooled is every sample of name's series in g, every step together, and
// how many answers were correct.
func (g *group) pooled(name string) (samples []time.Duration, correct int) {
	for _, s := range g.list {
		if s.name == name {
			samples = append(samples, s.samples...)
			correct += s.correct
		}
	}
	return samples, correct
}

// modeTitles are the modes' headings.
var modeTitles = map[string]string{
	modeDistinct: "Distinct edits: every state new",
	modePutBack:  "Put-back while another file is also changed",
	modeToggle:   "The toggle: one error added and removed (cached)",
}

// modeTexts say what each mode does.
var modeTexts = map[string]string{
	modeDistinct: "Each step makes a state no candidate has seen in the run, as an agent's edits do: it replaces the line the last step appended to the edited file with a new one, alternately an error with a string of its own (`var _ int = \"devbroker-bench-N\"`, correct when that error is named, once, and no other new error) and a clean declaration with a name of its own (`const devbrokerBenchN = N`, correct when no new error is named, the previous step's included).",
	modePutBack:  "Each round first adds a new line to another file of the package (`const devbrokerOtherN = N`) and a new error to the edited file in one step, then puts the edited file back as the disk had it while the other file keeps its change: a put-back to a state never answered, which no cache of an earlier answer can serve.",
	modeToggle:   "The loop earlier runs measured: the same error added and removed again, states every candidate answered in the warm-up and in the rounds before. These answers can come from caches (devbroker reuses its answer for a put-back to the disk's unchanged bytes, lsp/reuse.go; gopls reuses its type-checked packages), so this is the cached case, not what an agent's new edits cost.",
}

// document is peerbench's section of the results file.
func (r *results) document() string {
	var b strings.Builder
	gopls := kinds(&tools{})[2].name
	on := ""
	if r.section != sectionName && r.section != "" {
		on = " on " + strings.TrimPrefix(r.section, sectionName+" ")
	}
	fmt.Fprintf(&b, "## Against the peers%s: devbroker, gopls mcp, agent-lsp\n\n", on)
	fmt.Fprintf(&b, "Written by `go run ./bench/peerbench %s` (see README.md): edit → diagnostics through MCP over stdio with the official Go SDK's client, each candidate on its own copy of the module, interleaved (every step made by each candidate in a rotating order before the next step).\n\n", strings.Join(r.opts.args, " "))
	fmt.Fprintf(&b, "- date: %s (the run took %s)\n", r.start.Format("2006-01-02 15:04 MST"), r.took.Round(time.Second))
	fmt.Fprintf(&b, "- machine: %s\n", host.Machine())
	fmt.Fprintf(&b, "- load average (1, 5, 15 min): %s before, %s after\n", r.loadBefore, r.loadAfter)
	fmt.Fprintf(&b, "- module: %s; edited file: %s; the put-back's other file: %s\n", r.module, r.file, r.otherFile)
	for _, v := range r.versions {
		fmt.Fprintf(&b, "- %s\n", v)
	}
	fmt.Fprintf(&b, "- errors in the clean module, per candidate (not counted against it): %s\n", strings.Join(r.baselines, ", "))
	fmt.Fprintf(&b, "- the load average says how busy the machine was: on a shared machine the p95s move most; compare the ratios within one run, where the candidates took turns under the same load\n\n")
	if g := r.edits[modeDistinct]; g != nil {
		fmt.Fprintf(&b, "### In short: every step of a mode pooled, against gopls mcp\n\n")
		fmt.Fprintf(&b, "| mode | candidate | answers | correct | p50 | p95 | p50 ÷ gopls mcp's | p95 ÷ gopls mcp's |\n|---|---|---:|---:|---:|---:|---:|---:|\n")
		for _, m := range modes {
			g := r.edits[m]
			if g == nil {
				continue
			}
			gs, _ := g.pooled(gopls)
			var names []string
			for _, s := range g.list {
				if !slices.Contains(names, s.name) {
					names = append(names, s.name)
				}
			}
			for _, name := range names {
				ss, correct := g.pooled(name)
				fmt.Fprintf(&b, "| %s | %s | %d | %d | %s | %s | %s | %s |\n", modeTitles[m], name, len(ss), correct,
					ms(stats.Percentile(ss, 50)), ms(stats.Percentile(ss, 95)),
					ratio(stats.Percentile(ss, 50), stats.Percentile(gs, 50)), ratio(stats.Percentile(ss, 95), stats.Percentile(gs, 95)))
			}
		}
		fmt.Fprintf(&b, "\nThe disk path is devbroker's `edit_file` + `check` against gopls mcp: both put the edit on disk and then ask (edit_file writes the file, atomically; for gopls mcp the benchmark writes it, then calls go_diagnostics). dev_plan keeps the edit in memory. Percentiles count every answer, correct or not (nearest rank).\n")
	}
	for _, m := range modes {
		g := r.edits[m]
		if g == nil {
			continue
		}
		fmt.Fprintf(&b, "\n### %s, %d rounds\n\n%s\n\n", modeTitles[m], r.opts.n, modeTexts[m])
		g.table(&b, gopls)
	}
	fmt.Fprintf(&b, "\nAn answer is correct when it names the step's error (file, line, message) exactly when the file has it, and no other error the clean module did not have. devbroker's `edit_file` makes one call per changed file, then `check {paths: [file]}`; gopls mcp learns of the write from go_diagnostics itself, which is given the file and compares the modification times of its package's files before answering (its fsnotify watcher, on the client's MCP root, would report it too, later); agent-lsp's get_diagnostics reopens the file from disk and waits for gopls to publish, then for 500 ms without a publish.\n")
	if len(r.cold.list) > 0 {
		fmt.Fprintf(&b, "\n### Cold start to the first correct answer\n\nFrom starting the server process to its first answer naming the error the file has on disk (devbroker: once `check` is listed, the check tool; gopls mcp: go_diagnostics; agent-lsp: start_lsp, then get_diagnostics), asking again after each wrong answer. gopls's file cache is warm (the same module copy, one start not counted); the servers take turns.\n\n")
		fmt.Fprintf(&b, "| candidate | starts | wrong answers before | p50 | p95 |\n|---|---:|---:|---:|---:|\n")
		for _, s := range r.cold.list {
			fmt.Fprintf(&b, "| %s | %d | %d | %s | %s |\n", s.name, len(s.samples), s.wrong, ms(s.percentile(50)), ms(s.percentile(95)))
		}
	}
	if len(r.sessions.list) > 0 {
		fmt.Fprintf(&b, "\n### %d sessions at once on one root\n\nOne server, %d MCP clients over HTTP at once, each editing its own file (%s) %d times per direction, in rounds (every session adds its error, then removes it, all at once) that alternate between the two servers, both running; correct is judged on the session's own file.\n\n", r.opts.sessions, r.opts.sessions, strings.Join(r.sessionFiles, ", "), r.opts.n)
		r.sessions.table(&b, "")
		if len(r.rates) > 0 {
			fmt.Fprintf(&b, "\nThroughput, every session at once (answers of the measured rounds over their wall time; load average when the rounds ended: %s):\n\n| candidate | answers | wall time | answers/s | ÷ the last row's |\n|---|---:|---:|---:|---:|\n", r.sessionsLoad)
			last := r.rates[len(r.rates)-1]
			for _, t := range r.rates {
				per := float64(t.answers) / t.took.Seconds()
				fmt.Fprintf(&b, "| %s | %d | %.1f s | %.2f | %.2f× |\n", t.name, t.answers, t.took.Seconds(), per, per/(float64(last.answers)/last.took.Seconds()))
			}
		}
	}
	if len(r.memory) > 0 {
		fmt.Fprintf(&b, "\n### Memory per root\n\nEach candidate is one server on its own root (its own copy of the module); its memory is its process tree: the server process and every process below it (devbroker's gopls processes, one per lane of its pool; gopls mcp's own children; agent-lsp's gopls), found by the parent each process in /proc names; a child still running in its parent's memory (started with vfork, before its exec: /proc shows the parent's sizes for it) is counted once, by its parent. Each process's PSS and RSS are read from /proc/PID/smaps_rollup every %s while the part runs, from the servers' start (their warm-up included) to its end, and once at its end. PSS (proportional set size) divides each shared page among the processes mapping it, so the tree's sum counts the pages its processes share once; RSS counts them in every process. The peak is the sample with the highest PSS; the load average (1 minute) is read at the part's start and end.\n\n", memEvery)
		memTable(&b, r.memory)
	}
	for _, f := range r.failures {
		fmt.Fprintf(&b, "\n- FAILED: %s\n", f)
	}
	return b.String()
}

// summary is a smoke run's output: a line per series.
func (r *results) summary() string {
	var b strings.Builder
	for _, g := range r.groups() {
		for _, s := range g.list {
			fmt.Fprintf(&b, "peerbench: %s, %s: %d/%d correct, p50 %s, p95 %s\n", s.name, s.dir, s.correct, len(s.samples), ms(s.percentile(50)), ms(s.percentile(95)))
		}
	}
	memSummary(&b, r.memory)
	return b.String()
}

// devbrokerWrong fails when a devbroker answer was wrong: a smoke run
// asserts devbroker's correctness, never its timings (or the peers').
func (r *results) devbrokerWrong() error {
	for _, g := range r.groups() {
		for _, s := range g.list {
			if (strings.HasPrefix(s.name, "devbroker") || strings.HasPrefix(s.name, "baseline devbroker")) && s.correct < len(s.samples) {
				return fmt.Errorf("%s, %s: %d of %d answers wrong, first: %s", s.name, s.dir, len(s.samples)-s.correct, len(s.samples), s.whys[0])
			}
		}
	}
	return nil
}

// write replaces the run's section of the file out ("" for none): a
// module other than the default one has its own, after peerbench's.
func (r *results) write(out, body string) error {
	name := r.section
	if name == "" {
		name = sectionName
	}
	if err := section.WriteAfter(out, name, sectionName, body); err != nil || out == "" {
		return err
	}
	logf("wrote %s", out)
	return nil
}
