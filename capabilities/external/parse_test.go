package external

import (
	"context"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// TestDefaultParsers runs each default driver's parser on output the tool
// really printed, and maps it to a workspace file.
func TestDefaultParsers(t *testing.T) {
	cfg := defaults(t)
	root := "/work/r"
	for _, tc := range []struct {
		driver, file, content, out string
		perFile                    bool
		want                       engine.Diagnostic
	}{
		{
			driver: "go-vet", file: "main.go",
			content: "package main\n\nfunc main() {\n\tfmt.Printf(\"é%d\\n\", \"x\")\n}\n",
			out:     "# m\n# [m]\n./main.go:4:16: fmt.Printf format %d has arg \"x\" of wrong type string\n",
			want:    engine.Diagnostic{Line: 4, Column: 15, EndLine: 4, EndColumn: 15, Severity: engine.SeverityWarning},
		},
		{
			driver: "go-vet", file: "main.go", content: "package main\n\nfunc main() {\n\tx := 1\n}\n",
			out:  "# m\n# [m]\nvet: ./main.go:4:2: declared and not used: x\n",
			want: engine.Diagnostic{Line: 4, Column: 2, EndLine: 4, EndColumn: 2, Severity: engine.SeverityError},
		},
		{
			driver: "go-build", file: "a/b.go", content: "package a\nvar x int = \"s\"\n",
			out:  "# m/a\na/b.go:2:13: cannot use \"s\" (untyped string constant) as int value in variable declaration\n",
			want: engine.Diagnostic{Line: 2, Column: 13, EndLine: 2, EndColumn: 13, Severity: engine.SeverityError},
		},
		{
			driver: "prettier", file: "x/a.js", content: "const a = {b:1\n", perFile: true,
			out:  "[error] x/a.js: SyntaxError: Unexpected token, expected \",\" (2:1)\n[error]   1 | const a = {b:1\n[error] > 2 |\n[error]     | ^\n",
			want: engine.Diagnostic{Line: 2, Column: 1, EndLine: 2, EndColumn: 1, Severity: engine.SeverityError},
		},
		{
			driver: "shfmt", file: "a.sh", content: "if true;then echo hi\n", perFile: true,
			out:  "a.sh:1:1: if statement must end with \"fi\"\n",
			want: engine.Diagnostic{Line: 1, Column: 1, EndLine: 1, EndColumn: 1, Severity: engine.SeverityError},
		},
		{
			driver: "rustfmt", file: "src/main.rs", content: "fn main() { let x = ; }\n", perFile: true,
			out:  "error: expected expression, found `;`\n --> <stdin>:1:21\n  |\n1 | fn main() { let x = ; }\n  |                     ^ expected expression\n\n",
			want: engine.Diagnostic{Line: 1, Column: 21, EndLine: 1, EndColumn: 21, Severity: engine.SeverityError},
		},
		{
			driver: "yamllint", file: "a.yaml", content: "a: 1\n", perFile: true,
			out:  "stdin:1:1: [warning] missing document start \"---\" (document-start)\n",
			want: engine.Diagnostic{Line: 1, Column: 1, EndLine: 1, EndColumn: 1, Severity: engine.SeverityWarning},
		},
		{
			driver: "ruff", file: "pkg/m.py", content: "import os\n", perFile: true,
			out:  `[{"cell":null,"code":"F401","end_location":{"column":10,"row":1},"filename":"/work/r/pkg/m.py","fix":null,"location":{"column":8,"row":1},"message":"` + "`os`" + ` imported but unused","noqa_row":1,"url":"https://docs.astral.sh/ruff/rules/unused-import"}]`,
			want: engine.Diagnostic{Line: 1, Column: 8, EndLine: 1, EndColumn: 10, Severity: engine.SeverityWarning, Code: "F401"},
		},
		{
			driver: "clippy", file: "src/main.rs", content: "fn main() {\n    let v: Vec<i32> = Vec::new();\n    if v.len() == 0 {}\n}\n",
			out: `{"reason":"compiler-artifact","target":{}}` + "\n" +
				`{"reason":"compiler-message","message":{"level":"warning","code":{"code":"clippy::len_zero"},"message":"length comparison to zero","spans":[{"file_name":"src/main.rs","line_start":3,"line_end":3,"column_start":8,"column_end":20,"is_primary":true}]}}` + "\n" +
				`{"reason":"compiler-message","message":{"level":"warning","code":null,"message":"1 warning emitted","spans":[]}}` + "\n" +
				`{"reason":"build-finished","success":true}` + "\n",
			want: engine.Diagnostic{Line: 3, Column: 8, EndLine: 3, EndColumn: 20, Severity: engine.SeverityWarning, Code: "clippy::len_zero"},
		},
		{
			driver: "eslint", file: "a.js", content: "let 𝒳 = 1; x\n", perFile: true,
			out:  `[{"filePath":"/work/r/a.js","messages":[{"ruleId":"no-undef","severity":2,"message":"'x' is not defined.","line":1,"column":13,"endLine":1,"endColumn":14}]}]`,
			want: engine.Diagnostic{Line: 1, Column: 12, EndLine: 1, EndColumn: 13, Severity: engine.SeverityError, Code: "no-undef"},
		},
	} {
		t.Run(tc.driver, func(t *testing.T) {
			dc := cfg.Drivers[tc.driver]
			if dc == nil {
				t.Fatalf("no default driver %s", tc.driver)
			}
			d, err := New(tc.driver, dc, capabilities.Env{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			dr := d.(*Driver)
			all := map[string]*text.Doc{tc.file: text.FromString(tc.content)}
			s := &site{root: root, dir: root, view: &view{tree: root}}
			if tc.perFile {
				s.file = tc.file
			}
			ds := dr.diagnostics(dr.parse([]byte(tc.out)), s, all, map[string]bool{tc.file: true})
			if len(ds) != 1 {
				t.Fatalf("got %d diagnostics, want 1: %+v", len(ds), ds)
			}
			got := ds[0]
			tc.want.Path, tc.want.Source, tc.want.Message = tc.file, tc.driver, got.Message
			if tc.want.Code == "" {
				tc.want.Code = got.Code
			}
			if !reflect.DeepEqual(got, tc.want) || got.Message == "" {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestColumnUnits(t *testing.T) {
	// "a\té𝒳b": a=1 \t=2 é=3 𝒳=4 b=5 in characters; b is byte 9, UTF-16 unit 6.
	content := "x\na\té𝒳b\n"
	all := map[string]*text.Doc{"f.txt": text.FromString(content)}
	s := &site{root: "/r", dir: "/r", view: &view{tree: "/r"}, file: "f.txt"}
	for _, tc := range []struct {
		unit string
		col  int
	}{{"bytes", 9}, {"utf16", 6}, {"chars", 5}, {"", 5}} {
		d := &Driver{name: "t", cfg: &configs.Driver{JSON: &configs.JSONMapping{Line: "l", Column: "c", Message: "m", ColumnUnit: tc.unit}}, defaultSev: engine.SeverityInfo}
		out := []byte(`[{"l":2,"c":` + strconv.Itoa(tc.col) + `,"m":"here"}]`)
		ds := d.diagnostics(d.parse(out), s, all, map[string]bool{"f.txt": true})
		if len(ds) != 1 || ds[0].Column != 5 || ds[0].Line != 2 || ds[0].Severity != engine.SeverityInfo {
			t.Errorf("unit %q col %d: %+v", tc.unit, tc.col, ds)
		}
	}
}

func TestWorkspacePath(t *testing.T) {
	root := "/work/r"
	staged := &view{tree: "/tmp/devbroker-staged-1", temp: "/tmp/devbroker-staged-1"}
	ov := &view{tree: root, temp: "/tmp/devbroker-overlay-7", copies: map[string]string{"/tmp/devbroker-overlay-7/files/a/b.go": "a/b.go"}}
	for _, tc := range []struct {
		s    *site
		in   string
		want string
		ok   bool
	}{
		{&site{root: root, dir: root, view: &view{tree: root}, file: "x.sh"}, "-", "x.sh", true},
		{&site{root: root, dir: root, view: &view{tree: root}, file: "x.sh"}, "<standard input>", "x.sh", true},
		{&site{root: root, dir: root, view: &view{tree: root}}, "-", "", false},
		{&site{root: root, dir: root + "/sub", view: &view{tree: root}}, "../a.go", "a.go", true},
		{&site{root: root, dir: root, view: &view{tree: root}}, "/etc/passwd", "", false},
		{&site{root: root, dir: root, view: &view{tree: root}}, "../outside.go", "", false},
		{&site{root: root, dir: staged.tree, view: staged}, "/tmp/devbroker-staged-1/src/m.rs", "src/m.rs", true},
		{&site{root: root, dir: staged.tree, view: staged}, "src/m.rs", "src/m.rs", true},
		{&site{root: root, dir: root, view: ov}, "/tmp/devbroker-overlay-7/files/a/b.go", "a/b.go", true},
		{&site{root: root, dir: root, view: ov}, "../../../tmp/devbroker-overlay-7/files/a/b.go", "a/b.go", true},
		{&site{root: root, dir: root, view: ov}, "./a/c.go", "a/c.go", true},
	} {
		got, ok := tc.s.workspacePath(filepath.FromSlash(tc.in))
		if got != tc.want || ok != tc.ok {
			t.Errorf("%q from %s: got %q %v, want %q %v", tc.in, tc.s.dir, got, ok, tc.want, tc.ok)
		}
	}
}

func TestConfigErrors(t *testing.T) {
	f := false
	for name, cfg := range map[string]configs.Driver{
		"no command":          {Errorformat: efm},
		"bad input":           {Command: []string{"x"}, Input: "disk", Errorformat: efm},
		"no parser":           {Command: []string{"x"}},
		"two parsers":         {Command: []string{"x"}, Errorformat: efm, JSON: &configs.JSONMapping{Line: "l", Message: "m"}},
		"bad pattern":         {Command: []string{"x"}, Errorformat: []string{"%"}},
		"stdin not per file":  {Command: []string{"x"}, Input: "stdin", PerFile: &f, Errorformat: efm},
		"file in batch":       {Command: []string{"x", "{file}"}, PerFile: &f, Errorformat: efm},
		"overlay elsewhere":   {Command: []string{"x", "{overlay}"}, Input: "stdin", Errorformat: efm},
		"overlay formatter":   {Command: []string{"x"}, Input: "overlay", Output: "stdout"},
		"file output stdin":   {Command: []string{"x"}, Input: "stdin", Output: "file"},
		"escaping dir":        {Command: []string{"x"}, Dir: "../up", Errorformat: efm},
		"bad severity":        {Command: []string{"x"}, Severity: "fatal", Errorformat: efm},
		"bad unit":            {Command: []string{"x"}, JSON: &configs.JSONMapping{Line: "l", Message: "m", ColumnUnit: "runes"}},
		"code ok and finding": {Command: []string{"x"}, Errorformat: efm, ExitCodes: configs.ExitCodes{OK: []int{0, 1}}},
	} {
		if _, err := New("d", &cfg, capabilities.Env{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// TestStagedTree checks that a staged run sees the workspace, not the
// disk, and that relative and absolute staged paths map back.
func TestStagedTree(t *testing.T) {
	d := fakeDriver(t, configs.Driver{Input: "staged", Errorformat: efm}, "tree")
	req := workspace(t.TempDir(), engine.Lint, "a/x.txt", "one\n", "b.txt", "two\n", "c.txt", "three\n")
	req.Files = []string{"a/x.txt", "b.txt"} // c.txt is staged but not asked about
	r := d.Run(context.Background(), req)
	wantStatus(t, r, engine.StatusOK)
	byPath := map[string][]string{}
	for _, dg := range r.Diagnostics {
		byPath[dg.Path] = append(byPath[dg.Path], dg.Message)
	}
	if len(r.Diagnostics) != 4 || len(byPath["a/x.txt"]) != 2 || byPath["b.txt"][0] != `rel "two"` {
		t.Errorf("%+v", r.Diagnostics)
	}
}

func TestStdinSeesWorkspaceContent(t *testing.T) {
	d := fakeDriver(t, configs.Driver{Input: "stdin", Errorformat: efm}, "stdin-lines")
	r := d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.sh", "1\n2\n3\n", "b.sh", "1\n"))
	wantStatus(t, r, engine.StatusOK)
	if len(r.Diagnostics) != 2 || r.Diagnostics[0].Message != "3 lines" || r.Diagnostics[0].Line != 3 || r.Diagnostics[1].Path != "b.sh" {
		t.Errorf("%+v", r.Diagnostics)
	}
}

func TestFormatStdout(t *testing.T) {
	d := fakeDriver(t, configs.Driver{Input: "stdin", Output: "stdout"}, "upper")
	r := d.Run(context.Background(), workspace(t.TempDir(), engine.Format, "a.txt", "abc\r\n", "b.txt", "XYZ\n"))
	wantStatus(t, r, engine.StatusOK)
	if len(r.Edits) != 1 || r.Edits["a.txt"].String() != "ABC\r\n" {
		t.Errorf("edits %v", r.Edits)
	}
	// A formatter that prints nothing must not empty the file.
	d = fakeDriver(t, configs.Driver{Input: "stdin", Output: "stdout"}, "print", "0")
	r = d.Run(context.Background(), workspace(t.TempDir(), engine.Format, "a.txt", "abc\n"))
	wantStatus(t, r, engine.StatusCrashed)
	if len(r.Edits) != 0 {
		t.Errorf("edits %v", r.Edits)
	}
}

func TestFormatFileAndFix(t *testing.T) {
	d := fakeDriver(t, configs.Driver{Input: "staged", Output: "file"}, "rewrite", "{file}")
	r := d.Run(context.Background(), workspace(t.TempDir(), engine.Format, "d/a.txt", "abc\n"))
	wantStatus(t, r, engine.StatusOK)
	if r.Edits["d/a.txt"].String() != "ABC\n" {
		t.Errorf("edits %v", r.Edits)
	}

	exe := d.cfg.Command[0]
	fx := fakeDriver(t, configs.Driver{Input: "stdin", Errorformat: efm, FixCommand: []string{exe, "rewrite", "{file}"}}, "stdin-lines")
	if !fx.canFix() {
		t.Fatal("canFix is false")
	}
	req := workspace(t.TempDir(), engine.Lint, "a.sh", "fix me\nplease\n")
	req.Fix = true
	r = fx.Run(context.Background(), req)
	wantStatus(t, r, engine.StatusOK)
	if r.Edits["a.sh"].String() != "FIX ME\nPLEASE\n" {
		t.Errorf("edits %v", r.Edits)
	}
	if dg := one(t, r); dg.Message != "2 lines" {
		t.Errorf("lint after fix: %+v", dg)
	}
}

// TestColouredOutputIsParsed: tools that colour their output anyway (CI
// environments switch some on) still parse.
func TestColouredOutputIsParsed(t *testing.T) {
	got := stripANSI([]byte("[\x1b[31merror\x1b[39m] a.js: SyntaxError (2:1)\n\x1b[1;4mbold\x1b[0m\n"))
	if want := "[error] a.js: SyntaxError (2:1)\nbold\n"; string(got) != want {
		t.Errorf("stripANSI = %q, want %q", got, want)
	}
}
