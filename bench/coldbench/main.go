// Command coldbench measures devbroker's first answers on a real module
// with empty caches, against the tools it wraps: `devbroker check`
// against `gopls check` of the same files, and `devbroker lint` against
// `staticcheck ./...` then `go vet ./...`. Each side runs as a new process
// with its own fresh caches (GOCACHE, GOPLSCACHE, XDG_CACHE_HOME, which
// holds staticcheck's and devbroker's probe cache): the cold first
// answer; then again over the caches it filled: the warm first answer.
// The answers are compared (the same findings), and a devbroker driver
// that answers anything but ok (a timeout above all) is a failure. It
// writes its section of bench/RESULTS.md. See bench/README.md.
package main

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/devbroker/devbroker/bench/internal/gobuild"
	"github.com/devbroker/devbroker/bench/internal/host"
	"github.com/devbroker/devbroker/bench/internal/modcache"
	"github.com/devbroker/devbroker/bench/internal/section"
)

func main() {
	n := flag.Int("n", 3, "rounds: each a cold and a warm first answer per side")
	smoke := flag.Bool("smoke", false, "a small generated module, one round, no results file; fails only on a wrong answer")
	check := flag.String("check-module", "golang.org/x/tools@latest", "the modules whose first check is measured, separated by commas (\"\" for none)")
	lint := flag.String("lint-module", "honnef.co/go/tools@latest", "the module whose first lint is measured (\"\" for none)")
	pyright := flag.String("pyright-root", "", "a Python project (a checkout of psf/requests) whose first check is measured against pyright (\"\" for none)")
	tsc := flag.String("tsc-root", "", "an npm TypeScript project, its dependencies installed, whose first check is measured against tsc --noEmit (\"\" for none)")
	only := flag.String("only", "", "the comparisons to run, separated by commas, of check, lint, pyright and tsc (\"\" for every one the other flags name)")
	out := flag.String("out", "bench/RESULTS.md", "the results file whose coldbench section is rewritten (\"\" for none)")
	flag.Parse()
	if err := run(*n, *smoke, *check, *lint, *pyright, *tsc, *only, *out); err != nil {
		fmt.Fprintln(os.Stderr, "coldbench:", err)
		os.Exit(1)
	}
}

// bins are the binaries measured.
type bins struct{ devbroker, gopls, staticcheck, dir string }

func run(n int, smoke bool, checkMod, lintMod, pyrightRoot, tscRoot, only, out string) error {
	kinds := strings.Split(only, ",")
	for _, k := range kinds {
		if _, ok := drivers[k]; !ok && only != "" {
			return fmt.Errorf("-only: %q is none of check, lint, pyright and tsc", k)
		}
	}
	wanted := func(kind string) bool { return only == "" || slices.Contains(kinds, kind) }
	tmp, err := os.MkdirTemp("", "coldbench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	modcache.AllowModUpdates()
	b := bins{dir: filepath.Join(tmp, "bin")}
	b.devbroker, b.gopls, b.staticcheck = filepath.Join(b.dir, "devbroker"), filepath.Join(b.dir, "gopls"), filepath.Join(b.dir, "staticcheck")
	for bin, pkg := range map[string]string{b.devbroker: "./cmd/devbroker", b.gopls: "golang.org/x/tools/gopls", b.staticcheck: "honnef.co/go/tools/cmd/staticcheck"} {
		if err := gobuild.Build(context.Background(), "", bin, pkg); err != nil {
			return err
		}
	}
	// The user's configuration of the runs: the default, but for the
	// answer's size limit, so that whole answers can be compared.
	cfgHome := filepath.Join(tmp, "config")
	if err := modcache.WriteTree(cfgHome, map[string]string{"devbroker/config.toml": "[limits]\nmax_diagnostics = 1000000\n"}); err != nil {
		return err
	}
	type target struct{ kind, module, dir string }
	var targets []target
	if smoke {
		n = 1
		smokes := map[string]map[string]string{"check": smokeCheck, "lint": smokeLint}
		// pyright and tsc as .ci/install-tools installs them (npm,
		// global); without them these comparisons are left out.
		for kind, files := range map[string]map[string]string{"pyright": smokePyright, "tsc": smokeTSC} {
			if _, err := exec.LookPath(kind); err != nil {
				fmt.Printf("%s: not on PATH, its comparison left out (npm install -g, as .ci/install-tools does)\n", kind)
				continue
			}
			smokes[kind] = files
		}
		for kind, files := range smokes {
			if !wanted(kind) {
				continue
			}
			dir := filepath.Join(tmp, "smoke-"+kind)
			if kind == "tsc" {
				// A gitignored node_modules holding what failed a no-path
				// check once: a JSON file over the size limit, and a
				// TypeScript file with an error no answer may name.
				files = maps.Clone(files)
				files["node_modules/dep/big.json"] = "[" + strings.Repeat("0,", 9<<20) + "0]\n"
			}
			if err := modcache.WriteTree(dir, files); err != nil {
				return err
			}
			targets = append(targets, target{kind, "a generated module", dir})
		}
		slices.SortFunc(targets, func(a, c target) int { return cmp.Compare(a.kind, c.kind) })
	} else {
		var mods []target
		for _, m := range strings.Split(checkMod, ",") {
			mods = append(mods, target{kind: "check", module: strings.TrimSpace(m)})
		}
		mods = append(mods, target{kind: "lint", module: lintMod})
		for i, t := range mods {
			kind, mod := t.kind, t.module
			if mod == "" || !wanted(kind) {
				continue
			}
			src, err := modcache.Download(context.Background(), mod)
			if err != nil {
				return err
			}
			dir, err := modcache.CopyResolved(src, filepath.Join(tmp, fmt.Sprintf("%s%d", kind, i)))
			if err != nil {
				return err
			}
			// The module's own dependencies, downloaded before any clock runs.
			if o := gobuild.Output(context.Background(), dir, "go", "mod", "download"); o != "" {
				fmt.Fprintln(os.Stderr, "go mod download:", o)
			}
			targets = append(targets, target{kind, mod + " (" + filepath.Base(src) + ")", dir})
		}
		// The Python and TypeScript projects, measured where they are
		// (neither side writes to them).
		for _, t := range []target{{kind: "pyright", dir: pyrightRoot}, {kind: "tsc", dir: tscRoot}} {
			kind, dir := t.kind, t.dir
			if dir == "" || !wanted(kind) {
				continue
			}
			abs, err := filepath.Abs(dir)
			if err != nil {
				return err
			}
			targets = append(targets, target{kind, filepath.Base(abs), abs})
		}
	}
	start, load := time.Now(), host.Load()
	var rows []string
	for _, tg := range targets {
		res, err := measure(b, cfgHome, tmp, tg.kind, tg.dir, n, smoke)
		if err != nil {
			return fmt.Errorf("%s of %s: %w", tg.kind, tg.module, err)
		}
		rows = append(rows, res.rows(tg.module)...)
		fmt.Println(res.summary(tg.module))
	}
	if smoke || out == "" {
		return nil
	}
	body := fmt.Sprintf("## Cold start: first answers with empty caches (coldbench)\n\nWritten by `%s` (see README.md). Run %s, %d rounds, %s; load average %s before, %s after (%s).\n\n",
		strings.Join(append([]string{"go run ./bench/coldbench"}, os.Args[1:]...), " "), start.UTC().Format("2006-01-02 15:04 UTC"), n, host.Machine(), load, host.Load(), time.Since(start).Round(time.Second)) +
		"| command | module | cold p50 | warm p50 | same answer |\n|---|---|---:|---:|---|\n" + strings.Join(rows, "\n") + "\n"
	return section.Write(out, "coldbench", body)
}

// result is one comparison's samples.
type result struct {
	kind                 string
	ours, theirs         string // the commands, for the table
	oursCold, oursWarm   []time.Duration
	theirCold, theirWarm []time.Duration
	same                 string // "yes (N findings)" or what differed
}

func median(s []time.Duration) time.Duration {
	s = slices.Clone(s)
	slices.Sort(s)
	return s[len(s)/2]
}

func (r *result) rows(module string) []string {
	ratio := func(a, b []time.Duration) string {
		return fmt.Sprintf("%.2f×", float64(median(a))/float64(median(b)))
	}
	return []string{
		fmt.Sprintf("| `%s` | %s | %s | %s | %s |", r.ours, module, median(r.oursCold).Round(time.Second), median(r.oursWarm).Round(100*time.Millisecond), r.same),
		fmt.Sprintf("| `%s` | %s | %s | %s | |", r.theirs, module, median(r.theirCold).Round(time.Second), median(r.theirWarm).Round(100*time.Millisecond)),
		fmt.Sprintf("| ratio | | %s | %s | |", ratio(r.oursCold, r.theirCold), ratio(r.oursWarm, r.theirWarm)),
	}
}

func (r *result) summary(module string) string {
	return fmt.Sprintf("%s %s: devbroker cold %v warm %v; %s cold %v warm %v; same answer: %s",
		r.kind, module, median(r.oursCold), median(r.oursWarm), r.theirs, median(r.theirCold), median(r.theirWarm), r.same)
}

// finding is one diagnostic as both sides can say it.
type finding struct {
	path      string
	line, col int
	what      string // the message's first line (check) or the check's code (lint)
	// related are the finding's other places (gopls's related
	// information), each path:line:col: message, in path order.
	related string
}

// relatedText is a finding's related places as one comparable string:
// each "path:line:col: message" (the message's first line; the path
// relative to the root, or absolute when the place is outside it), sorted,
// joined by "; ".
func relatedText(places []string) string {
	places = slices.Clone(places)
	slices.Sort(places)
	return strings.Join(places, "; ")
}

// measure runs n rounds of kind over dir: each side cold, then warm.
// With strict (-smoke), answers that differ fail the run; otherwise the
// table says so.
func measure(b bins, cfgHome, tmp, kind, dir string, n int, strict bool) (*result, error) {
	r := &result{kind: kind, ours: devbrokerCommand(kind), theirs: map[string]string{"check": "gopls check FILES", "lint": "staticcheck ./... && go vet ./...", "pyright": "pyright --outputjson", "tsc": "tsc --noEmit"}[kind]}
	var ours, theirs []finding
	for i := range n {
		for side := range 2 {
			// Alternate which side goes first.
			mine := (side+i)%2 == 0
			caches, err := os.MkdirTemp(tmp, "caches-")
			if err != nil {
				return nil, err
			}
			env := append(os.Environ(),
				"GOCACHE="+filepath.Join(caches, "go-build"),
				"GOPLSCACHE="+filepath.Join(caches, "gopls"),
				"XDG_CACHE_HOME="+filepath.Join(caches, "xdg"),
				"XDG_CONFIG_HOME="+cfgHome,
				"PATH="+b.dir+string(os.PathListSeparator)+os.Getenv("PATH"))
			for warm := range 2 {
				var took time.Duration
				var got []finding
				if mine {
					took, got, err = runDevbroker(b, env, kind, dir)
				} else {
					var name string
					took, got, name, err = runTool(b, env, kind, dir)
					r.theirs = name
				}
				if err != nil {
					return nil, err
				}
				fmt.Printf("%s round %d: %s, %s: %v\n", kind, i+1, map[bool]string{true: r.ours, false: r.theirs}[mine], map[int]string{0: "cold", 1: "warm"}[warm], took)
				switch {
				case mine && warm == 0:
					r.oursCold = append(r.oursCold, took)
				case mine:
					r.oursWarm = append(r.oursWarm, took)
				case warm == 0:
					r.theirCold = append(r.theirCold, took)
				default:
					r.theirWarm = append(r.theirWarm, took)
				}
				if mine {
					ours = got
				} else {
					theirs = got
				}
			}
			os.RemoveAll(caches)
		}
		if d := diff(ours, theirs); d != "" {
			if strict {
				return nil, fmt.Errorf("round %d: the answers differ (%s against %s): %s", i+1, r.ours, r.theirs, d)
			}
			fmt.Printf("round %d: the answers differ (%s against %s): %s\n", i+1, r.ours, r.theirs, d)
			r.same = fmt.Sprintf("no (%d findings against %d; the run's output lists the differences)", len(ours), len(theirs))
			continue
		}
		withRelated := 0
		for _, f := range ours {
			if f.related != "" {
				withRelated++
			}
		}
		r.same = fmt.Sprintf("yes (%d findings)", len(ours))
		if withRelated > 0 {
			r.same = fmt.Sprintf("yes (%d findings, %d of them with related places)", len(ours), withRelated)
		}
	}
	return r, nil
}

// devbrokerCommand is the devbroker command of a comparison: lint for
// lint, check for the others; --trust for tsc, whose server,
// typescript-language-server, runs the project's own
// node_modules/typescript and so only in a root the user trusts.
func devbrokerCommand(kind string) string {
	switch kind {
	case "lint":
		return "devbroker lint"
	case "tsc":
		return "devbroker check --trust"
	}
	return "devbroker check"
}

// drivers are the devbroker drivers of a comparison, the first the one
// whose findings are compared; each must answer ok.
var drivers = map[string][]string{
	"check":   {"gopls"},
	"lint":    {"staticcheck", "go-vet"},
	"pyright": {"pyright"},
	"tsc":     {"typescript-language-server"},
}

// runDevbroker runs devbroker's command of kind over dir (no paths: the
// whole root) and returns the findings of kind's driver. A driver of
// kind whose status is not ok, or that did not answer, fails the run:
// that is the answer this benchmark is about.
func runDevbroker(b bins, env []string, kind, dir string) (time.Duration, []finding, error) {
	args := append(strings.Fields(devbrokerCommand(kind))[1:], "--root", dir, "--format", "json", "--quiet")
	cmd := exec.Command(b.devbroker, args...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	took := time.Since(start)
	if err != nil && cmd.ProcessState == nil {
		return 0, nil, err
	}
	var ans struct {
		Diagnostics []struct {
			Path         string
			Line, Column int
			Severity     string
			Source, Code string
			Message      string
			Related      []struct {
				Path         string
				Line, Column int
				Message      string
			}
		}
		Drivers []struct{ Driver, Status, Message string }
	}
	if err := json.Unmarshal(stdout.Bytes(), &ans); err != nil {
		return 0, nil, fmt.Errorf("devbroker %s: %v (exit %d)\n%s", kind, err, cmd.ProcessState.ExitCode(), stderr.String())
	}
	src := drivers[kind][0]
	answered := map[string]bool{}
	for _, d := range ans.Drivers {
		if slices.Contains(drivers[kind], d.Driver) && d.Status != "ok" {
			return 0, nil, fmt.Errorf("devbroker %s: driver %s answered %s: %s", kind, d.Driver, d.Status, d.Message)
		}
		answered[d.Driver] = true
	}
	if !answered[src] {
		return 0, nil, fmt.Errorf("devbroker %s: driver %s did not answer (exit %d)\n%s", kind, src, cmd.ProcessState.ExitCode(), stderr.String())
	}
	var fs []finding
	for _, d := range ans.Diagnostics {
		if d.Source != src {
			continue
		}
		what := d.Code
		if kind != "lint" {
			// gopls check prints warnings and errors only (its
			// -severity defaults to warning; the modernizers' info
			// findings, such as "interface{} can be replaced by any",
			// it never prints), tsc errors only, and pyright's command
			// line none of the hints its server sends ("x" is not
			// accessed, unreachable code), which devbroker's answer
			// carries as info: devbroker's info findings have no
			// counterpart to compare with (and pyright's own
			// information findings are left out with them).
			if d.Severity == "info" {
				continue
			}
			what = firstLine(d.Message)
		}
		var rel []string
		for _, r := range d.Related {
			rel = append(rel, fmt.Sprintf("%s:%d:%d: %s", r.Path, r.Line, r.Column, firstLine(r.Message)))
		}
		fs = append(fs, finding{d.Path, d.Line, d.Column, what, relatedText(rel)})
	}
	return took, fs, nil
}

// goplsLine is a line of gopls check's output: path:line:col[-col or -line:col]: message.
var goplsLine = regexp.MustCompile(`^(.+?):(\d+):(\d+)(?:-\d+(?::\d+)?)?: (.*)$`)

// parseGoplsLine reads a finding from a line of gopls check's output
// about files under dir; false for any other line (a message's
// continuation). A related place's line ("path:line:col: - message",
// printed under its finding) is read as a finding whose what starts with
// "- "; parseGoplsOutput attaches it to the finding above it.
func parseGoplsLine(dir, l string) (finding, bool) {
	m := goplsLine.FindStringSubmatch(l)
	if m == nil {
		return finding{}, false
	}
	p, err := filepath.Rel(dir, m[1])
	if err != nil {
		return finding{}, false
	}
	if p == ".." || strings.HasPrefix(p, ".."+string(filepath.Separator)) {
		// Outside the root: devbroker names such a place by its
		// absolute path.
		p = m[1]
	}
	var line, col int
	if _, err := fmt.Sscan(m[2], &line); err != nil {
		return finding{}, false
	}
	if _, err := fmt.Sscan(m[3], &col); err != nil {
		return finding{}, false
	}
	return finding{path: filepath.ToSlash(p), line: line, col: col, what: buildTag.ReplaceAllString(firstLine(m[4]), "")}, true
}

// relatedMark starts the message of a related place's line in gopls
// check's output: it prints each related place of a finding under it as
// "path:line:col: - message".
const relatedMark = "- "

// parseGoplsOutput reads gopls check's whole output about files under
// dir: its findings, each with the related places printed under it, each
// finding once (gopls check prints one per build configuration that has
// it).
func parseGoplsOutput(dir, out string) []finding {
	var fs []finding
	var rel []string
	flush := func() {
		if len(fs) > 0 {
			fs[len(fs)-1].related = relatedText(rel)
		}
		rel = nil
	}
	for _, l := range strings.Split(out, "\n") {
		f, ok := parseGoplsLine(dir, l)
		if !ok {
			continue
		}
		if msg, isRel := strings.CutPrefix(f.what+" ", relatedMark); isRel && len(fs) > 0 {
			rel = append(rel, fmt.Sprintf("%s:%d:%d: %s", f.path, f.line, f.col, strings.TrimSpace(msg)))
			continue
		}
		flush()
		fs = append(fs, f)
	}
	flush()
	seen := map[finding]bool{}
	var once []finding
	for _, f := range fs {
		if !seen[f] {
			seen[f] = true
			once = append(once, f)
		}
	}
	return once
}

// buildTag is the mark gopls check puts after a finding it made in
// another build configuration only (" [darwin]", " [windows]"): the
// same finding, which devbroker reports once.
var buildTag = regexp.MustCompile(` \[[a-z0-9_,/ ]+\]$`)

// runTool runs the tool devbroker wraps for kind: gopls check of every Go
// file devbroker's walk checks, staticcheck ./... then go vet ./...,
// pyright, or tsc --noEmit.
func runTool(b bins, env []string, kind, dir string) (time.Duration, []finding, string, error) {
	var fs []finding
	switch kind {
	case "pyright":
		return runPyright(env, dir)
	case "tsc":
		return runTSC(env, dir)
	}
	if kind == "check" {
		files, err := goFiles(dir)
		if err != nil {
			return 0, nil, "", err
		}
		cmd := exec.Command(b.gopls, append([]string{"check"}, files...)...)
		cmd.Dir, cmd.Env = dir, env
		start := time.Now()
		out, err := cmd.Output()
		took := time.Since(start)
		if err != nil {
			return 0, nil, "", fmt.Errorf("gopls check: %v", err)
		}
		return took, parseGoplsOutput(dir, string(out)), "gopls check FILES", nil
	}
	cmd := exec.Command(b.staticcheck, "-f", "json", "./...")
	cmd.Dir, cmd.Env = dir, env
	start := time.Now()
	out, err := cmd.Output()
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		return 0, nil, "", fmt.Errorf("staticcheck: %v", err)
	}
	vet := exec.Command("go", "vet", "./...")
	vet.Dir, vet.Env = dir, env
	if o, err := vet.CombinedOutput(); err != nil && vet.ProcessState.ExitCode() != 1 {
		return 0, nil, "", fmt.Errorf("go vet: %v\n%s", err, o)
	}
	took := time.Since(start)
	for _, l := range strings.Split(string(out), "\n") {
		var f struct {
			Code, Severity string
			Location       struct {
				File         string
				Line, Column int
			}
		}
		if json.Unmarshal([]byte(l), &f) != nil || f.Severity == "ignored" || f.Code == "compile" {
			continue
		}
		p, _ := filepath.Rel(dir, f.Location.File)
		fs = append(fs, finding{path: filepath.ToSlash(p), line: f.Location.Line, col: f.Location.Column, what: f.Code})
	}
	return took, fs, "staticcheck ./... && go vet ./...", nil
}

// runPyright runs pyright as a project runs it: in its directory, where
// it reads the project's [tool.pyright] (or pyrightconfig.json), with
// its JSON output.
func runPyright(env []string, dir string) (time.Duration, []finding, string, error) {
	cmd := exec.Command("pyright", "--outputjson")
	cmd.Dir, cmd.Env = dir, env
	start := time.Now()
	out, err := cmd.Output()
	took := time.Since(start)
	if err != nil && cmd.ProcessState.ExitCode() != 1 {
		return 0, nil, "", fmt.Errorf("pyright: %v\n%s", err, out)
	}
	fs, err := parsePyright(dir, out)
	return took, fs, "pyright --outputjson", err
}

// parsePyright reads pyright --outputjson's errors and warnings (its
// information findings are left out, as devbroker's info ones are).
func parsePyright(dir string, out []byte) ([]finding, error) {
	var ans struct {
		GeneralDiagnostics []struct {
			File, Severity, Message string
			Range                   struct{ Start struct{ Line, Character int } }
		}
	}
	if err := json.Unmarshal(out, &ans); err != nil {
		return nil, fmt.Errorf("pyright: %v", err)
	}
	var fs []finding
	for _, d := range ans.GeneralDiagnostics {
		if d.Severity != "error" && d.Severity != "warning" {
			continue
		}
		p, err := filepath.Rel(dir, d.File)
		if err != nil {
			return nil, err
		}
		fs = append(fs, finding{path: filepath.ToSlash(p), line: d.Range.Start.Line + 1, col: d.Range.Start.Character + 1, what: firstLine(d.Message)})
	}
	return fs, nil
}

// runTSC runs tsc --noEmit in dir, as the project's scripts do: the
// project's own node_modules/.bin/tsc, else the tsc on PATH.
func runTSC(env []string, dir string) (time.Duration, []finding, string, error) {
	tsc, name := filepath.Join(dir, "node_modules", ".bin", "tsc"), "node_modules/.bin/tsc --noEmit"
	if _, err := os.Stat(tsc); err != nil {
		tsc, name = "tsc", "tsc --noEmit"
	}
	cmd := exec.Command(tsc, "--noEmit", "--pretty", "false")
	cmd.Dir, cmd.Env = dir, env
	start := time.Now()
	out, err := cmd.Output()
	took := time.Since(start)
	// tsc exits 1 or 2 when it reports errors.
	if err != nil && (cmd.ProcessState == nil || cmd.ProcessState.ExitCode() > 2) {
		return 0, nil, "", fmt.Errorf("tsc: %v\n%s", err, out)
	}
	fs := parseTSC(string(out))
	if err != nil && len(fs) == 0 {
		return 0, nil, "", fmt.Errorf("tsc failed and named no error: %v\n%s", err, out)
	}
	return took, fs, name, nil
}

// tscLine is a line of tsc --pretty false's output: path(line,col): error TSn: message.
var tscLine = regexp.MustCompile(`^(.+)\((\d+),(\d+)\): (error|warning) TS\d+: (.*)$`)

// parseTSC reads tsc --pretty false's errors (paths relative to the
// project's directory, where it ran); a message's continuation lines,
// indented, are not findings.
func parseTSC(out string) []finding {
	var fs []finding
	for _, l := range strings.Split(out, "\n") {
		m := tscLine.FindStringSubmatch(strings.TrimRight(l, "\r"))
		if m == nil {
			continue
		}
		var line, col int
		if _, err := fmt.Sscan(m[2], &line); err != nil {
			continue
		}
		if _, err := fmt.Sscan(m[3], &col); err != nil {
			continue
		}
		fs = append(fs, finding{path: filepath.ToSlash(m[1]), line: line, col: col, what: firstLine(m[5])})
	}
	return fs
}

// goFiles lists the .go files a devbroker walk checks: not under
// testdata, vendor, or a directory whose name starts with "." or "_".
func goFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, e os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := e.Name()
		if e.IsDir() && p != dir && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
			return filepath.SkipDir
		}
		if !e.IsDir() && strings.HasSuffix(name, ".go") {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, rel)
		}
		return nil
	})
	return files, err
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.TrimSpace(s)
}

// diff says how two answers differ, "" when they hold the same findings.
func diff(ours, theirs []finding) string {
	key := func(f finding) string {
		k := fmt.Sprintf("%s:%d:%d: %s", f.path, f.line, f.col, f.what)
		if f.related != "" {
			k += " (related: " + f.related + ")"
		}
		return k
	}
	count := func(fs []finding) map[string]int {
		m := map[string]int{}
		for _, f := range fs {
			m[key(f)]++
		}
		return m
	}
	a, b := count(ours), count(theirs)
	var only []string
	for k, n := range a {
		if b[k] < n {
			only = append(only, "only devbroker's: "+k)
		}
	}
	for k, n := range b {
		if a[k] < n {
			only = append(only, "only the tool's: "+k)
		}
	}
	if len(only) == 0 {
		return ""
	}
	slices.Sort(only)
	mine := 0
	for _, o := range only {
		if strings.HasPrefix(o, "only devbroker's") {
			mine++
		}
	}
	head := fmt.Sprintf("%d only devbroker's, %d only the tool's: ", mine, len(only)-mine)
	// The tool's first: a finding devbroker misses matters more than one
	// it adds (its servers' settings enable more analyzers).
	theirsFirst := func(s string) int {
		if strings.HasPrefix(s, "only devbroker's") {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(only, func(a, b string) int { return cmp.Compare(theirsFirst(a), theirsFirst(b)) })
	if len(only) > 10 {
		only = append(only[:10], fmt.Sprintf("and %d more", len(only)-10))
	}
	return head + strings.Join(only, "; ")
}

// smokeCheck and smokeLint are the generated modules of -smoke: a type
// error for the check, a staticcheck finding for the lint, over packages
// that import the standard library (so a cold build cache compiles it).
var (
	smokeCheck = map[string]string{
		"go.mod":     "module example.com/smoke\n\ngo 1.22\n",
		"lib/lib.go": "package lib\n\nimport \"strings\"\n\n// Up is s in upper case.\nfunc Up(s string) string { return strings.ToUpper(s) }\n",
		"app/app.go": "package app\n\nimport (\n\t\"fmt\"\n\n\t\"example.com/smoke/lib\"\n)\n\n// Hello greets.\nfunc Hello() string {\n\tvar n int = \"one\"\n\treturn fmt.Sprint(lib.Up(\"hi\"), n)\n}\n",
	}
	// smokePyright is a project whose pyright scope (include) leaves
	// its tests out: the error in tests/ must not be in either answer.
	smokePyright = map[string]string{
		"pyproject.toml":        "[project]\nname = \"smoke\"\nversion = \"0\"\n\n[tool.pyright]\ninclude = [\"src/smoke\"]\n",
		"src/smoke/__init__.py": "def up(s: str) -> str:\n    return s.upper()\n\n\nn: int = \"one\"\n",
		"tests/test_smoke.py":   "count: int = \"two\"\n",
	}
	// smokeTSC is an npm project whose tsconfig.json takes in src only,
	// with a gitignored node_modules (the smoke adds a JSON file over the
	// size limit to it).
	smokeTSC = map[string]string{
		"package.json":          "{\"name\": \"smoke\", \"version\": \"0.0.0\", \"private\": true}\n",
		"tsconfig.json":         "{\"compilerOptions\": {\"strict\": true, \"noEmit\": true, \"types\": []}, \"include\": [\"src\"]}\n",
		".gitignore":            "node_modules/\n",
		"src/up.ts":             "export function up(s: string): string {\n\treturn s.toUpperCase();\n}\n",
		"src/main.ts":           "import { up } from \"./up\";\n\nconst n: number = up(\"one\");\nconsole.log(n);\n",
		"test/main.test.ts":     "const m: number = \"two\";\nconsole.log(m);\n",
		"node_modules/dep/x.ts": "const d: number = \"three\";\n",
	}
	smokeLint = map[string]string{
		"go.mod":     "module example.com/smoke\n\ngo 1.22\n",
		"lib/lib.go": "package lib\n\nimport \"strings\"\n\n// Up is s in upper case.\nfunc Up(s string) string { return strings.ToUpper(s) }\n",
		"use/use.go": "package use\n\nimport \"strings\"\n\n// Same compares.\nfunc Same(a, b string) bool {\n\treturn strings.ToLower(a) == strings.ToLower(b)\n}\n",
	}
)
