package gofumpt

// This file checks the driver against the gofumpt CLI of the same version,
// installed with `go install` into a temporary GOBIN (the test skips when
// that fails, for instance without the module proxy), and benchmarks the
// two.

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

var cli struct {
	once sync.Once
	dir  string // the temporary GOBIN, removed by TestMain
	path string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if cli.dir != "" {
		os.RemoveAll(cli.dir)
	}
	os.Exit(code)
}

// gofumptCLI installs the gofumpt CLI at the linked-in version, once.
func gofumptCLI(tb testing.TB) string {
	tb.Helper()
	cli.once.Do(func() {
		cli.dir, cli.err = os.MkdirTemp("", "gofumpt-cli-")
		if cli.err != nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
		defer cancel()
		version := goList(tb, "{{.Version}}", "mvdan.cc/gofumpt")
		cmd := exec.CommandContext(ctx, "go", "install", "mvdan.cc/gofumpt@"+version)
		cmd.Dir = cli.dir // outside this module: the CLI's own go.mod decides
		cmd.Env = append(os.Environ(), "GOBIN="+cli.dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			cli.err = fmt.Errorf("go install mvdan.cc/gofumpt@%s: %v\n%s", version, err, out)
			return
		}
		cli.path = filepath.Join(cli.dir, "gofumpt")
		if runtime.GOOS == "windows" {
			cli.path += ".exe"
		}
	})
	if cli.err != nil {
		tb.Skip("no gofumpt CLI:", cli.err)
	}
	return cli.path
}

// runCLI formats src as `gofumpt < file` in dir, where the CLI finds the
// go.mod that gives it -lang and -modpath.
func runCLI(tb testing.TB, bin, dir string, src []byte) ([]byte, error) {
	cmd := exec.Command(bin)
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(src)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%v: %s", err, stderr.Bytes())
	}
	return out, nil
}

// goList is `go list -m -f format mod` for this module's build list.
func goList(tb testing.TB, format, mod string) string {
	out, err := exec.Command("go", "list", "-m", "-f", format, mod).Output()
	s := strings.TrimSpace(string(out))
	if err != nil || s == "" {
		tb.Skipf("go list -m %s: %v", mod, err)
	}
	return s
}

// moduleDir is where the module cache holds mod (at this module's version).
func moduleDir(tb testing.TB, mod string) string { return goList(tb, "{{.Dir}}", mod) }

// goroot is the Go toolchain's root, for standard library files.
func goroot(tb testing.TB) string {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Skip("go env GOROOT:", err)
	}
	return strings.TrimSpace(string(out))
}

// A test binary has no dependency build information, so Version falls
// back to linkedVersion, which must follow go.mod.
func TestLinkedVersionFollowsGoMod(t *testing.T) {
	if got := goList(t, "{{.Version}}", "mvdan.cc/gofumpt"); got != linkedVersion {
		t.Errorf("go.mod requires mvdan.cc/gofumpt %s, but linkedVersion is %s: update it", got, linkedVersion)
	}
}

type input struct {
	name string
	src  []byte
}

// realFiles are real Go files: gofumpt's and staticcheck's own source
// (gofumpt-formatted already), standard library files (gofmt-formatted,
// which gofumpt still changes), and all of them again with every line's
// indentation stripped.
func realFiles(tb testing.TB) []input {
	var paths []string
	gofumpt := moduleDir(tb, "mvdan.cc/gofumpt")
	for _, p := range []string{"gofmt.go", "internal.go", "format/format.go", "format/rewrite.go", "format/simplify.go"} {
		paths = append(paths, filepath.Join(gofumpt, p))
	}
	staticcheck := moduleDir(tb, "honnef.co/go/tools")
	for _, glob := range []string{"simple/*.go", "unused/unused.go", "lintcmd/*.go"} {
		m, _ := filepath.Glob(filepath.Join(staticcheck, glob))
		paths = append(paths, m...)
	}
	goroot := goroot(tb)
	for _, p := range []string{"go/printer/nodes.go", "bufio/scan.go", "fmt/print.go", "strings/strings.go", "encoding/json/decode.go", "net/http/server.go"} {
		paths = append(paths, filepath.Join(goroot, "src", p))
	}
	var out []input
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Logf("skipping %s: %v", p, err)
			continue
		}
		if isGenerated(string(data)) {
			continue // the CLI formats explicit (stdin) generated files; we skip them
		}
		out = append(out, input{p, data}, input{p + " (unindented)", unindent(data)})
	}
	if len(out) < 20 {
		tb.Fatalf("only %d real files found", len(out))
	}
	return out
}

func unindent(src []byte) []byte {
	lines := strings.Split(string(src), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimLeft(l, " \t")
	}
	return []byte(strings.Join(lines, "\n"))
}

// badInputs are deliberately badly formatted files: every Go input of
// gofumpt's own test scripts, and a few of ours.
func badInputs(tb testing.TB) []input {
	out := []input{
		{"messy", []byte(messy)},
		{"octal", []byte(octal)},
		{"no final newline", []byte("package p\nfunc f(){return}")},
		{"comments", []byte("package p\n//Doc comment\nfunc f() {\n//body\n\n\tvar x int //trailing\n\t_ = x\n}\n")},
		{"std imports", []byte("package p\n\nimport (\n\t\"example.com/demo/a\"\n\t\"os\"\n\t\"github.com/x/y\"\n\t\"fmt\"\n)\n\nvar _, _, _, _ = a.A, os.Args, y.Y, fmt.Sprint\n")},
		{"composite", []byte("package p\n\nvar x = []int{\n\n1,2,\n3,\n\n}\nvar m = map[string]int{ \"a\":1, }\n")},
		{"syntax error", []byte("package p\n\nfunc f() {\n\tx := \"ééé\" )\n}\n")},
		{"naked return", []byte("package p\n\nfunc f() (n int, err error) {\n\n\treturn\n}\n")},
	}
	dir := filepath.Join(moduleDir(tb, "mvdan.cc/gofumpt"), "testdata", "script")
	scripts, _ := filepath.Glob(filepath.Join(dir, "*.txtar"))
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			tb.Fatal(err)
		}
		for _, f := range a.Files {
			if strings.HasSuffix(f.Name, ".go") && !isGenerated(string(f.Data)) {
				out = append(out, input{filepath.Base(s) + ":" + f.Name, f.Data})
			}
		}
	}
	if len(out) < 40 {
		tb.Fatalf("only %d bad inputs found", len(out))
	}
	return out
}

// gomods are the module settings the comparison runs under: a module path
// and a recent version, and a go.mod without a go directive (go1.16) whose
// module path looks like a standard library one.
var gomods = []string{"module example.com/demo\n\ngo 1.22\n", "module mymod\n"}

func TestByteIdenticalToCLI(t *testing.T) {
	if testing.Short() {
		t.Skip("installs and runs the gofumpt CLI")
	}
	bin := gofumptCLI(t)
	inputs := append(badInputs(t), realFiles(t)...)
	version := goList(t, "{{.Version}}", "mvdan.cc/gofumpt")
	compared, changed := 0, 0
	for gi, gomod := range gomods {
		dir := t.TempDir()
		testtree.Put(t, dir, "go.mod", gomod)
		for _, in := range inputs {
			if gi > 0 && strings.HasPrefix(in.name, string(filepath.Separator)) && strings.HasSuffix(in.name, ")") {
				continue // the unindented real files run under the first go.mod only
			}
			want, cliErr := runCLI(t, bin, dir, in.src)
			res := runReq(t, context.Background(), &capabilities.Request{Kind: engine.Format},
				map[string]string{"go.mod": gomod, "x.go": string(in.src)})
			if res.Status != engine.StatusOK {
				t.Errorf("%s: status %s: %s", in.name, res.Status, res.Message)
				continue
			}
			if cliErr != nil {
				if _, ok := res.Edits["x.go"]; ok || len(res.Diagnostics) == 0 || res.Diagnostics[0].Severity != engine.SeverityError {
					t.Errorf("%s: the CLI failed (%v) but the driver gave edit %v, diagnostics %+v", in.name, cliErr, ok, res.Diagnostics)
				}
				continue
			}
			got := in.src
			if d, ok := res.Edits["x.go"]; ok {
				got = d.Bytes()
				changed++
			}
			// A test binary has no dependency build information, so
			// //gofumpt:diagnose, which prints gofumpt's version, cannot
			// find it there (a devbroker binary can).
			got = bytes.ReplaceAll(got, []byte("//gofumpt:diagnose version: (module not found)"),
				[]byte("//gofumpt:diagnose version: "+version))
			compared++
			if !bytes.Equal(got, want) {
				t.Errorf("%s under %q: differs from the CLI:\n%s", in.name, gomod, firstDiff(got, want))
			}
		}
	}
	t.Logf("%d outputs byte-identical to the CLI (%d of them changed by formatting)", compared, changed)
	if changed < 50 {
		t.Errorf("only %d inputs changed; the comparison is too weak", changed)
	}
}

func firstDiff(got, want []byte) string {
	g, w := text.SplitLines(string(got)), text.SplitLines(string(want))
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl text.Line
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d: driver %q, CLI %q", i+1, gl.Text+gl.EOL, wl.Text+wl.EOL)
		}
	}
	return "(no line differs)"
}

// benchInputs are the benchmark's files, indentation stripped so that
// there is work to do: small (17 lines, an agent's quick edit), mid (the
// standard library's bufio/scan.go, about 430 lines) and large (the CLI's
// own gofmt.go, about 840 lines).
func benchInputs(b *testing.B) []input {
	mid, err := os.ReadFile(filepath.Join(goroot(b), "src", "bufio", "scan.go"))
	if err != nil {
		b.Fatal(err)
	}
	large, err := os.ReadFile(filepath.Join(moduleDir(b, "mvdan.cc/gofumpt"), "gofmt.go"))
	if err != nil {
		b.Fatal(err)
	}
	return []input{{"small", []byte(messy)}, {"mid", unindent(mid)}, {"large", unindent(large)}}
}

// The two benchmarks report wall time and CPU time per file (the CLI's
// includes its process's); compare their medians over -count runs.
func BenchmarkFormatInProcess(b *testing.B) {
	d, _ := New("gofumpt", nil, capabilities.Env{})
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			req := &capabilities.Request{Kind: engine.Format, Files: []string{"x.go"}, All: map[string]*text.Doc{
				"go.mod": text.FromString(gomods[0]),
				"x.go":   text.FromString(string(in.src)),
			}}
			b.SetBytes(int64(len(in.src)))
			start := cpuTime()
			for b.Loop() {
				if res := d.Run(context.Background(), req); res.Status != engine.StatusOK || len(res.Edits) != 1 {
					b.Fatalf("status %s, %d edits", res.Status, len(res.Edits))
				}
			}
			b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}

func BenchmarkFormatCLI(b *testing.B) {
	bin := gofumptCLI(b)
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(gomods[0]), 0o644); err != nil {
		b.Fatal(err)
	}
	for _, in := range benchInputs(b) {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.src)))
			var cpu time.Duration // the children's
			start := cpuTime()
			for b.Loop() {
				cmd := exec.Command(bin)
				cmd.Dir = dir
				cmd.Stdin = bytes.NewReader(in.src)
				out, err := cmd.Output()
				if err != nil || len(out) == 0 {
					b.Fatalf("gofumpt: %v", err)
				}
				cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
			}
			b.ReportMetric(float64(cpu+cpuTime()-start)/float64(b.N), "cpu-ns/op")
		})
	}
}
