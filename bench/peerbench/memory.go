package main

// This file measures the servers' memory: each candidate's process tree
// (its server and every process below it), read from /proc while a part
// of the run goes on.

import (
	"fmt"
	"strings"
	"time"

	"github.com/devbroker/devbroker/bench/internal/host"
	"github.com/devbroker/devbroker/bench/internal/procmem"
)

// memEvery is how often the trees are read.
const memEvery = 250 * time.Millisecond

// memPart is the memory of the candidates over one part of the run (the
// edit modes, or the sessions): every tree's samples pooled over the
// part's stages.
type memPart struct {
	title                 string
	base                  int // the candidate the ratios divide by (gopls mcp), -1 for none
	names                 []string
	shorts                []string // the names in the progress lines
	usage                 []procmem.Usage
	loadBefore, loadAfter string
}

// memWatch samples the trees of a part, a sampler per stage (the
// warm-up, then each mode), so that each stage's end is read and logged.
type memWatch struct {
	part *memPart
	pids []int
	s    *procmem.Sampler
}

// watchMemory starts sampling the trees of pids (the candidates names,
// and shorts in the progress lines) for the part title; base names the
// candidate ratios divide by.
func watchMemory(title string, names, shorts []string, pids []int, base string) *memWatch {
	p := &memPart{title: title, base: -1, names: names, shorts: shorts, usage: make([]procmem.Usage, len(names)), loadBefore: host.Load()}
	for i, n := range names {
		if n == base {
			p.base = i
		}
	}
	return &memWatch{part: p, pids: pids, s: procmem.Start(memEvery, pids...)}
}

// stage ends the stage that was sampled (label says which: "the
// warm-up", a mode) and begins the next one.
func (w *memWatch) stage(label string) {
	w.take(label)
	w.s = procmem.Start(memEvery, w.pids...)
}

// end ends the last stage and the part, and returns the part.
func (w *memWatch) end(label string) *memPart {
	w.take(label)
	w.part.loadAfter = host.Load()
	return w.part
}

// take stops the stage's sampler, pools its usage into the part's and
// logs each tree's size at the stage's end.
func (w *memWatch) take(label string) {
	var line []string
	for i, u := range w.s.Stop() {
		p := &w.part.usage[i]
		if u.Samples == 0 {
			if p.Samples == 0 && p.Err == nil {
				p.Err = u.Err
			}
			line = append(line, fmt.Sprintf("%s not measured (%v)", w.part.shorts[i], u.Err))
			continue
		}
		if u.Peak.PSS > p.Peak.PSS {
			p.Peak = u.Peak
		}
		p.End, p.Samples, p.Err = u.End, p.Samples+u.Samples, nil
		line = append(line, fmt.Sprintf("%s %s", w.part.shorts[i], u.End))
	}
	logf("memory at the end of %s: %s", label, strings.Join(line, "; "))
}

// memTable writes the memory parts as a Markdown table, then each
// candidate's processes at its peak.
func memTable(b *strings.Builder, parts []*memPart) {
	fmt.Fprintf(b, "| part | candidate | peak PSS | processes at the peak | RSS at the peak | PSS at the end | processes at the end | peak ÷ gopls mcp's | end ÷ gopls mcp's |\n|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, p := range parts {
		for i, name := range p.names {
			u := p.usage[i]
			title := fmt.Sprintf("%s (load %s → %s)", p.title, load1(p.loadBefore), load1(p.loadAfter))
			if u.Samples == 0 {
				fmt.Fprintf(b, "| %s | %s | not measured: %v | | | | | | |\n", title, name, u.Err)
				continue
			}
			rp, re := "—", "—"
			if p.base >= 0 && p.usage[p.base].Samples > 0 {
				g := p.usage[p.base]
				rp, re = memRatio(u.Peak.PSS, g.Peak.PSS), memRatio(u.End.PSS, g.End.PSS)
			}
			fmt.Fprintf(b, "| %s | %s | %s | %d | %s | %s | %d | %s | %s |\n", title, name,
				procmem.MiB(u.Peak.PSS), len(u.Peak.Procs), procmem.MiB(u.Peak.RSS), procmem.MiB(u.End.PSS), len(u.End.Procs), rp, re)
		}
	}
	fmt.Fprintf(b, "\nThe processes of each tree at its peak (PSS, of it anonymous: heaps and stacks):\n\n")
	for _, p := range parts {
		for i, name := range p.names {
			if u := p.usage[i]; u.Samples > 0 {
				fmt.Fprintf(b, "- %s, %s: %s\n", p.title, name, procs(u.Peak))
			}
		}
	}
}

// procs lists a tree's processes in short.
func procs(t procmem.Tree) string {
	var out []string
	for _, p := range t.Procs {
		name := p.Comm
		if len(p.Args) > 1 { // the first arguments say what a gopls is: a server, its telemetry child, mcp
			name += " " + strings.Join(p.Args[1:min(len(p.Args), 3)], " ")
		}
		if r := []rune(name); len(r) > 40 { // go list -overlay=/tmp/…
			name = string(r[:40]) + "…"
		}
		out = append(out, fmt.Sprintf("`%s` %s (anon %s)", name, procmem.MiB(p.PSS), procmem.MiB(p.Anon)))
	}
	if t.Shared > 0 {
		out = append(out, fmt.Sprintf("%d more in their parent's memory (vfork, before exec), not counted again", t.Shared))
	}
	return strings.Join(out, ", ")
}

// memRatio is a/b as "1.23×", or "—" without b.
func memRatio(a, b int64) string {
	if b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", float64(a)/float64(b))
}

// load1 is the one-minute figure of a load average.
func load1(l string) string {
	if f := strings.Fields(l); len(f) > 0 {
		return f[0]
	}
	return l
}

// memSummary is the memory lines of a smoke run.
func memSummary(b *strings.Builder, parts []*memPart) {
	for _, p := range parts {
		for i, name := range p.names {
			u := p.usage[i]
			if u.Samples == 0 {
				fmt.Fprintf(b, "peerbench: memory, %s, %s: not measured: %v\n", p.title, name, u.Err)
				continue
			}
			fmt.Fprintf(b, "peerbench: memory, %s, %s: peak %s; end %s; %d samples; at the peak: %s\n", p.title, name, u.Peak, u.End, u.Samples, procs(u.Peak))
		}
	}
}
