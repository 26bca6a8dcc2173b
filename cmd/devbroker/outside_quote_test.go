package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// TestCgoIncludeOutsideTheRoot: a Go file of an untrusted root whose cgo
// preamble includes a file outside the root (by a relative path that
// leaves it, an absolute path, or a directory symlink that leaves it), and
// a C file that does: gcc and clangd read it, and quote it in their
// errors, but no answer carries its text, on any surface (check and lint,
// text, JSON and SARIF, the MCP check tool's text and structured result,
// and go build and go vet once the root is trusted and configured to
// check with them). The diagnostics still say what failed: the include
// chain and the place of each error, with the text withheld.
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
		if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
			t.Fatalf("devbroker %s: %v\n%s", strings.Join(args, " "), err, out.String())
		}
		if strings.Contains(out.String(), secretMark) {
			t.Errorf("devbroker %s quotes the file outside the root:\n%s", strings.Join(args, " "), out.String())
		}
		return out.String()
	}
	text := run("check", "--root", root)
	for _, want := range []string{
		"In file included from a/a.go:3:",
		"a/../../outside/key.h:1:1: error: [text withheld: the file is outside the root]",
		"../outside/key.h:1:1: error: [text withheld: the file is outside the root]", // the go command shortens b's absolute path
		"c/link/key.h:1:1: error: [text withheld: the file is outside the root]",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("check does not say %q:\n%s", want, text)
		}
	}
	if clangd == nil && !strings.Contains(text, "x/x.c:1:10: error: In included file: [text withheld: the file is outside the root]") {
		t.Errorf("check does not say what clangd found in x/x.c:\n%s", text)
	}
	run("check", "--root", root, "--format", "json")
	run("check", "--root", root, "--format", "sarif")
	run("lint", "--root", root)
	run("lint", "--root", root, "--format", "json")
	run("lint", "--root", root, "--format", "sarif")

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
	if !strings.Contains(resultText(res), "a/../../outside/key.h:1:1: error: [text withheld: the file is outside the root]") {
		t.Errorf("the MCP check does not say where the include failed:\n%s", resultText(res))
	}
}
