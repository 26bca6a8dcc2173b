// Command startbench measures how long an MCP client waits for devbroker
// at start-up: from starting `devbroker serve --mcp` to the answer of
// tools/list (initialize included), through the Go SDK's client, for an
// empty root and a Go module, each with a cold and a warm probe cache. It
// writes its section of bench/RESULTS.md. See bench/README.md.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/bench/internal/host"
	"github.com/devbroker/devbroker/bench/internal/modcache"
	"github.com/devbroker/devbroker/bench/internal/section"
)

// target is the start-up target on a warm machine.
const target = 300 * time.Millisecond

func main() {
	n := flag.Int("n", 15, "starts per root and cache state (0: only the corpus)")
	corpus := flag.Int("corpus", 0, "first checks on the corpus ("+corpusModule+") against gopls mcp (0: none)")
	baseline := flag.String("baseline", "", "a devbroker binary to measure too, interleaved (a build before a change): its start-up and, with -corpus, its first checks")
	out := flag.String("out", "bench/RESULTS.md", "the results file whose startup section is rewritten (\"\" for none)")
	flag.Parse()
	if err := run(*n, *corpus, *baseline, *out); err != nil {
		fmt.Fprintln(os.Stderr, "startbench:", err)
		os.Exit(1)
	}
}

// series is one root and cache state's start-up times.
type series struct {
	name    string
	samples []time.Duration
	// bin names the binary of a start-up series ("devbroker", or the
	// baseline's file name); complete counts the starts whose first
	// tools/list named all want tools (the steps the probe finds).
	bin      string
	complete int
	want     int
}

func (s *series) percentile(p int) time.Duration {
	v := slices.Clone(s.samples)
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	i := (p*len(v)+99)/100 - 1 // nearest rank
	return v[max(i, 0)]
}

func run(n, corpus int, baseline, out string) error {
	tmp, err := os.MkdirTemp("", "startbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "devbroker")
	build := exec.Command("go", "build", "-o", bin, "./cmd/devbroker")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("building devbroker: %w", err)
	}
	roots := map[string]map[string]string{
		"empty root": {},
		"Go module":  {"go.mod": "module example.com/m\n\ngo 1.22\n", "main.go": "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n"},
	}
	start, load := time.Now(), host.Load()
	bins := []string{bin}
	if baseline != "" {
		bins = append(bins, baseline)
	}
	var all []*series
	for _, name := range []string{"empty root", "Go module"} {
		if n == 0 {
			break
		}
		root := filepath.Join(tmp, strings.ReplaceAll(name, " ", "-"))
		if err := os.MkdirAll(root, 0o755); err != nil { // the empty root has no file to make it
			return err
		}
		if err := modcache.WriteTree(root, roots[name]); err != nil {
			return err
		}
		want, err := probeSteps(bin, root, filepath.Join(tmp, "probe-"+filepath.Base(root)))
		if err != nil {
			return err
		}
		for _, state := range []string{"cold", "warm"} {
			// The binaries take turns, start by start, so that the
			// machine's load falls on each alike.
			ss := make([]*series, len(bins))
			for j, b := range bins {
				ss[j] = &series{name: name + ", " + state + " probe cache", bin: binName(b, j), want: len(want)}
			}
			for i := range n + 1 {
				for j, b := range bins {
					cache := filepath.Join(tmp, fmt.Sprintf("warm-%s-%d", filepath.Base(root), j))
					if state == "cold" {
						cache = filepath.Join(tmp, fmt.Sprintf("cold-%s-%d-%d", filepath.Base(root), j, i))
					}
					d, tools, err := startOnce(b, root, cache)
					if err != nil {
						return fmt.Errorf("%s (%s): %w", ss[j].name, ss[j].bin, err)
					}
					if i > 0 { // the first start primes the warm cache (and the page cache)
						ss[j].samples = append(ss[j].samples, d)
						if len(missingFrom(tools, want)) == 0 {
							ss[j].complete++
						}
					}
				}
			}
			for _, s := range ss {
				fmt.Fprintf(os.Stderr, "startbench: %s (%s): p50 %s, first list complete in %d of %d\n", s.name, s.bin, ms(s.percentile(50)), s.complete, len(s.samples))
			}
			all = append(all, ss...)
		}
	}
	var checks, corpusSeries []*series
	gopls, err := exec.LookPath("gopls")
	switch {
	case err != nil:
		fmt.Fprintln(os.Stderr, "startbench: no gopls on PATH: the first-check comparisons are skipped")
	case n > 0:
		db, gp, err := firstChecks(bin, gopls, tmp, max(n/3, 3))
		if err != nil {
			return err
		}
		checks = []*series{db, gp}
		fmt.Fprintf(os.Stderr, "startbench: first check: devbroker p50 %s, gopls check p50 %s\n", ms(db.percentile(50)), ms(gp.percentile(50)))
	}
	if err == nil && corpus > 0 {
		if corpusSeries, err = corpusChecks(bin, gopls, baseline, tmp, corpus); err != nil {
			return err
		}
		fmt.Fprintf(os.Stderr, "startbench: corpus first check: devbroker p50 %s, gopls mcp p50 %s\n", ms(corpusSeries[0].percentile(50)), ms(corpusSeries[1].percentile(50)))
	}
	body := document(all, checks, n, baseline, start, load, host.Load()) + corpusDocument(corpusSeries, corpus)
	fmt.Print(body)
	if out == "" {
		return nil
	}
	prev, _ := os.ReadFile(out)
	if corpus == 0 {
		// The corpus takes minutes: a run without it keeps the last one's.
		body += keptCorpus(string(prev))
	}
	return os.WriteFile(out, []byte(section.Replace(string(prev), "startbench", body)), 0o644)
}

// corpusHeading begins the corpus's part of the section.
const corpusHeading = "\n### First correct check of a real module"

// keptCorpus is the corpus's part of the startbench section of doc, as an
// earlier run wrote it ("" when there is none).
func keptCorpus(doc string) string {
	begin, end := "<!-- startbench -->\n", "<!-- /startbench -->\n"
	i := strings.Index(doc, begin)
	if i < 0 {
		return ""
	}
	sec := doc[i+len(begin):]
	if j := strings.Index(sec, end); j >= 0 {
		sec = sec[:j]
	}
	k := strings.Index(sec, corpusHeading)
	if k < 0 {
		return ""
	}
	sec = sec[k:]
	if l := strings.Index(sec[1:], "\n\n"); l >= 0 && !strings.Contains(sec, keptNote) {
		sec = sec[:l+3] + keptNote + "\n\n" + sec[l+3:]
	}
	return sec
}

// keptNote marks a corpus part kept from an earlier run.
const keptNote = "Kept from an earlier run: only a run with `-corpus` rewrites this part."

// binName names the j-th binary of a run: devbroker (the build of this
// tree), then the baseline by its file name.
func binName(bin string, j int) string {
	if j == 0 {
		return "devbroker"
	}
	return "baseline " + filepath.Base(bin)
}

// probeSteps runs `devbroker probe --json` on root (with its probe cache
// under cacheHome) and returns the steps it finds available: the tools
// every first tools/list should name.
func probeSteps(bin, root, cacheHome string) ([]string, error) {
	cmd := exec.Command(bin, "probe", "--json", "--root", root)
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cacheHome)
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("devbroker probe: %w", err)
	}
	var rep struct {
		Steps []string `json:"steps"`
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		return nil, fmt.Errorf("devbroker probe --json: %w", err)
	}
	return rep.Steps, nil
}

// missingFrom lists the names of want that tools lacks.
func missingFrom(tools, want []string) []string {
	var out []string
	for _, w := range want {
		if !slices.Contains(tools, w) {
			out = append(out, w)
		}
	}
	return out
}

// startOnce starts the server on root with its probe cache under
// cacheHome, and returns the time to the answer of tools/list and the
// tools it named. The server is then closed (its input ends) and waited
// for.
func startOnce(bin, root, cacheHome string) (time.Duration, []string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// The full tool profile: every step the probe finds is a tool, so the
	// first list is complete when it names them all.
	cmd := exec.Command(bin, "serve", "--mcp", "--root", root, "--tools", "full", "--log-level", "error")
	// Only the probe cache starts cold: Go's build cache stays the user's.
	cmd.Env = append(os.Environ(), "XDG_CACHE_HOME="+cacheHome, "GOCACHE="+goEnv("GOCACHE"))
	c := sdk.NewClient(&sdk.Implementation{Name: "startbench", Version: "1"}, nil)
	t0 := time.Now()
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return 0, nil, err
	}
	defer cs.Close()
	res, err := cs.ListTools(ctx, nil)
	if err != nil {
		return 0, nil, err
	}
	d := time.Since(t0)
	var names []string
	for _, t := range res.Tools {
		names = append(names, t.Name)
	}
	return d, names, nil
}

var goEnvCache = map[string]string{}

func goEnv(name string) string {
	if v, ok := goEnvCache[name]; ok {
		return v
	}
	out, _ := exec.Command("go", "env", name).Output()
	goEnvCache[name] = strings.TrimSpace(string(out))
	return goEnvCache[name]
}

func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000)
}

// document is startbench's section of the results file.
func document(all, checks []*series, n int, baseline string, start time.Time, loadBefore, loadAfter string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Start-up: initialize + tools/list\n\n")
	cmd := fmt.Sprintf("go run ./bench/startbench -n %d", n)
	if baseline != "" {
		cmd += " -baseline " + filepath.Base(baseline)
	}
	fmt.Fprintf(&b, "Written by `%s` (see README.md): from starting `devbroker serve --mcp` to the answer of the first tools/list, initialize included, through the Go SDK's client over stdio.\n\n", cmd)
	fmt.Fprintf(&b, "- date: %s (the run took %s)\n", start.Format("2006-01-02 15:04 MST"), time.Since(start).Round(time.Second))
	fmt.Fprintf(&b, "- machine: %s\n", host.Machine())
	fmt.Fprintf(&b, "- load average (1, 5, 15 min): %s before, %s after\n\n", loadBefore, loadAfter)
	if len(all) > 0 {
		fmt.Fprintf(&b, "The last column counts the starts whose first tools/list named every step `devbroker probe` finds for the root (for the Go module with gopls installed: format, lint, check and the six language tools): a client that lists tools once sees those.\n\n")
		fmt.Fprintf(&b, "| root, probe cache | binary | starts | p50 | p95 | first list complete |\n|---|---|---:|---:|---:|---:|\n")
		worst := time.Duration(0)
		for _, s := range all {
			fmt.Fprintf(&b, "| %s | %s | %d | %s | %s | %d of %d |\n", s.name, s.bin, len(s.samples), ms(s.percentile(50)), ms(s.percentile(95)), s.complete, len(s.samples))
			if strings.Contains(s.name, "warm") && s.bin == "devbroker" {
				worst = max(worst, s.percentile(50))
			}
		}
		verdict := "met"
		if worst > target {
			verdict = "NOT met"
		}
		fmt.Fprintf(&b, "\n- target: initialize + tools/list p50 ≤ %s with a warm cache, for any root: %s (%s at worst)\n", ms(target), verdict, ms(worst))
	}
	if len(checks) == 2 {
		db, gp := checks[0], checks[1]
		fmt.Fprintf(&b, "\n### First correct check of a small Go module\n\n")
		fmt.Fprintf(&b, "From starting the server to the check tool's answer that names the module's type error (waiting for tools/list_changed when check is not listed yet), against a new `gopls check main.go` process on the same module; pairs interleaved, the first pair not counted, Go's caches warm for both.\n\n")
		fmt.Fprintf(&b, "| candidate | runs | p50 | p95 |\n|---|---:|---:|---:|\n")
		for _, s := range checks {
			fmt.Fprintf(&b, "| %s | %d | %s | %s |\n", s.name, len(s.samples), ms(s.percentile(50)), ms(s.percentile(95)))
		}
		ratio := float64(db.percentile(50)) / float64(gp.percentile(50))
		verdict := "met"
		if ratio > firstCheckTarget {
			verdict = "NOT met"
		}
		fmt.Fprintf(&b, "\n- target: devbroker's p50 ≤ %.2f× gopls check's: %s (%.2f×)\n", firstCheckTarget, verdict, ratio)
	}
	return b.String()
}
