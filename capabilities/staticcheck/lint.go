package staticcheck

// This file defines [linter]: staticcheck's runner, its on-disk cache and
// the filtering the staticcheck command applies to the runner's results
// (unused merged across test variants, duplicates removed, compile errors
// split; check selection and ignore directives are in directives.go). It
// follows honnef.co/go/tools/lintcmd (lint.go, directives.go and
// printDiagnostics in cmd.go), whose versions of these are unexported.

import (
	"context"
	"crypto/sha256"
	"fmt"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/tools/go/analysis"
	"golang.org/x/tools/go/packages"
	"honnef.co/go/tools/analysis/lint"
	"honnef.co/go/tools/config"
	"honnef.co/go/tools/go/buildid"
	"honnef.co/go/tools/go/loader"
	"honnef.co/go/tools/lintcmd/cache"
	"honnef.co/go/tools/lintcmd/runner"
	"honnef.co/go/tools/simple"
	sa "honnef.co/go/tools/staticcheck"
	"honnef.co/go/tools/stylecheck"
	"honnef.co/go/tools/unused"
)

// modulePath is staticcheck's module, whose version the probe reports.
const modulePath = "honnef.co/go/tools"

// Categories that are not checks: compile and config errors (packages that
// could not be loaded) and staticcheck's own complaints (an ignore
// directive that matched nothing).
const (
	catCompile     = "compile"
	catConfig      = "config"
	catStaticcheck = "staticcheck"
)

// analyzers are the staticcheck command's checks, by lower-cased name.
var analyzers = func() map[string]*lint.Analyzer {
	m := map[string]*lint.Analyzer{}
	for _, list := range [][]*lint.Analyzer{simple.Analyzers, sa.Analyzers, stylecheck.Analyzers, {unused.Analyzer}} {
		for _, a := range list {
			m[strings.ToLower(a.Analyzer.Name)] = a
		}
	}
	return m
}()

// global guards staticcheck's process-wide state: config.DefaultConfig,
// the cache salt, the loader's build ID memo and gob registrations are
// package variables of honnef.co/go/tools, so one run at a time.
var global sync.Mutex

// setupOnce holds the cache. It is the package's, one per process and
// shared by every driver and set, not a set's like the rest of what
// drivers keep on disk: staticcheck's cache salt and default check set
// are package variables of honnef.co/go/tools (cache.SetSalt,
// config.DefaultConfig), so a process can have one. Each driver's Close
// trims it, as the staticcheck command does on exit.
var setupOnce = sync.OnceValues(setup)

// setup does once what the staticcheck command does at start: the default
// check set (every check but the non-default ones), the cache salt, and
// the cache, under the user cache directory in devbroker/staticcheck.
func setup() (cache.Cache, error) {
	defaults := []string{"all"}
	var off []string
	for _, a := range analyzers {
		if a.Doc.NonDefault {
			off = append(off, "-"+a.Analyzer.Name)
		}
	}
	sort.Strings(off)
	config.DefaultConfig.Checks = append(defaults, off...)

	salt, err := salt()
	if err != nil {
		return nil, fmt.Errorf("computing the cache salt: %w", err)
	}
	cache.SetSalt(salt)

	dir := os.Getenv("DEVBROKER_STATICCHECK_CACHE")
	if dir == "" {
		ucd, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("no cache directory: %w (set DEVBROKER_STATICCHECK_CACHE)", err)
		}
		dir = filepath.Join(ucd, "devbroker", "staticcheck")
	}
	if ents, err := os.ReadDir(dir); err != nil || len(ents) == 0 {
		coldCache.Store(true) // the first analysis fills it
	}
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return nil, err
	}
	return cache.Open(dir)
}

// trim removes the cache's entries that were not used for days, at most
// once a day (staticcheck's DiskCache.Trim, which its command runs on
// exit).
func trim(c cache.Cache) {
	if t, ok := c.(interface{ Trim() }); ok {
		t.Trim()
	}
}

// salt keys the cache to the analyzers' code: staticcheck's module
// version and checksum with the Go version when the build records them
// (stable across devbroker builds), else this executable's build ID, as
// the staticcheck command does.
func salt() ([]byte, error) {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path == modulePath && m.Replace == nil && m.Sum != "" {
				return []byte("devbroker " + m.Path + "@" + m.Version + " " + m.Sum + " " + runtime.Version()), nil
			}
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	if id, err := buildid.ReadFile(exe); err == nil {
		return []byte(id), nil
	}
	f, err := os.Open(exe)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

// finding is one diagnostic that survived filtering, with positions in the
// stage.
type finding struct {
	runner.Diagnostic
	ignored bool
}

func (f finding) key() findingKey {
	return findingKey{f.Position, f.End, strings.ToLower(f.Category), f.Message}
}

type findingKey struct {
	pos, end token.Position
	cat, msg string
}

// lintPackages runs staticcheck over patterns in dir, as the staticcheck
// command with its default flags (-tests, -checks inherit, -go module)
// would, and returns the findings it would print, deduplicated and sorted.
// m learns where the run stands.
func lintPackages(ctx context.Context, c cache.Cache, dir string, env []string, patterns []string, m *meter) ([]finding, error) {
	r, err := runner.New(config.Config{Checks: []string{"inherit"}}, c)
	if err != nil {
		return nil, err
	}
	m.runs(&r.Stats, len(patterns))
	defer m.set(finishing)
	if analyzeHook != nil {
		r.Stats.PrintAnalyzerMeasurement = func(*analysis.Analyzer, *loader.PackageSpec, time.Duration) { analyzeHook() }
	}
	loadHook()
	r.GoVersion = "module"
	cfg := &packages.Config{Context: ctx, Dir: dir, Env: env, Tests: true}
	as := make([]*analysis.Analyzer, 0, len(analyzers))
	names := make([]string, 0, len(analyzers))
	for name, a := range analyzers {
		as = append(as, a.Analyzer)
		names = append(names, name)
	}
	results, err := r.Run(cfg, as, patterns)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}

	var out []finding
	used := map[unusedKey]bool{}
	type unusedPair struct {
		key unusedKey
		obj unused.Object
	}
	var unuseds []unusedPair
	for _, res := range results {
		if res.Failed {
			if res.Initial && allExcluded(res.Errors) {
				continue // the files asked about are not in the build
			}
			out = append(out, failed(res, dir)...)
			continue
		}
		if res.Skipped || !res.Initial {
			continue
		}
		allowed := allowedChecks(names, res.Config.Checks)
		data, err := res.Load()
		if err != nil {
			return nil, err
		}
		var diags []finding
		for _, d := range data.Diagnostics {
			if allowed[strings.ToLower(d.Category)] {
				diags = append(diags, finding{Diagnostic: d})
			}
		}
		out = append(out, applyDirectives(diags, data.Directives, allowed)...)

		for _, obj := range data.Unused.Used {
			used[newUnusedKey(res.Package.PkgPath, obj)] = true
		}
		if allowed["u1000"] {
			for _, obj := range data.Unused.Unused {
				k := newUnusedKey(res.Package.PkgPath, obj)
				unuseds = append(unuseds, unusedPair{k, obj})
				if _, ok := used[k]; !ok {
					used[k] = false
				}
			}
		}
	}
	for _, u := range unuseds {
		if used[u.key] {
			continue
		}
		out = append(out, finding{Diagnostic: runner.Diagnostic{
			Position: u.obj.DisplayPosition,
			Message:  fmt.Sprintf("%s %s is unused", u.obj.Kind, u.obj.Name),
			Category: "U1000",
		}})
	}
	return dedup(out), nil
}

// unusedKey identifies an object across a package's test variants.
type unusedKey struct {
	pkgPath string
	base    string
	line    int
	name    string
}

func newUnusedKey(pkgPath string, obj unused.Object) unusedKey {
	return unusedKey{pkgPath, filepath.Base(obj.Position.Filename), obj.Position.Line, obj.Name}
}

// dedup drops ignored findings and duplicates (a file belongs to a package
// and its test variant) and sorts by position, as the command prints.
func dedup(fs []finding) []finding {
	seen := map[findingKey]bool{}
	out := fs[:0]
	for _, f := range fs {
		if f.ignored || seen[f.key()] {
			continue
		}
		seen[f.key()] = true
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Position.Filename != b.Position.Filename {
			return a.Position.Filename < b.Position.Filename
		}
		if a.Position.Line != b.Position.Line {
			return a.Position.Line < b.Position.Line
		}
		if a.Position.Column != b.Position.Column {
			return a.Position.Column < b.Position.Column
		}
		if a.Message != b.Message {
			return a.Message < b.Message
		}
		return a.Category < b.Category
	})
	return out
}

// allExcluded reports whether errs say only that build constraints
// exclude every file of a package's directory: a directory asked about
// whose files (a //go:build ignore generator, say) are not built, which
// the staticcheck command reports as an error but which has nothing to
// lint.
func allExcluded(errs []error) bool {
	for _, e := range errs {
		if !strings.Contains(e.Error(), "build constraints exclude all Go files in ") {
			return false
		}
	}
	return len(errs) > 0
}

// failed turns a package that could not be loaded into compile and config
// errors.
func failed(res runner.Result, dir string) []finding {
	var out []finding
	for _, e := range res.Errors {
		pe, ok := e.(packages.Error)
		if !ok {
			out = append(out, finding{Diagnostic: runner.Diagnostic{Message: e.Error(), Category: catCompile}})
			continue
		}
		msg := strings.TrimPrefix(pe.Msg, "\n")
		cat := catCompile
		if pe.Kind == packages.ParseError {
			cat = catConfig
		}
		if pe.Pos == "" && strings.HasPrefix(msg, "# ") {
			// The go command's compile output: "# pkg" and then one
			// "file:line:col: message" line per error.
			if split := splitCompileOutput(msg, dir, cat); len(split) > 0 {
				out = append(out, split...)
				continue
			}
		}
		var pos token.Position
		if pe.Pos == "" {
			if p, n, ok := parsePos(msg); ok && n+2 <= len(msg) {
				if p.Filename != "" && !filepath.IsAbs(p.Filename) {
					p.Filename = filepath.Join(dir, p.Filename)
				}
				pos, msg = p, msg[n+2:]
			}
		} else if p, _, ok := parsePos(pe.Pos); ok {
			pos = p
		}
		out = append(out, finding{Diagnostic: runner.Diagnostic{Position: pos, Message: msg, Category: cat}})
	}
	return out
}

// splitCompileOutput splits the go command's "# pkg\nfile:line:col: msg..."
// into one finding per positioned line; nil when no line has a position.
func splitCompileOutput(msg, dir, cat string) []finding {
	var out []finding
	for _, line := range strings.Split(msg, "\n")[1:] {
		p, n, ok := parsePos(line)
		if !ok || p.Filename == "" || n+2 > len(line) {
			continue
		}
		if !filepath.IsAbs(p.Filename) {
			p.Filename = filepath.Join(dir, p.Filename)
		}
		out = append(out, finding{Diagnostic: runner.Diagnostic{Position: p, Message: line[n+2:], Category: cat}})
	}
	return out
}

// posRe is the staticcheck command's position syntax: the file name is
// optional because of //line directives of the form "//line :1".
var posRe = regexp.MustCompile(`^(?:(.+?):)?(\d+)(?::(\d+)?)?`)

// parsePos parses "file:line:col" at the start of s and returns how many
// bytes it took.
func parsePos(s string) (token.Position, int, bool) {
	if s == "-" || s == "" {
		return token.Position{}, 0, false
	}
	parts := posRe.FindStringSubmatch(s)
	if parts == nil {
		return token.Position{}, 0, false
	}
	line, _ := strconv.Atoi(parts[2])
	col, _ := strconv.Atoi(parts[3])
	return token.Position{Filename: parts[1], Line: line, Column: col}, len(parts[0]), true
}
