package pytest

// This file chooses the test files a change affects: the changed or named
// test files, and every test file that imports a changed module, directly
// or through other modules of the project (the import statements of the
// project's Python files, read without running anything).

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/engine/text"
)

// Bounds of the walk that reads the project's imports.
const (
	maxFiles     = 20000
	maxFileBytes = 1 << 20
)

// skipDirs are directories the walk passes over: version control, caches,
// environments and build output (an environment is also any directory
// holding pyvenv.cfg).
var skipDirs = map[string]bool{
	".git": true, ".hg": true, ".svn": true, "node_modules": true, "__pycache__": true,
	".venv": true, "venv": true, ".tox": true, ".nox": true, ".mypy_cache": true,
	".pytest_cache": true, ".ruff_cache": true, "build": true, "dist": true, "site-packages": true,
}

// isTest reports whether a workspace path names a pytest test file.
func isTest(p string) bool {
	b := path.Base(p)
	return strings.HasSuffix(b, ".py") && (strings.HasPrefix(b, "test_") || strings.HasSuffix(b, "_test.py"))
}

// pyFiles lists the project's Python files (workspace paths, sorted): those
// on disk under root, with the workspace's own (all) added and its
// deleted ones left out. It reports whether the walk stopped at its bound.
func pyFiles(root string, all map[string]*text.Doc, deleted []string) ([]string, bool) {
	seen := map[string]bool{}
	cut := false
	_ = filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if e.IsDir() {
			if p != root && (skipDirs[e.Name()] || fileExists(filepath.Join(p, "pyvenv.cfg"))) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(e.Name(), ".py") || !e.Type().IsRegular() {
			return nil
		}
		if len(seen) >= maxFiles {
			cut = true
			return filepath.SkipAll
		}
		rel, err := filepath.Rel(root, p)
		if err == nil {
			seen[filepath.ToSlash(rel)] = true
		}
		return nil
	})
	for p := range all {
		if strings.HasSuffix(p, ".py") {
			seen[p] = true
		}
	}
	for _, p := range deleted {
		delete(seen, p)
	}
	out := make([]string, 0, len(seen))
	for p := range seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out, cut
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

var (
	fromImport  = regexp.MustCompile(`^\s*from\s+(\.*)([\w.]*)\s+import\s+\(?\s*([\w.,\s*]+)`)
	plainImport = regexp.MustCompile(`^\s*import\s+([\w.,\s]+)`)
)

// imports lists the modules a Python file imports, as dotted names, with
// relative imports resolved against the file's own package (dir, a
// workspace directory). "from a import b" names a and a.b (b may be a
// module).
func imports(src []byte, dir string) []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64<<10), maxFileBytes)
	for sc.Scan() {
		line := sc.Text()
		if m := fromImport.FindStringSubmatch(line); m != nil {
			base := m[2]
			if dots := len(m[1]); dots > 0 {
				pkg := dir
				for range dots - 1 {
					pkg = path.Dir(pkg)
				}
				prefix := strings.ReplaceAll(strings.Trim(pkg, "./"), "/", ".")
				base = strings.Trim(prefix+"."+base, ".")
			}
			if base != "" {
				out = append(out, base)
			}
			for _, name := range strings.Split(m[3], ",") {
				name, _, _ = strings.Cut(strings.TrimSpace(name), " ")
				if name != "" && name != "*" {
					out = append(out, strings.Trim(base+"."+name, "."))
				}
			}
			continue
		}
		if m := plainImport.FindStringSubmatch(line); m != nil {
			for _, name := range strings.Split(m[1], ",") {
				name, _, _ = strings.Cut(strings.TrimSpace(name), " ")
				if name != "" {
					out = append(out, name)
				}
			}
		}
	}
	return out
}

// dotted is a Python file's module name from the root: a/b/c.py is a.b.c,
// a/b/__init__.py is a.b.
func dotted(p string) string {
	p = strings.TrimSuffix(p, ".py")
	p = strings.TrimSuffix(p, "/__init__")
	return strings.ReplaceAll(p, "/", ".")
}

// names are the module names an import may use for a file: its dotted
// path from the root and every shorter suffix of it (src/pkg/mod.py is
// imported as pkg.mod from a src layout).
func names(p string) []string {
	d := dotted(p)
	out := []string{d}
	for i := strings.IndexByte(d, '.'); i >= 0; i = strings.IndexByte(d, '.') {
		d = d[i+1:]
		out = append(out, d)
	}
	return out
}

// selectTests returns the test files to run (sorted): the test files among
// seeds, and the test files that import a non-test file of seeds,
// directly or through other project files. read returns a file's
// content.
func selectTests(files, seeds []string, read func(string) []byte) []string {
	byName := map[string][]string{}
	for _, f := range files {
		for _, n := range names(f) {
			byName[n] = append(byName[n], f)
		}
	}
	// importers: file -> the files that import it.
	importers := map[string][]string{}
	for _, f := range files {
		for _, imp := range imports(read(f), path.Dir(f)) {
			for _, target := range byName[imp] {
				if target != f {
					importers[target] = append(importers[target], f)
				}
			}
		}
	}
	reached := map[string]bool{}
	var queue []string
	pick := map[string]bool{}
	for _, s := range seeds {
		if isTest(s) {
			pick[s] = true
			continue
		}
		if !reached[s] {
			reached[s] = true
			queue = append(queue, s)
		}
	}
	for len(queue) > 0 {
		f := queue[0]
		queue = queue[1:]
		for _, imp := range importers[f] {
			if isTest(imp) {
				pick[imp] = true
			}
			if !reached[imp] {
				reached[imp] = true
				queue = append(queue, imp)
			}
		}
	}
	out := make([]string, 0, len(pick))
	for p := range pick {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
