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
	out := flag.String("out", "bench/RESULTS.md", "the results file whose coldbench section is rewritten (\"\" for none)")
	flag.Parse()
	if err := run(*n, *smoke, *check, *lint, *out); err != nil {
		fmt.Fprintln(os.Stderr, "coldbench:", err)
		os.Exit(1)
	}
}

// bins are the binaries measured.
type bins struct{ devbroker, gopls, staticcheck, dir string }

func run(n int, smoke bool, checkMod, lintMod, out string) error {
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
		for kind, files := range map[string]map[string]string{"check": smokeCheck, "lint": smokeLint} {
			dir := filepath.Join(tmp, "smoke-"+kind)
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
			if mod == "" {
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
	body := fmt.Sprintf("## Cold start: first answers with empty caches (coldbench)\n\nWritten by `go run ./bench/coldbench` (see README.md). Run %s, %d rounds, %s; load average %s before, %s after (%s).\n\n",
		start.UTC().Format("2006-01-02 15:04 UTC"), n, host.Machine(), load, host.Load(), time.Since(start).Round(time.Second)) +
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
	r := &result{kind: kind, ours: "devbroker " + kind, theirs: map[string]string{"check": "gopls check FILES", "lint": "staticcheck ./... && go vet ./..."}[kind]}
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
		r.same = fmt.Sprintf("yes (%d findings)", len(ours))
	}
	return r, nil
}

// runDevbroker runs devbroker kind over dir (no paths: the whole root)
// and returns its Go findings. A Go driver whose status is not ok fails
// the run: that is the answer this benchmark is about.
func runDevbroker(b bins, env []string, kind, dir string) (time.Duration, []finding, error) {
	cmd := exec.Command(b.devbroker, kind, "--root", dir, "--format", "json", "--quiet")
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
	src := map[string]string{"check": "gopls", "lint": "staticcheck"}[kind]
	for _, d := range ans.Drivers {
		if (d.Driver == "gopls" || d.Driver == "staticcheck" || d.Driver == "go-vet") && d.Status != "ok" {
			return 0, nil, fmt.Errorf("devbroker %s: driver %s answered %s: %s", kind, d.Driver, d.Status, d.Message)
		}
	}
	var fs []finding
	for _, d := range ans.Diagnostics {
		if d.Source != src {
			continue
		}
		what := d.Code
		if kind == "check" {
			// gopls check prints warnings and errors only (its
			// -severity defaults to warning; the modernizers' info
			// findings, such as "interface{} can be replaced by any",
			// it never prints): devbroker's info findings have no
			// counterpart to compare with.
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
// file devbroker's walk checks, or staticcheck ./... then go vet ./...
func runTool(b bins, env []string, kind, dir string) (time.Duration, []finding, string, error) {
	var fs []finding
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
	smokeLint = map[string]string{
		"go.mod":     "module example.com/smoke\n\ngo 1.22\n",
		"lib/lib.go": "package lib\n\nimport \"strings\"\n\n// Up is s in upper case.\nfunc Up(s string) string { return strings.ToUpper(s) }\n",
		"use/use.go": "package use\n\nimport \"strings\"\n\n// Same compares.\nfunc Same(a, b string) bool {\n\treturn strings.ToLower(a) == strings.ToLower(b)\n}\n",
	}
)
