package projscope

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// mapRead reads files from a map, as the root would hold them.
func mapRead(files map[string]string) ReadFunc {
	return func(rel string) ([]byte, error) {
		c, ok := files[rel]
		if !ok {
			return nil, &fs.PathError{Op: "open", Path: rel, Err: fs.ErrNotExist}
		}
		return []byte(c), nil
	}
}

// writeTree writes files under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		abs := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestStandardJSON(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"a": 1}`, `{"a": 1}`},
		{"{\n  // c\n  \"a\": [1, 2,],\n}", "{\n      \n  \"a\": [1, 2 ] \n}"},
		{`{"a": "// not a comment", /* c */ "b": "x,]"}`, `{"a": "// not a comment",         "b": "x,]"}`},
		{"\ufeff{\"a\": [\"x\", /* c */ ]}", "   {\"a\": [\"x\"          ]}"},
		{`{"a": "\"", "b": 1}`, `{"a": "\"", "b": 1}`},
	} {
		got, err := StandardJSON([]byte(c.in))
		if err != nil || string(got) != c.want {
			t.Errorf("StandardJSON(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
		if !json.Valid(got) {
			t.Errorf("StandardJSON(%q) = %q is not JSON", c.in, got)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"{\n\"a\": 1 /* open", "line 2: a /* comment is not closed"},
		{"{\n\n\"a: 1}", "line 3: a string is not closed"},
	} {
		if _, err := StandardJSON([]byte(c.in)); err == nil || err.Error() != c.want {
			t.Errorf("StandardJSON(%q): error %v, want %q", c.in, err, c.want)
		}
	}
}

// tsTree is a project's files, of every kind an include or exclude may
// take in or leave out.
var tsTree = []string{
	"top.ts", "src/a.ts", "src/sub/b.ts", "src/c.spec.ts", "src/.hidden/h.ts", ".storybook/s.ts",
	"node_modules/p/i.ts", "dist/o.ts", "build/o2.ts", "src/j.js", "src/k.min.js", "src/m.jsx",
	"lib/l.mts", "lib/deep/n.cts", "scripts/x.ts", "src/node_modules/q/z.ts", "test/t.test.ts",
	"types/d.d.ts", "src/x.tsx", "op.ts", "zop.ts", "src/sub/node_modules/r/w.ts",
}

// TypeScript's scope is what tsc --listFilesOnly lists for the same
// configuration: files, include (implicit directory globs, wildcards that
// never enter dot directories nor node_modules, the .min.js rule),
// exclude and its defaults (node_modules, outDir), allowJs, extends, and
// jsconfig.json's allowJs.
func TestTSConfigLikeTsc(t *testing.T) {
	tsc, err := exec.LookPath("tsc")
	if err != nil {
		t.Fatal("tsc is not installed (npm install -g typescript; make tools installs it): this test compares with it")
	}
	cases := []struct {
		name  string
		files map[string]string
	}{
		{"no include, outDir", map[string]string{"tsconfig.json": `{"compilerOptions": {"outDir": "dist", "allowJs": true}}`}},
		{"include a directory, exclude a glob", map[string]string{"tsconfig.json": "{\n  // the sources\n  \"compilerOptions\": {\"allowJs\": true,},\n  \"include\": [\"src\"],\n  \"exclude\": [\"**/*.spec.ts\"],\n}"}},
		{"files and include", map[string]string{"tsconfig.json": `{"files": ["top.ts"], "include": ["src/**/*.ts"]}`}},
		{"extends", map[string]string{
			"tsconfig.json":    `{"extends": "./config/base", "compilerOptions": {"allowJs": true}}`,
			"config/base.json": `{"include": ["../src/*", "../lib"], "exclude": ["../src/c*"]}`}},
		{"leading wildcards", map[string]string{"tsconfig.json": `{"include": ["src/**/*", "?op.ts", "*.ts", "types/*.d.ts"], "compilerOptions": {"allowJs": true}}`}},
		{"files only", map[string]string{"tsconfig.json": `{"files": ["top.ts", "scripts/x.ts"]}`}},
		{"exclude directories", map[string]string{"tsconfig.json": `{"include": ["**/*"], "exclude": ["src/sub", "test", "dist"]}`}},
		{"jsconfig", map[string]string{"jsconfig.json": `{"include": ["src"]}`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{}
			for _, p := range tsTree {
				files[p] = "export const v = 1;\n"
			}
			for p, content := range c.files {
				files[p] = content
			}
			writeTree(t, dir, files)
			project := "tsconfig.json"
			if _, ok := c.files["jsconfig.json"]; ok {
				project = "jsconfig.json"
			}
			cmd := exec.Command(tsc, "-p", project, "--listFilesOnly", "--noEmit")
			cmd.Dir = dir
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("tsc: %v\n%s", err, out)
			}
			var want []string
			for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
				if rel, ok := strings.CutPrefix(line, dir+"/"); ok {
					want = append(want, rel)
				}
			}
			slices.Sort(want)
			scope, warnings := TSConfig(mapRead(files), "")
			if scope == nil || len(warnings) > 0 {
				t.Fatalf("TSConfig: %v, warnings %v", scope, warnings)
			}
			var got []string
			for _, p := range tsTree {
				if _, out := scope.Leaves(p); !out {
					got = append(got, p)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("the scope takes in\n%v\ntsc lists\n%v", got, want)
			}
		})
	}
}

// References: a solution file ("files": []) holds the files of the
// projects it references, each with its own include; the reason a file
// is out names them.
func TestTSConfigReferences(t *testing.T) {
	files := map[string]string{
		"tsconfig.json":       `{"files": [], "references": [{"path": "./tsconfig.app.json"}, {"path": "./tools"}]}`,
		"tsconfig.app.json":   `{"include": ["src"]}`,
		"tools/tsconfig.json": `{"include": ["*.ts"]}`,
	}
	scope, warnings := TSConfig(mapRead(files), "")
	if scope == nil || len(warnings) > 0 {
		t.Fatalf("TSConfig: %v, warnings %v", scope, warnings)
	}
	for p, in := range map[string]bool{"src/a.ts": true, "tools/gen.ts": true, "tools/x/y.ts": false, "vite.config.ts": false} {
		why, out := scope.Leaves(p)
		if out == in {
			t.Errorf("%s: out %v (%s), want in %v", p, out, why, in)
		}
		if out && (!strings.Contains(why, `tsconfig.app.json include = ["src"]`) || !strings.Contains(why, `tools/tsconfig.json include = ["*.ts"]`)) {
			t.Errorf("%s: the reason does not name the projects: %s", p, why)
		}
	}
}

// pyTree is a project's Python files, each with a type error.
var pyTree = []string{
	"src/requests/a.py", "src/requests/sub/b.py", "src/legacy/l.py", "src/gen/g.py", "tests/t.py",
	"tests/fixtures/f.py", "tools/x.py", "tools/deep/y.py", ".venv2/v.py", "node_modules/n.py",
	"a/pkg/p.py", "skip_me.py", "src/skip_z.py", "__pycache__/c.py", "top.py",
}

// pyright's scope is the files pyright itself reports on with the same
// configuration: include, exclude and its defaults, ignore, from
// pyproject.toml or pyrightconfig.json (which wins).
func TestPyrightLikePyright(t *testing.T) {
	pyright, err := exec.LookPath("pyright")
	if err != nil {
		t.Fatal("pyright is not installed (npm install -g pyright; make tools installs it): this test compares with it")
	}
	cases := []struct {
		name  string
		files map[string]string
	}{
		{"pyproject include", map[string]string{"pyproject.toml": "[project]\nname = \"r\"\n\n[tool.pyright]\ninclude = [\"src/requests\"]\n"}},
		{"pyrightconfig", map[string]string{
			"pyrightconfig.json": "{\n  // comments are allowed\n  \"include\": [\"src\", \"tools/*.py\"],\n  \"exclude\": [\"src/legacy\"],\n  \"ignore\": [\"src/gen\"],\n}\n",
			"pyproject.toml":     "[tool.pyright]\ninclude = [\"tests\"]\n"}},
		{"exclude only", map[string]string{"pyproject.toml": "[tool.pyright]\nexclude = [\"tests/fixtures\", \"**/skip_*\"]\n"}},
		{"double star include", map[string]string{"pyproject.toml": "[tool.pyright]\ninclude = [\"**/pkg\", \"top.py\"]\n"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			files := map[string]string{}
			for _, p := range pyTree {
				files[p] = "x: int = \"not an int\"\n"
			}
			for p, content := range c.files {
				files[p] = content
			}
			writeTree(t, dir, files)
			cmd := exec.Command(pyright, "--outputjson")
			cmd.Dir = dir
			out, _ := cmd.Output() // exit 1: errors found
			var report struct {
				GeneralDiagnostics []struct {
					File string `json:"file"`
				} `json:"generalDiagnostics"`
			}
			if err := json.Unmarshal(out, &report); err != nil {
				t.Fatalf("pyright's report: %v\n%s", err, out)
			}
			var want []string
			for _, d := range report.GeneralDiagnostics {
				if rel, ok := strings.CutPrefix(d.File, dir+"/"); ok && !slices.Contains(want, rel) {
					want = append(want, rel)
				}
			}
			slices.Sort(want)
			scope, warnings := Pyright(mapRead(files), "")
			if scope == nil || len(warnings) > 0 {
				t.Fatalf("Pyright: %v, warnings %v", scope, warnings)
			}
			var got []string
			for _, p := range pyTree {
				if _, out := scope.Leaves(p); !out {
					got = append(got, p)
				}
			}
			slices.Sort(got)
			if !slices.Equal(got, want) {
				t.Errorf("the scope takes in\n%v\npyright reports on\n%v", got, want)
			}
		})
	}
}

// A project file that cannot be parsed, or a setting that cannot be
// used, is a warning naming the file and what is not used; the scope is
// then wider, never narrower.
func TestBadProjectFilesWarn(t *testing.T) {
	for _, c := range []struct {
		name     string
		files    map[string]string
		ts       bool
		scoped   bool
		warnings []string
	}{
		{"tsconfig not JSON", map[string]string{"tsconfig.json": "{\n  \"include\": [\"src\"\n"}, true, false,
			[]string{"tsconfig.json: line 2: unexpected end of JSON input", "not used: every TypeScript and JavaScript file a walk meets is checked"}},
		{"tsconfig include not a list of strings", map[string]string{"tsconfig.json": `{"include": "src"}`}, true, false,
			[]string{"tsconfig.json: include must be a list of strings"}},
		{"tsconfig comment left open", map[string]string{"tsconfig.json": "{\n/* x\n"}, true, false,
			[]string{"tsconfig.json: line 2: a /* comment is not closed"}},
		{"tsconfig include ending in **", map[string]string{"tsconfig.json": `{"include": ["src/**", "lib"]}`}, true, true,
			[]string{`tsconfig.json: include "src/**" ends in ** or is not under the root`}},
		{"tsconfig extends a missing file", map[string]string{"tsconfig.json": `{"extends": "./nope.json", "include": ["src"]}`}, true, true,
			[]string{"tsconfig.json extends nope.json, which cannot be used"}},
		{"tsconfig extends itself", map[string]string{"tsconfig.json": `{"extends": "./tsconfig.json"}`}, true, true,
			[]string{"tsconfig.json extends itself"}},
		{"tsconfig references a missing project", map[string]string{"tsconfig.json": `{"files": [], "references": [{"path": "./web"}]}`}, true, true,
			[]string{"tsconfig.json references web/tsconfig.json, which cannot be used"}},
		{"pyproject not TOML", map[string]string{"pyproject.toml": "[tool.pyright]\ninclude = [\"src\"\n"}, false, false,
			[]string{"pyproject.toml: line", "pyright's include and exclude in it are not used"}},
		{"pyproject include not a list", map[string]string{"pyproject.toml": "[tool.pyright]\ninclude = \"src\"\n"}, false, false,
			[]string{"pyproject.toml: line 2, column 11: [tool.pyright] include must be a list of strings", "not used"}},
		{"pyproject absolute include", map[string]string{"pyproject.toml": "[tool.pyright]\ninclude = [\"/abs/src\"]\n"}, false, false,
			[]string{`include entry "/abs/src" is absolute or leads out of the root`, "pyright's scope is not used"}},
		{"pyrightconfig not JSON", map[string]string{"pyrightconfig.json": "{\"include\": [src]}"}, false, false,
			[]string{"pyrightconfig.json: line 1"}},
		{"pyproject without pyright, not TOML", map[string]string{"pyproject.toml": "[project\n"}, false, false, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			var scope *Scope
			var warnings []string
			if c.ts {
				scope, warnings = TSConfig(mapRead(c.files), "")
			} else {
				scope, warnings = Pyright(mapRead(c.files), "")
			}
			if (scope != nil) != c.scoped {
				t.Errorf("scope %v, want one: %v", scope, c.scoped)
			}
			joined := strings.Join(warnings, "\n")
			for _, w := range c.warnings {
				if !strings.Contains(joined, w) {
					t.Errorf("warnings %q do not say %q", joined, w)
				}
			}
			if len(c.warnings) == 0 && len(warnings) > 0 {
				t.Errorf("warnings %q, want none", warnings)
			}
		})
	}
}

// No project file: no scope, no warning.
func TestNoProjectFile(t *testing.T) {
	read := mapRead(map[string]string{"pyproject.toml": "[project]\nname = \"x\"\n"})
	if s, w := Pyright(read, ""); s != nil || w != nil {
		t.Errorf("Pyright = %v, %v; want nil", s, w)
	}
	if s, w := TSConfig(read, ""); s != nil || w != nil {
		t.Errorf("TSConfig = %v, %v; want nil", s, w)
	}
	failing := func(string) ([]byte, error) { return nil, errors.New("permission denied") }
	if s, w := Pyright(failing, ""); s != nil || len(w) != 1 || !strings.Contains(w[0], "cannot be read") {
		t.Errorf("Pyright on an unreadable file = %v, %v", s, w)
	}
}

// A project below the root reads its own files, its entries relative to
// its directory, and names its files in what it says; the paths it tests
// are relative to the root.
func TestProjectInADirectory(t *testing.T) {
	read := mapRead(map[string]string{
		"tools/pyproject.toml": "[tool.pyright]\ninclude = [\"gen\"]\nexclude = [\"gen/old\"]\n",
		"web/tsconfig.json":    "{\"include\": [\"src\"], \"exclude\": [\"src/gen\"]}\n",
		"pyproject.toml":       "[tool.pyright]\ninclude = [\"src\"]\n",
	})
	py, w := Pyright(read, "tools")
	if py == nil || len(w) != 0 {
		t.Fatalf("Pyright(tools) = %v, %v", py, w)
	}
	ts, w := TSConfig(read, "web")
	if ts == nil || len(w) != 0 {
		t.Fatalf("TSConfig(web) = %v, %v", ts, w)
	}
	for _, c := range []struct {
		scope *Scope
		path  string
		want  string
	}{
		{py, "tools/gen/a.py", ""},
		{py, "tools/misc/b.py", `tools/pyproject.toml [tool.pyright] include = ["gen"]`},
		{py, "tools/gen/old/c.py", `tools/pyproject.toml [tool.pyright] exclude "gen/old"`},
		{py, "tools/gen/.cache/d.py", `pyright's default exclude "**/.*"`},
		{ts, "web/src/a.ts", ""},
		{ts, "web/scripts/b.ts", `web/tsconfig.json include = ["src"]`},
		{ts, "web/src/gen/c.ts", `web/tsconfig.json exclude "src/gen"`},
	} {
		if why, _ := c.scope.Leaves(c.path); why != c.want {
			t.Errorf("%s: %q, want %q", c.path, why, c.want)
		}
	}
}
