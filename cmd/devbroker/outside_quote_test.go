package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// secretKey is the body of a fake private key outside the root: ten
// lines, nine of them C identifiers, so that gcc reports (and quotes)
// several of them.
var secretKey = func() string {
	var b strings.Builder
	for i := range 9 {
		fmt.Fprintf(&b, "SECRETK%02dMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\n", i)
	}
	b.WriteString("-----END FAKE PRIVATE KEY-----\n")
	return b.String()
}()

// secretMark is in every line of secretKey that gcc could quote.
const secretMark = "SECRETK0"

// TestCgoIncludeOutsideTheRoot: a Go file of a root whose cgo preamble
// includes a file outside the root (by a relative path that leaves it, an
// absolute path, or a directory symlink that leaves it), and a C file
// that does. In a root the user has not trusted, no compiler and no
// clangd reads it: each include is refused, naming the including file and
// the outside path, and clangd is not sent the C file. Trusted, gcc and
// clangd read it and quote it in their errors, but no answer carries its
// text, on any surface (check and lint, text, JSON and SARIF, the MCP
// check tool's text and structured result, and go build and go vet once
// the root is configured to check with them): the diagnostics say what
// failed, the include chain and the place of each error, with the text
// withheld.
func TestCgoIncludeOutsideTheRoot(t *testing.T) {
	for _, tool := range []string{"go", "gopls", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s (make tools installs gopls; gcc is the C compiler cgo runs)", tool)
		}
	}
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	testtree.Write(t, outside, map[string]string{"key.h": secretKey})
	files := map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\n// #include \"../../outside/key.h\"\nimport \"C\"\n\nfunc A() {}\n",
		"b/b.go": "package b\n\n// #include \"" + filepath.Join(outside, "key.h") + "\"\nimport \"C\"\n\nfunc B() {}\n",
		"c/c.go": "package c\n\n// #include \"link/key.h\"\nimport \"C\"\n\nfunc CC() {}\n",
	}
	_, clangd := exec.LookPath("clangd")
	if clangd == nil {
		files["x/x.c"] = "#include \"../../outside/key.h\"\nint main(void) { return 0; }\n"
	}
	testtree.Write(t, root, files)
	if err := os.Symlink("../../outside", filepath.Join(root, "c", "link")); err != nil {
		t.Fatal(err)
	}
	bin := devbrokerBin(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1 && ee.ExitCode() != 2) {
			t.Fatalf("devbroker %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		if strings.Contains(out.String(), secretMark) {
			t.Errorf("devbroker %s quotes the file outside the root:\n%s", strings.Join(args, " "), out.String())
		}
		return out.String()
	}
	const refused = ", which is outside the root: C code in a root you have not trusted may not read files outside it; devbroker trust lifts this"
	text := run("check", "--root", root)
	for _, want := range []string{
		"a/a.go:3: error: includes ../outside/key.h" + refused,
		"b/b.go:3: error: includes ../outside/key.h" + refused, // the go command shortens b's absolute path
		"c/c.go:3: error: includes c/link/key.h (" + filepath.Join(outside, "key.h") + ")" + refused,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("check does not say %q:\n%s", want, text)
		}
	}
	if clangd == nil && !strings.Contains(text, `clangd does not answer about these files in a root you have not trusted, since it would read a file outside the root: x/x.c:1: #include "../../outside/key.h" may read `+filepath.Join(outside, "key.h")) {
		t.Errorf("check does not say why clangd did not check x/x.c:\n%s", text)
	}
	run("check", "--root", root, "--format", "json")
	run("check", "--root", root, "--format", "sarif")
	run("lint", "--root", root)

	// Trusted: the compilers read the file, and their quotes are withheld.
	text = run("check", "--root", root, "--trust")
	for _, want := range []string{
		"In file included from a/a.go:3:",
		"a/../../outside/key.h:1:1: error: [text withheld: the file is outside the root]",
		"../outside/key.h:1:1: error: [text withheld: the file is outside the root]", // the go command shortens b's absolute path
		"c/link/key.h:1:1: error: [text withheld: the file is outside the root]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("check --trust does not say %q:\n%s", want, text)
		}
	}
	if clangd == nil && !strings.Contains(text, "x/x.c:1:10: error: In included file: [text withheld: the file is outside the root]") {
		t.Errorf("check --trust does not say what clangd found in x/x.c:\n%s", text)
	}
	run("check", "--root", root, "--trust", "--format", "json")
	run("check", "--root", root, "--trust", "--format", "sarif")
	run("lint", "--root", root, "--trust")
	run("lint", "--root", root, "--trust", "--format", "json")
	run("lint", "--root", root, "--trust", "--format", "sarif")

	// go build and go vet check a trusted root configured so.
	testtree.Write(t, root, map[string]string{".devbroker.toml": "[languages.go]\ncheck = [\"go-build + go-vet\"]\n"})
	if out := run("check", "--root", root, "--trust", "--format", "json"); !strings.Contains(out, `"driver": "go-build"`) {
		t.Errorf("go build did not check:\n%s", out)
	}
	if err := os.Remove(filepath.Join(root, ".devbroker.toml")); err != nil {
		t.Fatal(err)
	}

	// The MCP check tool: its text and its structured result.
	cs := connectStdio(t, root)
	res := callTool(t, cs, "check", map[string]any{"paths": []string{"**/*.go"}})
	structured, _ := json.Marshal(res.StructuredContent)
	if got := resultText(res) + string(structured); strings.Contains(got, secretMark) {
		t.Errorf("the MCP check quotes the file outside the root:\n%s", got)
	}
	if !strings.Contains(resultText(res), "a/a.go:3: error: includes ../outside/key.h"+refused) {
		t.Errorf("the MCP check does not say which include it refused:\n%s", resultText(res))
	}
}

// macroSecret is a header outside the root whose macros are a fake
// private key: a compiler prints a macro's value where the root's code
// expands it (a failed static assertion's message, an unknown
// instruction), on a line of the root.
var macroSecret = func() string {
	var b strings.Builder
	for i := range 4 {
		fmt.Fprintf(&b, "#define KEY%d \"SECRETK%02dMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\"\n", i, i)
	}
	b.WriteString("#define ASMKEY SECRETK09MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\n")
	return b.String()
}()

// TestOutsideMacroNeverAnswered: in a root the user has not trusted, a
// macro defined in a header outside the root and expanded in the root's
// code never reaches an answer: through gopls's cgo (a preamble, and a C
// file of the package), through the go build of assembly that gopls does
// not compile, through clangd's check and hover; on the command line and
// over MCP. The root's cgo code that includes only the system's headers
// keeps gcc's verdict. Trusted, the same root gets the compilers' errors
// as before.
func TestOutsideMacroNeverAnswered(t *testing.T) {
	for _, tool := range []string{"go", "gopls", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s (make tools installs gopls; gcc is the C compiler cgo runs)", tool)
		}
	}
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, outside := filepath.Join(base, "root"), filepath.Join(base, "outside")
	testtree.Write(t, outside, map[string]string{"key.h": macroSecret})
	files := map[string]string{
		"go.mod":        "module example.com/m\n\ngo 1.22\n",
		"pre/pre.go":    "package pre\n\n// #include \"../../outside/key.h\"\n// _Static_assert(0, KEY0);\nimport \"C\"\n\nfunc P() {}\n",
		"cf/cf.go":      "package cf\n\nimport \"C\"\n\nfunc F() {}\n",
		"cf/cf.c":       "#include \"../../outside/key.h\"\n_Static_assert(0, KEY1);\n",
		"sys/sys.go":    "package sys\n\n// #include <stdio.h>\n// _Static_assert(sizeof(int) == 3, \"int is not three bytes\");\nimport \"C\"\n\nfunc S() {}\n",
		"asm/asm.go":    "package asm\n\nfunc F()\n",
		"asm/a_amd64.s": "#include \"../../outside/key.h\"\n#include \"textflag.h\"\nTEXT ·F(SB),NOSPLIT,$0\n\tASMKEY\n\tRET\n",
		"asm/a_arm64.s": "#include \"../../outside/key.h\"\n#include \"textflag.h\"\nTEXT ·F(SB),NOSPLIT,$0\n\tASMKEY\n\tRET\n",
	}
	_, clangd := exec.LookPath("clangd")
	if clangd == nil {
		files["x/x.c"] = "#include \"../../outside/key.h\"\n_Static_assert(0, KEY2);\nconst char *k = KEY3;\n"
	}
	testtree.Write(t, root, files)
	bin := devbrokerBin(t)
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		err := cmd.Run()
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1 && ee.ExitCode() != 2) {
			t.Fatalf("devbroker %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		return out.String()
	}
	never := func(what, out string) {
		t.Helper()
		if strings.Contains(out, secretMark) {
			t.Errorf("%s carries the macro's value from outside the root:\n%s", what, out)
		}
	}
	text := run("check", "--root", root)
	never("check", text)
	asmLine := "a_" + runtime.GOARCH + ".s:1:1: error: #include \"../../outside/key.h\" reads ../outside/key.h, which is outside the root"
	for _, want := range []string{
		"pre/pre.go:3: error: includes ../outside/key.h, which is outside the root",
		"cf/cf.c:1: error: includes ../outside/key.h, which is outside the root",
		"sys/sys.go:4:2: error: static assertion failed: \"int is not three bytes\"",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("check does not say %q:\n%s", want, text)
		}
	}
	if (runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64") && !strings.Contains(text, asmLine) {
		t.Errorf("check does not say %q:\n%s", asmLine, text)
	}
	for _, args := range [][]string{
		{"check", "--root", root, "--format", "json"},
		{"check", "--root", root, "--format", "sarif"},
		{"lint", "--root", root},
		{"probe", "--root", root},
	} {
		never(strings.Join(args[:1], " "), run(args...))
	}
	if clangd == nil {
		const withheld = "clangd: not sent the files that would make it read outside the root before you trust it: "
		if out := run("probe", "--root", root); !strings.Contains(out, withheld+"cf/cf.c:1: #include") || !strings.Contains(out, "devbroker trust "+root) {
			t.Errorf("probe does not say what clangd is not sent:\n%s", out)
		}
		if !strings.Contains(text, "x/x.c not checked") {
			t.Errorf("check does not say that clangd did not check x/x.c:\n%s", text)
		}
		out := run("hover", "--root", root, "x/x.c:3:17")
		never("hover", out)
		if !strings.Contains(out, "unchecked") || !strings.Contains(out, "devbroker trust "+root) {
			t.Errorf("hover does not say why it is unchecked:\n%s", out)
		}
	}

	// MCP: the check tool, and hover through dev_plan.
	cs := connectStdio(t, root)
	res := callTool(t, cs, "check", map[string]any{"paths": []string{"**/*.go", "**/*.c"}})
	structured, _ := json.Marshal(res.StructuredContent)
	never("the MCP check", resultText(res)+string(structured))
	if !strings.Contains(resultText(res), "pre/pre.go:3: error: includes ../outside/key.h") {
		t.Errorf("the MCP check does not say which include it refused:\n%s", resultText(res))
	}
	if clangd == nil {
		res = callTool(t, cs, "probe", map[string]any{})
		structured, _ = json.Marshal(res.StructuredContent)
		never("the MCP probe", resultText(res)+string(structured))
		if !strings.Contains(resultText(res), "clangd: not sent the files") || !strings.Contains(string(structured), `"withheld":`) {
			t.Errorf("the MCP probe does not say what clangd is not sent:\n%s", resultText(res))
		}
		res = callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"x/x.c"}, "ops": []any{map[string]any{"step": "hover", "args": map[string]any{"path": "x/x.c", "line": 3, "column": 17}}}})
		structured, _ = json.Marshal(res.StructuredContent)
		never("the MCP hover", resultText(res)+string(structured))
		if !strings.Contains(resultText(res), "unchecked") {
			t.Errorf("the MCP hover is not unchecked:\n%s", resultText(res))
		}
	}

	// Trusted: the compilers' own errors, as before.
	text = run("check", "--root", root, "--trust")
	for _, want := range []string{"pre/pre.go:4:2: error: static assertion failed", "cf.c:2:1: error: static assertion failed", "int is not three bytes"} {
		if !strings.Contains(text, want) {
			t.Errorf("check --trust does not say %q:\n%s", want, text)
		}
	}
}
