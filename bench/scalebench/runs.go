package main

// This file defines the two comparisons: lint of one file after an
// exported-API edit, and format --write of the whole module.

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// lintCase is one lint comparison: devbroker's arguments (and the
// project configuration it runs with, if any) against the tool's command,
// and which of devbroker's findings the tool's answer must equal.
type lintCase struct {
	name, config string
	ours, theirs []string
	sources      func(code string) bool // devbroker's findings compared, by check
}

// lintCases are the default lint against staticcheck, and its go vet part
// alone (a project file that lists only go-vet) against go vet.
func lintCases(pkg string) []lintCase {
	return []lintCase{
		{name: "lint of one file after an exported-API edit", ours: []string{"lint", "--quiet", file}, theirs: []string{"staticcheck", pkg},
			sources: func(code string) bool { return code != "go-vet" }},
		{name: "its go vet part alone", config: "[languages.go]\nlint = [\"go-vet\"]\n", ours: []string{"lint", "--quiet", "--trust", file}, theirs: []string{"go", "vet", pkg},
			sources: func(string) bool { return true }},
	}
}

// lintBench edits the file before every run, adding an exported function
// (a new name each time, so no cache holds the answer, and every package
// that imports the file's is out of date) with two findings: S1003 and
// SA5009 for staticcheck, printf for go vet. devbroker's answer must hold
// the tool's findings (and, for the default lint, go vet's finding).
func lintBench(bins map[string]string, src, dir string, n int, c lintCase) (*pair, error) {
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		return nil, err
	}
	if c.config != "" {
		if err := os.WriteFile(filepath.Join(dir, ".devbroker.toml"), []byte(c.config), 0o644); err != nil {
			return nil, err
		}
	}
	abs := filepath.Join(dir, filepath.FromSlash(file))
	orig, err := os.ReadFile(abs)
	if err != nil {
		return nil, err
	}
	p := &pair{
		name: c.name, ours: "devbroker " + strings.Join(c.ours, " "), theirs: strings.Join(c.theirs, " "),
		note: "Both see the same kind of edit (a new exported function with findings) before each run; the answer is the set of findings (path, line, column, check).",
	}
	if c.config != "" {
		p.note += " The root's .devbroker.toml sets `lint = [\"go-vet\"]` for Go."
	}
	for i := range n + 1 {
		var ours, theirs []string
		for _, us := range order(i) {
			who := "S" // the same length for both, so the findings' columns are the same
			if us {
				who = "D"
			}
			fn := fmt.Sprintf("\nfunc DevbrokerBench%d%s(s string) bool { _ = fmt.Sprintf(\"%%d\", s); return strings.Index(s, \"a\") != -1 }\n", i, who)
			if err := os.WriteFile(abs, append(slices.Clip(orig), fn...), 0o644); err != nil {
				return nil, err
			}
			name, args := bins[c.theirs[0]], c.theirs[1:]
			if name == "" {
				name = c.theirs[0]
			}
			if us {
				name, args = bins["devbroker"], c.ours
			}
			cmd := command(dir, name, args...)
			cmd.Stderr = nil
			d, out, err := timed(cmd)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				continue // warms the caches: not counted
			}
			if us {
				p.us, ours = append(p.us, d), findings(out, c.sources)
			} else {
				p.them, theirs = append(p.them, d), findings(out, nil)
			}
		}
		if i > 0 && len(ours) > 0 && slices.Equal(ours, theirs) {
			p.agree++
		} else if i > 0 {
			fmt.Fprintf(os.Stderr, "scalebench: %s, run %d: devbroker found %q, %s %q\n", c.name, i, ours, c.theirs[0], theirs)
		}
	}
	return p, os.WriteFile(abs, orig, 0o644)
}

// order is who runs first in iteration i: devbroker (true) or the tool.
func order(i int) []bool {
	if i%2 == 0 {
		return []bool{true, false}
	}
	return []bool{false, true}
}

// finding matches a finding of any of the commands: path:line:col, the
// message, and, for staticcheck and devbroker, the check in parentheses
// (devbroker's names the driver first: "staticcheck S1003", or is the
// driver: "go-vet"). go vet's findings have no parentheses.
var finding = regexp.MustCompile(`(?m)^(\S+\.go:\d+:\d+): (.*?)(?: \((?:staticcheck )?([\w-]+)\))?$`)

// findings are the findings of a command's output whose check keep
// accepts (all when keep is nil), sorted; a crashed or unchecked driver
// adds "(incomplete)".
func findings(out string, keep func(code string) bool) []string {
	var keys []string
	for _, m := range finding.FindAllStringSubmatch(out, -1) {
		code := m[3]
		if code == "" {
			code = "go-vet" // go vet's own line
		}
		if keep == nil || keep(code) {
			keys = append(keys, m[1]+" "+code)
		}
	}
	if strings.Contains(out, "crashed") || strings.Contains(out, "unchecked: ") {
		keys = append(keys, "(incomplete)")
	}
	slices.Sort(keys)
	return keys
}

// formatBench formats a fresh copy of the module with each command before
// every run and compares the trees they leave.
func formatBench(bins map[string]string, src, dir string, n int) (*pair, error) {
	pristine := filepath.Join(dir, "pristine")
	if err := os.CopyFS(pristine, os.DirFS(src)); err != nil {
		return nil, err
	}
	// gofumpt v0.10.0 turns `value == (lattice{}.Ident())` into code
	// that does not parse (its command writes it; devbroker refuses to):
	// the measured copy spells it ((lattice{}).Ident()) so that both agree.
	nilness := filepath.Join(pristine, "analysis/facts/nilness/nilness.go")
	b, err := os.ReadFile(nilness)
	if err != nil {
		return nil, err
	}
	b = bytes.ReplaceAll(b, []byte("(lattice{}.Ident()"), []byte("((lattice{}).Ident()"))
	if err := os.WriteFile(nilness, b, 0o644); err != nil {
		return nil, err
	}
	p := &pair{
		name:   "format --write of the whole module",
		ours:   "devbroker format --write --quiet",
		theirs: "gofumpt -l -w .",
		note:   "Each run starts from a fresh copy of the module (62 Go files to rewrite); the answer is the tree each leaves. devbroker also routes the module's Markdown, YAML and shell files (their formatters are untrusted or missing here, which it reports).",
	}
	for i := range n + 1 {
		trees := map[bool]string{}
		for _, us := range order(i) {
			tree := filepath.Join(dir, fmt.Sprintf("run-%d-%v", i, us))
			if err := os.CopyFS(tree, os.DirFS(pristine)); err != nil {
				return nil, err
			}
			trees[us] = tree
			cmd := command(tree, bins["gofumpt"], "-l", "-w", ".")
			if us {
				cmd = command(tree, bins["devbroker"], "format", "--write", "--quiet")
			}
			cmd.Stderr = nil
			d, _, err := timed(cmd)
			if err != nil {
				return nil, err
			}
			if i == 0 {
				continue
			}
			if us {
				p.us = append(p.us, d)
			} else {
				p.them = append(p.them, d)
			}
		}
		if i > 0 {
			if diff := differ(trees[true], trees[false]); diff == "" {
				p.agree++
			} else {
				fmt.Fprintf(os.Stderr, "scalebench: format run %d: the trees differ: %s\n", i, diff)
			}
		}
		for _, t := range trees {
			os.RemoveAll(t)
		}
	}
	return p, nil
}

// differ names a file whose content differs between the trees a and b,
// or returns "".
func differ(a, b string) string {
	files := func(root string) map[string]string {
		m := map[string]string{}
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				data, _ := os.ReadFile(p)
				rel, _ := filepath.Rel(root, p)
				m[rel] = string(data)
			}
			return nil
		})
		return m
	}
	fa, fb := files(a), files(b)
	for p, s := range fa {
		if fb[p] != s {
			return p
		}
	}
	if len(fa) != len(fb) {
		return fmt.Sprintf("%d files against %d", len(fa), len(fb))
	}
	return ""
}
