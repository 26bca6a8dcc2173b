package gofumpt

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/gofumpt/format"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// run runs the driver over a workspace held in memory, asking about every
// .go file (or about paths, when given).
func run(t testing.TB, kind engine.Kind, root string, files map[string]string, paths ...string) *capabilities.Result {
	t.Helper()
	return runReq(t, context.Background(), &capabilities.Request{Kind: kind, Root: root}, files, paths...)
}

func runReq(t testing.TB, ctx context.Context, req *capabilities.Request, files map[string]string, paths ...string) *capabilities.Result {
	t.Helper()
	req.All = map[string]*text.Doc{}
	for p, s := range files {
		req.All[p] = text.FromString(s)
		if paths == nil && strings.HasSuffix(p, ".go") {
			req.Files = append(req.Files, p)
		}
	}
	if paths != nil {
		req.Files = paths
	}
	slices.Sort(req.Files)
	d, err := New("gofumpt", nil, capabilities.Env{Root: req.Root, Language: "go"})
	if err != nil {
		t.Fatal(err)
	}
	res := d.Run(ctx, req)
	if res == nil {
		t.Fatal("Run returned nil")
	}
	return res
}

// edit returns the new content of p, failing when there is none.
func edit(t *testing.T, res *capabilities.Result, p string) string {
	t.Helper()
	d, ok := res.Edits[p]
	if !ok {
		t.Fatalf("no edit for %s; result: %+v", p, res)
	}
	return d.String()
}

func wantOK(t *testing.T, res *capabilities.Result) {
	t.Helper()
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s (%s), want ok", res.Status, res.Message)
	}
}

const (
	messy = `package demo

import (
	"fmt"
	"example.com/demo/internal/x"
	"os"
)

func   Hello(name string,  n int) (string) {

	var  s = fmt.Sprintf("hi %s", name)
	if n > 0 { s += x.Bang }
	_ = os.Args
	return s

}
`
	// tidy is messy as gofumpt -lang=go1.22 -modpath=example.com/demo
	// prints it: the module's own import in its own group, no empty lines
	// around the body, a short variable declaration.
	tidy = `package demo

import (
	"fmt"
	"os"

	"example.com/demo/internal/x"
)

func Hello(name string, n int) string {
	s := fmt.Sprintf("hi %s", name)
	if n > 0 {
		s += x.Bang
	}
	_ = os.Args
	return s
}
`
	demoMod = "module example.com/demo\n\ngo 1.22\n"
)

func TestFormatsRealCode(t *testing.T) {
	res := run(t, engine.Format, t.TempDir(), map[string]string{
		"go.mod":       demoMod,
		"demo.go":      messy,
		"tidy.go":      tidy,
		"notes/a.txt":  "not Go",
		"sub/other.go": "package sub\nvar X = 1\n",
	})
	wantOK(t, res)
	if got := edit(t, res, "demo.go"); got != tidy {
		t.Errorf("demo.go formatted as\n%s\nwant\n%s", got, tidy)
	}
	if got := edit(t, res, "sub/other.go"); got != "package sub\n\nvar X = 1\n" {
		t.Errorf("sub/other.go formatted as %q", got)
	}
	if _, ok := res.Edits["tidy.go"]; ok {
		t.Error("an already formatted file got an edit")
	}
	if len(res.Edits) != 2 || len(res.Diagnostics) != 0 {
		t.Errorf("edits %v, diagnostics %v; want 2 edits and no diagnostics", keys(res.Edits), res.Diagnostics)
	}
}

func keys(m map[string]*text.Doc) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// The root on disk is empty: both the file and its go.mod exist only in
// the workspace, and the go.mod's module path decides the import groups.
func TestWorkspaceOnly(t *testing.T) {
	for _, root := range []string{t.TempDir(), ""} {
		res := run(t, engine.Format, root, map[string]string{"go.mod": demoMod, "pkg/demo.go": messy})
		wantOK(t, res)
		if got := edit(t, res, "pkg/demo.go"); got != tidy {
			t.Errorf("root %q: formatted as\n%s\nwant\n%s", root, got, tidy)
		}
	}
}

const octal = "package p\n\nvar m = 0755\n"

// gofumpt writes 0o octal literals from go1.13 on, so the literal says
// which language version reached the formatter.
func TestLanguageVersionFromGoMod(t *testing.T) {
	old, modern := "module m\n\ngo 1.12\n", "module m\n\ngo 1.13\n"
	rewritten := "package p\n\nvar m = 0o755\n"
	cases := []struct {
		name  string
		disk  map[string]string // relative to the root; "../x" is above it
		files map[string]string
		want  string // "" means no edit
	}{
		{"no go.mod: go1", nil, map[string]string{"a/p.go": octal}, ""},
		{"workspace go1.12", nil, map[string]string{"go.mod": old, "a/p.go": octal}, ""},
		{"workspace go1.13", nil, map[string]string{"go.mod": modern, "a/p.go": octal}, rewritten},
		{"disk go1.13", map[string]string{"go.mod": modern}, map[string]string{"a/p.go": octal}, rewritten},
		{"workspace beats disk", map[string]string{"go.mod": modern}, map[string]string{"go.mod": old, "a/p.go": octal}, ""},
		{"nearest wins", map[string]string{"go.mod": old, "a/go.mod": modern}, map[string]string{"a/p.go": octal}, rewritten},
		{"nearest in workspace, outer on disk", map[string]string{"go.mod": old}, map[string]string{"a/go.mod": modern, "a/p.go": octal}, rewritten},
		{"no go directive: go1.16", nil, map[string]string{"go.mod": "module m\n", "a/p.go": octal}, rewritten},
		{"the module above the root", map[string]string{"../go.mod": modern}, map[string]string{"a/p.go": octal}, rewritten},
		{"the nearest above the root", map[string]string{"../go.mod": old, "../../go.mod": modern}, map[string]string{"a/p.go": octal}, ""},
		{"a go.work above stops the search", map[string]string{"../go.work": "go 1.22\n", "../../go.mod": modern}, map[string]string{"a/p.go": octal}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parent := t.TempDir()
			root := filepath.Join(parent, "m", "root")
			testtree.Put(t, root, "README", "")
			for p, s := range c.disk {
				testtree.Put(t, root, p, s)
			}
			res := run(t, engine.Format, root, c.files)
			wantOK(t, res)
			got, ok := res.Edits["a/p.go"]
			switch {
			case c.want == "" && ok:
				t.Errorf("got an edit %q, want none", got.String())
			case c.want != "" && !ok:
				t.Errorf("no edit, want %q", c.want)
			case ok && got.String() != c.want:
				t.Errorf("got %q, want %q", got.String(), c.want)
			}
		})
	}
}

// A go.mod deleted in the workspace no longer counts; the search goes on
// to the next one up.
func TestDeletedGoModIsGone(t *testing.T) {
	root := t.TempDir()
	testtree.Put(t, root, "go.mod", "module m\n\ngo 1.13\n")
	testtree.Put(t, root, "a/go.mod", "module m/a\n\ngo 1.12\n")
	req := &capabilities.Request{Kind: engine.Format, Root: root, Deleted: []string{"a/go.mod"}}
	res := runReq(t, context.Background(), req, map[string]string{"a/p.go": octal})
	wantOK(t, res)
	if got := edit(t, res, "a/p.go"); got != "package p\n\nvar m = 0o755\n" {
		t.Errorf("got %q; the deleted go1.12 go.mod was used", got)
	}
}

// A symlinked go.mod that points outside the root is not followed.
func TestGoModSymlinkOutsideRoot(t *testing.T) {
	outside := t.TempDir()
	testtree.Put(t, outside, "go.mod", "module m\n\ngo 1.13\n")
	root := t.TempDir()
	if err := os.Symlink(filepath.Join(outside, "go.mod"), filepath.Join(root, "go.mod")); err != nil {
		t.Skip("no symlinks:", err)
	}
	res := run(t, engine.Format, root, map[string]string{"p.go": octal})
	wantOK(t, res)
	if d, ok := res.Edits["p.go"]; ok {
		t.Errorf("the go.mod outside the root was read: %q", d.String())
	}
}

// A go.mod that cannot be used leaves its files alone and says why:
// "1.21.0rc1" parses as a go.mod but is no Go version (it makes the
// gofumpt CLI panic).
func TestUnusableGoMod(t *testing.T) {
	for _, gomod := range []string{"module m\n\ngo 1.21.0rc1\n", "module m\n\ngo 1\n", "modul m\n"} {
		res := run(t, engine.Format, "", map[string]string{"go.mod": gomod, "p.go": "package p\nvar x = 1\n"})
		wantOK(t, res)
		if len(res.Edits) != 0 {
			t.Errorf("%q: edits %v, want none", gomod, keys(res.Edits))
		}
		if len(res.Diagnostics) != 1 || res.Diagnostics[0].Severity != engine.SeverityError ||
			!strings.Contains(res.Diagnostics[0].Message, "go.mod") || res.Diagnostics[0].Path != "p.go" {
			t.Errorf("%q: diagnostics %+v, want one error on p.go naming go.mod", gomod, res.Diagnostics)
		}
	}
}

func TestGeneratedFilesSkipped(t *testing.T) {
	const body = "\npackage p\nvar x = 0755\n"
	files := map[string]string{
		"go.mod":    "module m\n\ngo 1.22\n",
		"gen.go":    "// Code generated by stringer; DO NOT EDIT.\n" + body,
		"gen2.go":   "// Copyright 2025\n\n// Code generated by hand. DO NOT EDIT.\n" + body,
		"late.go":   "package p\n\n// Code generated by stringer; DO NOT EDIT.\nvar x = 0755\n",
		"block.go":  "/*\n// Code generated by x. DO NOT EDIT.\n*/\n" + body,
		"almost.go": "// Code generated by x. DO NOT EDIT\n" + body,
	}
	res := run(t, engine.Format, "", files)
	wantOK(t, res)
	if got := keys(res.Edits); !slices.Equal(got, []string{"almost.go", "block.go", "late.go"}) {
		t.Errorf("edited %v; want only the files that are not generated by the CLI's rule", got)
	}
}

func TestSyntaxError(t *testing.T) {
	src := "package p\n\nfunc f() {\n\tx := \"ééé\" )\n}\n"
	res := run(t, engine.Format, "", map[string]string{"bad.go": src, "good.go": "package p\nvar y = 1\n"})
	wantOK(t, res)
	if _, ok := res.Edits["bad.go"]; ok {
		t.Error("a file with a syntax error got an edit")
	}
	if _, ok := res.Edits["good.go"]; !ok {
		t.Error("the good file was not formatted")
	}
	if len(res.Diagnostics) == 0 {
		t.Fatal("no diagnostic")
	}
	d := res.Diagnostics[0]
	// The parser says column 16 (bytes); the é's are two bytes each.
	if d.Path != "bad.go" || d.Line != 4 || d.Column != 13 || d.Severity != engine.SeverityError ||
		!strings.Contains(d.Message, "expected statement, found ')'") || d.Source != "gofumpt" {
		t.Errorf("diagnostic %+v, want an error at bad.go:4:13", d)
	}
}

func TestLineEndingsAndBOM(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	cases := []struct {
		name, in, want string
		info           bool // an info diagnostic about mixed endings
	}{
		{"CRLF kept", crlf(messy), crlf(tidy), false},
		{"BOM kept", text.BOM + messy, text.BOM + tidy, false},
		{"BOM and CRLF kept", text.BOM + crlf(messy), text.BOM + crlf(tidy), false},
		{"formatted CRLF untouched", crlf(tidy), "", false},
		{"formatted BOM untouched", text.BOM + tidy, "", false},
		{"mixed: dominant CRLF", crlf(tidy[:len(tidy)-20]) + tidy[len(tidy)-20:], crlf(tidy), true},
		{"mixed: dominant LF", tidy[:20] + crlf(tidy[20:40]) + tidy[40:], tidy, true},
		{"CRLF in a raw string", crlf("package p\nvar  s = `a\nb`\n"), crlf("package p\n\nvar s = `a\nb`\n"), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := run(t, engine.Format, "", map[string]string{"go.mod": demoMod, "demo.go": c.in})
			wantOK(t, res)
			got, ok := res.Edits["demo.go"]
			if c.want == "" {
				if ok {
					t.Fatalf("got an edit %q, want none", got.String())
				}
				return
			}
			if !ok {
				t.Fatal("no edit")
			}
			if got.String() != c.want {
				t.Errorf("got  %q\nwant %q", got.String(), c.want)
			}
			if has := len(res.Diagnostics) == 1 && res.Diagnostics[0].Severity == engine.SeverityInfo &&
				strings.Contains(res.Diagnostics[0].Message, "mixed line endings"); has != c.info {
				t.Errorf("diagnostics %+v, want a mixed-endings note: %v", res.Diagnostics, c.info)
			}
		})
	}
}

// A panic inside gofumpt is reported as crashed, naming the file; the
// other files are still formatted.
func TestPanicIsCrashed(t *testing.T) {
	defer func(f func([]byte, format.Options) ([]byte, error)) { formatSource = f }(formatSource)
	formatSource = func(src []byte, opts format.Options) ([]byte, error) {
		if strings.Contains(string(src), "boom") {
			panic("boom")
		}
		return format.Source(src, opts)
	}
	res := run(t, engine.Format, "", map[string]string{"a.go": "package a\nvar boom = 1\n", "b.go": "package b\nvar x = 1\n"})
	if res.Status != engine.StatusCrashed || !strings.Contains(res.Message, "a.go") || !strings.Contains(res.Message, "boom") {
		t.Errorf("status %s %q, want crashed naming a.go and the panic", res.Status, res.Message)
	}
	if _, ok := res.Edits["b.go"]; !ok {
		t.Error("b.go was not formatted")
	}
	if _, ok := res.Edits["a.go"]; ok {
		t.Error("a.go got an edit")
	}

	formatSource = func([]byte, format.Options) ([]byte, error) { return nil, errors.New("printer trouble") }
	res = run(t, engine.Format, "", map[string]string{"a.go": "package a\n"})
	if res.Status != engine.StatusCrashed || !strings.Contains(res.Message, "printer trouble") {
		t.Errorf("a non-syntax error: status %s %q, want crashed", res.Status, res.Message)
	}
}

func TestCancelledIsNotClean(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := runReq(t, ctx, &capabilities.Request{Kind: engine.Format}, map[string]string{"a.go": "package a\nvar x = 1\n"})
	if res.Status != engine.StatusTimeout || !strings.Contains(res.Message, "a.go") {
		t.Errorf("status %s %q, want timeout naming a.go", res.Status, res.Message)
	}
}

func TestMissingFile(t *testing.T) {
	res := run(t, engine.Format, "", map[string]string{"a.go": "package a\n"}, "a.go", "gone.go")
	wantOK(t, res)
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Path != "gone.go" {
		t.Errorf("diagnostics %+v, want one about gone.go", res.Diagnostics)
	}
}

func TestLint(t *testing.T) {
	files := map[string]string{"go.mod": demoMod, "demo.go": messy, "tidy.go": tidy}
	res := run(t, engine.Lint, "", files)
	wantOK(t, res)
	if len(res.Edits) != 0 {
		t.Errorf("lint without fix edited %v", keys(res.Edits))
	}
	if len(res.Diagnostics) != 1 {
		t.Fatalf("diagnostics %+v, want one", res.Diagnostics)
	}
	// The first line that changes is line 5 (the import order).
	if d := res.Diagnostics[0]; d.Path != "demo.go" || d.Line != 5 || d.Code != "unformatted" || d.Severity != engine.SeverityWarning {
		t.Errorf("diagnostic %+v, want a warning at demo.go:5", d)
	}

	res = runReq(t, context.Background(), &capabilities.Request{Kind: engine.Lint, Fix: true}, files)
	wantOK(t, res)
	if got := edit(t, res, "demo.go"); got != tidy || len(res.Edits) != 1 {
		t.Errorf("lint --fix edited %v, demo.go as %q", keys(res.Edits), got)
	}

	res = run(t, engine.Check, "", files)
	if res.Status == engine.StatusOK {
		t.Error("check answered ok; gofumpt cannot check")
	}
}

func TestSpecAndProbe(t *testing.T) {
	d, err := Type.New("fmt-go", nil, capabilities.Env{})
	if err != nil {
		t.Fatal(err)
	}
	if s := d.Spec(); s.Name != "fmt-go" || s.Type != "gofumpt" || !slices.Contains(s.Kinds, engine.Format) || s.Doc == "" {
		t.Errorf("spec %+v", s)
	}
	p := d.Probe(context.Background())
	if p.State != capabilities.Found || p.Path != "linked in" || p.Version != Version() || p.Took <= 0 {
		t.Errorf("probe %+v, want found, linked in, %s", p, Version())
	}

	defer func(f func([]byte, format.Options) ([]byte, error)) { formatSource = f }(formatSource)
	formatSource = func(src []byte, _ format.Options) ([]byte, error) { return src, nil }
	if p := d.Probe(context.Background()); p.State != capabilities.Failed || !strings.Contains(p.Reason, "smoke") {
		t.Errorf("a formatter that does nothing: probe %+v, want failed", p)
	}
}

// An unusable go.mod above the root is named relative to the root.
func TestUnusableGoModAboveRoot(t *testing.T) {
	root := filepath.Join(t.TempDir(), "root")
	testtree.Put(t, root, "../go.mod", "module m\n\ngo 1.21.0rc1\n")
	res := run(t, engine.Format, root, map[string]string{"p.go": "package p\nvar x = 1\n"})
	wantOK(t, res)
	if len(res.Edits) != 0 || len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "../go.mod, the nearest go.mod") {
		t.Errorf("edits %v, diagnostics %+v; want no edit and one error naming ../go.mod", keys(res.Edits), res.Diagnostics)
	}
}
