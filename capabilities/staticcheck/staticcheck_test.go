package staticcheck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

const clean = "package m\n\n// F returns 2.\nfunc F() int {\n\tx := 2\n\treturn x\n}\n"

// deadIn is a file of package pkg with a function name that has SA4006 at
// 5:2 (the first value of x is never used) unless comment, on line 5,
// says otherwise.
func deadIn(pkg, name, comment string) string {
	return "package " + pkg + "\n\n// " + name + " returns 2.\nfunc " + name + "(s string) int {\n\t" + comment + "x := len(s)\n\tx = 2\n\treturn x\n}\n"
}

// dead has SA4006 at 5:2.
var dead = deadIn("m", "G", "")

// TestWorkspaceContent: findings follow the workspace, not the disk.
func TestWorkspaceContent(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod":   goMod,
		"a.go":     clean,
		"fixed.go": deadIn("m", "H", ""),
		// gone.go would break the package (F redeclared) if it were
		// still there: the workspace deleted it.
		"gone.go": "package m\n\nfunc F() {}\n",
	})
	d := newDriver(t)
	all := docs(map[string]string{
		"a.go":     dead,                                                            // changed in memory: now has the finding
		"new.go":   deadIn("m", "K", ""),                                            // only in memory
		"fixed.go": "package m\n\n// H returns 2.\nfunc H() int {\n\treturn 2\n}\n", // fixed in memory
	})
	ds := runLint(t, d, &capabilities.Request{
		Root: root, Files: []string{"a.go", "fixed.go", "new.go"}, All: all,
		Changed: []string{"a.go", "fixed.go", "new.go"}, Deleted: []string{"gone.go"},
	})
	if !has(ds, "a.go", 5, "SA4006") {
		t.Errorf("a.go:5 SA4006 (in memory only) missing:\n%s", codes(ds))
	}
	if !has(ds, "new.go", 5, "SA4006") {
		t.Errorf("new.go:5 SA4006 (file only in memory) missing:\n%s", codes(ds))
	}
	if has(ds, "fixed.go", 5, "SA4006") {
		t.Errorf("fixed.go:5 SA4006 was fixed in memory but reported:\n%s", codes(ds))
	}
	if len(ds) != 2 {
		t.Errorf("want 2 findings, got:\n%s", codes(ds))
	}
	for _, dg := range ds {
		if dg.Source != Source || dg.Severity != engine.SeverityWarning || dg.EndLine < dg.Line {
			t.Errorf("bad diagnostic %+v", dg)
		}
	}

	// The disk still has the finding in fixed.go: without the workspace
	// content it is back, and the deleted file breaks the package.
	ds = runLint(t, d, &capabilities.Request{Root: root, Files: []string{"a.go", "fixed.go"}})
	if !has(ds, "fixed.go", 5, "SA4006") && !hasCode(ds, "compile") {
		t.Errorf("disk content: want fixed.go SA4006 or a compile error, got:\n%s", codes(ds))
	}
	if !hasCode(ds, "compile") {
		t.Errorf("gone.go is back on disk and redeclares F: want a compile error, got:\n%s", codes(ds))
	}
}

func hasCode(ds []engine.Diagnostic, code string) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}

// TestColumnsAreCharacters: columns count characters of the workspace
// content, not bytes.
func TestColumnsAreCharacters(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"go.mod": goMod})
	src := deadIn("m", "G", "/* héé */ ")
	ds := runLint(t, newDriver(t), &capabilities.Request{Root: root, Files: []string{"a.go"}, All: docs(map[string]string{"a.go": src})})
	if len(ds) != 1 || ds[0].Code != "SA4006" {
		t.Fatalf("want one SA4006, got:\n%s", codes(ds))
	}
	// "\t/* héé */ " is 11 characters (13 bytes): x is character 12.
	if ds[0].Line != 5 || ds[0].Column != 12 {
		t.Errorf("position %d:%d, want 5:12", ds[0].Line, ds[0].Column)
	}
}

// TestDirectivesAndConfig: //lint:ignore, //lint:file-ignore and
// staticcheck.conf (on disk and in memory) silence findings, and an
// ignore that matches nothing is reported as the command reports it.
func TestDirectivesAndConfig(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod":               goMod,
		"line.go":              deadIn("m", "L", "//lint:ignore SA4006 testing\n\t"),
		"file.go":              "//lint:file-ignore SA4006 testing\n\n" + deadIn("m", "H", ""),
		"useless.go":           "package m\n\n// K returns 2.\nfunc K() int {\n\t//lint:ignore SA4006 nothing to ignore\n\tx := 2\n\treturn x\n}\n",
		"other.go":             dead,
		"sub/sub.go":           "// Package sub is a test.\n" + deadIn("sub", "G", ""),
		"sub/staticcheck.conf": "checks = [\"inherit\", \"-SA4006\"]\n",
	})
	d := newDriver(t)
	files := []string{"file.go", "line.go", "other.go", "sub/sub.go", "useless.go"}
	ds := runLint(t, d, &capabilities.Request{Root: root, Files: files})
	want := []string{
		"other.go:5:2 SA4006 this value of x is never used",
		"useless.go:5:2 staticcheck this linter directive didn't match anything; should it be removed?",
	}
	if got := brief(ds); !equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", codes(ds), join(want))
	}

	// A staticcheck.conf that exists only in the workspace applies too.
	all := docs(map[string]string{"staticcheck.conf": "checks = [\"inherit\", \"-SA4006\"]\n"})
	ds = runLint(t, d, &capabilities.Request{Root: root, Files: files, All: all, Changed: []string{"staticcheck.conf"}})
	if hasCode(ds, "SA4006") {
		t.Errorf("in-memory staticcheck.conf disables SA4006, got:\n%s", codes(ds))
	}
	// The useless ignore of a disabled check is not reported.
	if hasCode(ds, "staticcheck") {
		t.Errorf("ignore of a disabled check reported:\n%s", codes(ds))
	}
}

// TestUnusedAcrossTestVariants: U1000 is merged across a package and its
// test variant, as the command merges it.
func TestUnusedAcrossTestVariants(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{
		"go.mod":    goMod,
		"m.go":      "package m\n\nfunc onlyTests() int { return 1 }\n\nfunc never() int { return 2 }\n",
		"m_test.go": "package m\n\nimport \"testing\"\n\nfunc TestX(t *testing.T) { _ = onlyTests() }\n",
	})
	ds := runLint(t, newDriver(t), &capabilities.Request{Root: root, Files: []string{"m.go", "m_test.go"}})
	want := []string{"m.go:5:6 U1000 func never is unused"}
	if got := brief(ds); !equal(got, want) {
		t.Errorf("got:\n%s\nwant:\n%s", codes(ds), join(want))
	}
}

// TestRootBelowModule: a workspace root inside a module maps paths back.
func TestRootBelowModule(t *testing.T) {
	mod := t.TempDir()
	testtree.Write(t, mod, map[string]string{"go.mod": goMod, "pkg/a.go": dead})
	root := filepath.Join(mod, "pkg")
	ds := runLint(t, newDriver(t), &capabilities.Request{Root: root, Files: []string{"a.go"}})
	if !has(ds, "a.go", 5, "SA4006") || len(ds) != 1 {
		t.Errorf("got:\n%s", codes(ds))
	}
}

func TestProbe(t *testing.T) {
	p := newDriver(t).Probe(context.Background())
	if p.State != capabilities.Found {
		t.Fatalf("probe: %s: %s", p.State, p.Reason)
	}
	if p.Version == "" || p.Path == "" {
		t.Errorf("probe lacks version or path: %+v", p)
	}
	t.Logf("probe: %+v", p)
}

func TestProbeWithoutGo(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	p := newDriver(t).Probe(context.Background())
	if p.State != capabilities.Missing {
		t.Fatalf("probe without go: %s: %s", p.State, p.Reason)
	}
}

// TestStageLeavesDiskAlone: staging never touches the originals.
func TestStageLeavesDiskAlone(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"go.mod": goMod, "a.go": clean})
	d := newDriver(t)
	runLint(t, d, &capabilities.Request{Root: root, Files: []string{"a.go"}, All: docs(map[string]string{"a.go": dead, "b.go": clean})})
	got, err := os.ReadFile(filepath.Join(root, "a.go"))
	if err != nil || string(got) != clean {
		t.Errorf("a.go on disk changed: %q %v", got, err)
	}
	if _, err := os.Stat(filepath.Join(root, "b.go")); err == nil {
		t.Errorf("b.go was written to disk")
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func join(ss []string) string {
	out := ""
	for _, s := range ss {
		out += s + "\n"
	}
	return out
}

// TestRelativeReplace: a go.mod replacement by a relative directory still
// resolves in the stage.
func TestRelativeReplace(t *testing.T) {
	top := t.TempDir()
	testtree.Write(t, top, map[string]string{
		"dep/go.mod":  "module example.com/dep\n\ngo 1.22\n",
		"dep/dep.go":  "// Package dep is a test.\npackage dep\n\n// N is 1.\nfunc N() int { return 1 }\n",
		"main/go.mod": "module example.com/m\n\ngo 1.22\n\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
		"main/a.go":   "package m\n\nimport \"example.com/dep\"\n\n// G returns 2.\nfunc G() int {\n\tx := dep.N()\n\tx = 2\n\treturn x\n}\n",
	})
	root := filepath.Join(top, "main")
	ds := runLint(t, newDriver(t), &capabilities.Request{Root: root, Files: []string{"a.go"}})
	if !has(ds, "a.go", 7, "SA4006") || len(ds) != 1 {
		t.Errorf("got:\n%s", codes(ds))
	}
	data, _ := os.ReadFile(filepath.Join(root, "go.mod"))
	if !strings.Contains(string(data), "=> ../dep") {
		t.Errorf("go.mod on disk changed:\n%s", data)
	}
}

// TestFix: lint with fix applies suggested fixes to the workspace content
// (never the disk) and reports what remains.
func TestFix(t *testing.T) {
	root := t.TempDir()
	src := "package m\n\n// F is a test.\nfunc F(b bool) int {\n\tif b == true {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
	testtree.Write(t, root, map[string]string{"go.mod": goMod, "a.go": src})
	d := newDriver(t)
	ds := runLint(t, d, &capabilities.Request{Root: root, Files: []string{"a.go"}})
	if !has(ds, "a.go", 5, "S1002") || len(ds[0].Fixes) == 0 {
		t.Fatalf("want S1002 with a fix, got:\n%s", codes(ds))
	}
	r := d.Run(context.Background(), &capabilities.Request{Kind: engine.Lint, Root: root, Files: []string{"a.go"}, All: docs(nil), Fix: true})
	if r.Status != engine.StatusOK {
		t.Fatal(r.Message)
	}
	want := "package m\n\n// F is a test.\nfunc F(b bool) int {\n\tif b {\n\t\treturn 1\n\t}\n\treturn 0\n}\n"
	if got := r.Edits["a.go"]; got == nil || got.String() != want {
		t.Errorf("fixed content:\n%v\nwant:\n%s", got, want)
	}
	if len(r.Diagnostics) != 0 {
		t.Errorf("after the fix:\n%s", codes(r.Diagnostics))
	}
	if data, _ := os.ReadFile(filepath.Join(root, "a.go")); string(data) != src {
		t.Errorf("the disk changed")
	}
}

// TestCompileErrorsArePositioned: a package that does not compile gives one
// error per compiler message, at its file and line, not one blob.
func TestCompileErrorsArePositioned(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"go.mod": goMod})
	src := "package m\n\nfunc F() int {\n\tx := 1\n\treturn undefinedName\n}\n"
	ds := runLint(t, newDriver(t), &capabilities.Request{Root: root, Files: []string{"a.go"}, All: docs(map[string]string{"a.go": src})})
	var got []string
	for _, d := range ds {
		got = append(got, fmt.Sprintf("%s:%d:%d %s %s", d.Path, d.Line, d.Column, d.Severity, d.Message))
	}
	want := []string{"a.go:4:2 error declared and not used: x", "a.go:5:9 error undefined: undefinedName"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestInheritKeepsTheStage: a request that still runs on the replaced
// driver after a re-probe handed its stage over does not make the
// replaced driver's Close remove the stage its heir uses; the heir's
// Close removes it.
func TestInheritKeepsTheStage(t *testing.T) {
	root := t.TempDir()
	testtree.Write(t, root, map[string]string{"go.mod": goMod, "a.go": clean})
	req := func() *capabilities.Request { // a change: the run is staged
		return &capabilities.Request{Root: root, Files: []string{"a.go"}, All: docs(map[string]string{"a.go": dead}), Changed: []string{"a.go"}}
	}
	old, heir := newDriver(t), newDriver(t)
	runLint(t, old, req())
	heir.Inherit(old)
	runLint(t, old, req()) // a request on the old set, before the swap
	st, err := heir.stage(root)
	if err != nil {
		t.Fatal(err)
	}
	staged := filepath.Join(st.tree, st.rootRel, "a.go")
	if _, err := os.Stat(staged); err != nil {
		t.Fatalf("the module is not staged: %v", err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(staged); err != nil {
		t.Fatalf("the replaced driver's Close removed the stage its heir took over: %v", err)
	}
	// Two re-probes while a request still runs on the first driver: the
	// middle one closes first, and the first's Close leaves the stage to
	// the last.
	first, last := heir, newDriver(t)
	last.Inherit(heir)
	third := newDriver(t)
	third.Inherit(last)
	if err := last.Close(); err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(staged); err != nil {
		t.Fatalf("a replaced driver's Close removed the stage of its heir's heir: %v", err)
	}
	if err := third.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(st.dir); !os.IsNotExist(err) {
		t.Fatalf("the last heir's Close left its stage: %v", err)
	}
}
