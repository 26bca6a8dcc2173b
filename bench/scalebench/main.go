// Command scalebench measures devbroker's lint and format at the scale of
// the request against the tools they wrap, on a real module, in
// interleaved runs: `devbroker lint FILE` after an exported-API edit to
// FILE against `staticcheck ./PKG` after another such edit, and
// `devbroker format --write` of the whole module against `gofumpt -l -w
// .`. It checks that both sides give the same answer, and writes its
// section of bench/RESULTS.md. See bench/README.md.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/devbroker/devbroker/bench/internal/host"
	"github.com/devbroker/devbroker/bench/internal/section"

	"github.com/devbroker/devbroker/bench/internal/modcache"
)

// The module measured: staticcheck's, in the module cache because
// devbroker links it in; the file is in a package that 113 files import.
const (
	module  = "honnef.co/go/tools@v0.8.1"
	file    = "analysis/code/code.go"
	targetX = 1.5 // the target: at most 1.5× the tool's own command
)

func main() {
	n := flag.Int("n", 7, "measured runs per command (after one that warms the caches)")
	out := flag.String("out", "bench/RESULTS.md", "the results file whose scalebench section is rewritten (\"\" for none)")
	only := flag.String("only", "", "run only one part: \"lint\" or \"format\" (the results file keeps the other part's rows out; use -out \"\" to leave it alone)")
	flag.Parse()
	if *only != "" && *only != "lint" && *only != "format" {
		fmt.Fprintf(os.Stderr, "scalebench: -only %q: want lint or format\n", *only)
		os.Exit(2)
	}
	if err := run(*n, *out, *only); err != nil {
		fmt.Fprintln(os.Stderr, "scalebench:", err)
		os.Exit(1)
	}
}

// run measures the comparisons (only: just those of "lint" or "format")
// and writes the results file out, if any.
func run(n int, out, only string) error {
	tmp, err := os.MkdirTemp("", "scalebench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	modcache.AllowModUpdates()
	bins := map[string]string{}
	for name, pkg := range map[string]string{"devbroker": "./cmd/devbroker", "staticcheck": "honnef.co/go/tools/cmd/staticcheck", "gofumpt": "mvdan.cc/gofumpt"} {
		bins[name] = filepath.Join(tmp, name)
		if err := command("", "go", "build", "-o", bins[name], pkg).Run(); err != nil {
			return fmt.Errorf("building %s: %w", name, err)
		}
	}
	src, err := goOutput("", "go", "mod", "download", "-json", module)
	if err != nil {
		return err
	}
	start, load := time.Now(), host.Load()
	var pairs []*pair
	for i, c := range lintCases("./" + path.Dir(file)) {
		if only == "format" {
			break
		}
		p, err := lintBench(bins, jsonField(src, "Dir"), filepath.Join(tmp, fmt.Sprint("lint", i)), n, c)
		if err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		pairs = append(pairs, p)
	}
	if only != "lint" {
		format, err := formatBench(bins, jsonField(src, "Dir"), filepath.Join(tmp, "format"), n)
		if err != nil {
			return fmt.Errorf("format: %w", err)
		}
		pairs = append(pairs, format)
	}
	args := fmt.Sprintf("-n %d", n)
	if only != "" {
		args += " -only " + only
	}
	body := document(pairs, args, start, load, host.Load())
	fmt.Print(body)
	if out == "" {
		return nil
	}
	prev, _ := os.ReadFile(out)
	return os.WriteFile(out, []byte(section.Replace(string(prev), "scalebench", body)), 0o644)
}

// pair is one comparison: devbroker's command and the tool's own, timed
// in alternating order, and whether their answers agreed every time.
type pair struct {
	name, ours, theirs string // what is measured, and the two command lines
	us, them           []time.Duration
	agree              int // runs whose answers matched
	note               string
}

func median(v []time.Duration) time.Duration {
	v = slices.Clone(v)
	slices.Sort(v)
	if len(v) == 0 {
		return 0
	}
	return v[len(v)/2]
}

// timed runs cmd and returns its wall time and output.
func timed(cmd *exec.Cmd) (time.Duration, string, error) {
	t0 := time.Now()
	b, err := cmd.CombinedOutput()
	d := time.Since(t0)
	if _, ok := err.(*exec.ExitError); ok {
		err = nil // findings exit non-zero; the answer is compared instead
	}
	return d, string(b), err
}

func command(dir, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Stderr = dir, os.Stderr
	return cmd
}

func goOutput(dir, name string, args ...string) (string, error) {
	b, err := command(dir, name, args...).Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return string(b), nil
}

// jsonField is the string value of "key" in go's -json output.
func jsonField(out, key string) string {
	_, rest, _ := strings.Cut(out, `"`+key+`": "`)
	v, _, _ := strings.Cut(rest, `"`)
	return v
}

func document(pairs []*pair, args string, start time.Time, before, after string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Lint and format at the scale of the request: `scalebench`\n\n")
	fmt.Fprintf(&b, "`go run ./bench/scalebench %s` on %s, %s; machine: %s; load average before %s, after %s.\n\n",
		args, module, start.UTC().Format("2006-01-02"), host.Machine(), before, after)
	b.WriteString("| measured | devbroker p50 | tool p50 | ratio | target | same answer |\n|---|---:|---:|---:|---:|---:|\n")
	for _, p := range pairs {
		mu, mt := median(p.us), median(p.them)
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f× | ≤ %.1f× | %d/%d |\n", p.name, ms(mu), ms(mt), float64(mu)/float64(mt), targetX, p.agree, len(p.us))
	}
	b.WriteString("\nCommands:\n\n")
	for _, p := range pairs {
		fmt.Fprintf(&b, "- %s: `%s` against `%s`. %s\n", p.name, p.ours, p.theirs, p.note)
	}
	return b.String()
}

func ms(d time.Duration) string { return fmt.Sprintf("%d ms", d.Milliseconds()) }
