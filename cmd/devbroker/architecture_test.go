package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// maxArchitecture is ARCHITECTURE.md's budget: a map a newcomer reads in
// one sitting. Behaviour in detail belongs in docs/.
const maxArchitecture = 25 << 10

// TestArchitectureMap keeps ARCHITECTURE.md a map that cannot rot: within
// its budget, naming every package directory of the module (in
// backquotes) and every file that reads under the root other than through
// engine/rootfs (rootReaders), and citing only tests that exist.
func TestArchitectureMap(t *testing.T) {
	b, err := os.ReadFile("../../ARCHITECTURE.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	if len(b) > maxArchitecture {
		t.Errorf("ARCHITECTURE.md is %d bytes, over its %d: move behaviour in detail to docs/semantics.md, docs/verdicts.md or docs/reliability.md", len(b), maxArchitecture)
	}
	cmd := exec.Command("go", "list", "-f", "{{.Dir}}", "./...")
	cmd.Dir = "../.."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	top, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, dir := range strings.Fields(string(out)) {
		rel, err := filepath.Rel(top, dir)
		if err != nil || rel == "." {
			continue
		}
		n++
		if rel = filepath.ToSlash(rel); !strings.Contains(doc, "`"+rel+"`") {
			t.Errorf("ARCHITECTURE.md does not name `%s`: give the package its entry in the code map (what it is, its entry points, what it must not import)", rel)
		}
	}
	if n < 40 {
		t.Fatalf("go list listed %d packages: the check proves nothing", n)
	}
	for _, f := range rootReaders {
		if !strings.Contains(doc, "`"+f+"`") {
			t.Errorf("ARCHITECTURE.md does not name `%s`, which reads under the root other than through engine/rootfs (\"One door to the disk\")", f)
		}
	}
	// Every test the map cites exists.
	defined := map[string]bool{}
	decl := regexp.MustCompile(`(?m)^func ((?:Test|Fuzz|Benchmark)[A-Z]\w*)\(`)
	err = filepath.WalkDir(top, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") && p != top {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range decl.FindAllStringSubmatch(string(src), -1) {
			defined[m[1]] = true
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var cited []string
	for _, m := range regexp.MustCompile(`\b(?:Test|Fuzz|Benchmark)[A-Z]\w*`).FindAllString(doc, -1) {
		if !slices.Contains(cited, m) {
			cited = append(cited, m)
		}
	}
	for _, name := range cited {
		if !defined[name] {
			t.Errorf("ARCHITECTURE.md cites %s, which no test file defines", name)
		}
	}
	if len(cited) < 30 || !defined["TestArchitectureMap"] {
		t.Fatalf("found %d cited tests, and TestArchitectureMap defined: %v: the check proves nothing", len(cited), defined["TestArchitectureMap"])
	}
}
