package main

// This file defines the results: samples per strategy, their percentiles,
// gopls's memory from /proc, the machine, and the table and document
// written from them.

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// results is one run.
type results struct {
	opts         options
	module, file string
	machine      string
	gopls        string
	settings     string
	start        time.Time
	took         time.Duration

	series          []*series
	baseline        int           // devbroker's diagnostics on the clean file
	cold, coldEmpty time.Duration // start → first settled check
	memWarm, memEnd mem           // gopls's, under devbroker
}

// series is one strategy's samples.
type series struct {
	name    string
	samples []sample
}

type sample struct {
	took time.Duration
	ok   bool // the answer equalled the settled one
}

func (r *results) add(name string) *series {
	s := &series{name: name}
	r.series = append(r.series, s)
	return s
}

func (s *series) add(took time.Duration, ok bool) {
	s.samples = append(s.samples, sample{took, ok})
}

// percentile is the nearest-rank percentile p (0 < p ≤ 100) of all
// samples, correct or not: a wrong answer still cost the wait.
func (s *series) percentile(p int) time.Duration {
	if len(s.samples) == 0 {
		return 0
	}
	ds := make([]time.Duration, len(s.samples))
	for i, x := range s.samples {
		ds[i] = x.took
	}
	slices.Sort(ds)
	rank := (p*len(ds) + 99) / 100
	return ds[max(rank, 1)-1]
}

func (s *series) correct() int {
	n := 0
	for _, x := range s.samples {
		if x.ok {
			n++
		}
	}
	return n
}

// mem is a process's peak and current resident memory, in KiB.
type mem struct{ hwm, rss int64 }

func (m mem) String() string {
	if m.hwm == 0 {
		return "unknown"
	}
	return fmt.Sprintf("VmHWM %.0f MiB, VmRSS %.0f MiB", float64(m.hwm)/1024, float64(m.rss)/1024)
}

// readMem reads VmHWM and VmRSS of pid from /proc (zero off Linux).
func readMem(pid int) mem {
	var m mem
	if pid == 0 {
		return m
	}
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return m
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		kb, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 10, 64)
		switch name {
		case "VmHWM":
			m.hwm = kb
		case "VmRSS":
			m.rss = kb
		}
	}
	return m
}

// childGopls is the pid of this process's gopls child (the one
// lspdriver started), or 0.
func childGopls() int {
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	for _, st := range stats {
		data, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...
		s := string(data)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		fields := strings.Fields(s[end+1:])
		if s[open+1:end] != "gopls" || len(fields) < 2 {
			continue
		}
		if ppid, _ := strconv.Atoi(fields[1]); ppid == os.Getpid() {
			pid, _ := strconv.Atoi(strings.TrimSpace(s[:open]))
			return pid
		}
	}
	return 0
}

func ms(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Microseconds())/1000, 'f', 1, 64) + " ms"
}

// markdown is the results table and the memory and cold-start lines.
func (r *results) markdown() string {
	var b strings.Builder
	var ref time.Duration
	if len(r.series) > 0 {
		ref = r.series[0].percentile(50)
	}
	fmt.Fprintf(&b, "| strategy | edits | correct | p50 | p95 | p50 ÷ devbroker p50 |\n")
	fmt.Fprintf(&b, "|---|---:|---:|---:|---:|---:|\n")
	for _, s := range r.series {
		ratio := "–"
		if ref > 0 {
			ratio = fmt.Sprintf("%.1f×", float64(s.percentile(50))/float64(ref))
		}
		fmt.Fprintf(&b, "| %s | %d | %d | %s | %s | %s |\n", s.name, len(s.samples), s.correct(), ms(s.percentile(50)), ms(s.percentile(95)), ratio)
	}
	fmt.Fprintf(&b, "\n- gopls memory for the root, under devbroker: after warm-up %s; after the edits %s\n", r.memWarm, r.memEnd)
	fmt.Fprintf(&b, "- cold start (gopls started → first settled check): %s with gopls's file cache as earlier runs left it", ms(r.cold))
	if r.coldEmpty > 0 {
		fmt.Fprintf(&b, "; %s with an empty cache (GOPLSCACHE)", ms(r.coldEmpty))
	}
	fmt.Fprintf(&b, "\n- target: devbroker p50 ≤ 50 ms: ")
	if ref > 0 && ref <= 50*time.Millisecond {
		fmt.Fprintf(&b, "met (%s)\n", ms(ref))
	} else {
		fmt.Fprintf(&b, "NOT met (%s)\n", ms(ref))
	}
	return b.String()
}

// document is RESULTS.md: when, where, what, then the table.
func (r *results) document(table string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# lspbench results\n\n")
	fmt.Fprintf(&b, "Written by `go run ./bench/lspbench` (see README.md); rerun it to refresh this file.\n\n")
	fmt.Fprintf(&b, "- date: %s (the run took %s)\n", r.start.Format("2006-01-02 15:04 MST"), r.took.Round(time.Second))
	fmt.Fprintf(&b, "- machine: %s\n", r.machine)
	fmt.Fprintf(&b, "- gopls: %s, settings %s\n", r.gopls, r.settings)
	fmt.Fprintf(&b, "- module: %s; the edit appends or removes `%s` at the end of %s (clean, it has %d diagnostics)\n", r.module, errorLine, r.file, r.baseline)
	fmt.Fprintf(&b, "- flags: -n %d -check-n %d -sleep-n %d -sleep %v -quiet %v\n\n", r.opts.n, r.opts.checkN, r.opts.sleepN, r.opts.sleep, r.opts.quiet)
	b.WriteString(table)
	b.WriteString(`
"correct" counts the answers equal to the diagnostics devbroker settled
for the same content (for gopls check: the edit's error reported exactly
when the file has it). Percentiles include wrong answers: the wait was
spent either way. The peers run over a raw gopls with the same settings
(but diagnostics on every edit, gopls's default, as they make no
diagnose_files request), so only the wait differs.
`)
	return b.String()
}
