package main

// End-to-end tests of issue 20: the verdict is never staler than the disk.
// Each test runs one long-running `devbroker serve --mcp` (the real binary,
// driven by the Go SDK's client over stdio) on a small module, checks it
// (clean), then changes an input of the build the way a user or another
// program does, and compares the answer of check with the go command's:
// whenever `go build` fails, check must not answer ok.
//
// The check of main.go is compared with `go build .` (main's package and
// everything it imports), the check of **/*.go with `go build ./...`.
// What makes gopls see each change is in the research notes of the issue
// (which input is told to the server, by which path, and how).

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// freshTimeout bounds every wait of these tests: a server's start, a
// probe, a check, a go build. It is generous for a loaded machine; the
// drivers' own timeouts are raised to it (freshConfig) so that no answer
// depends on a driver's default timeout.
const freshTimeout = 10 * time.Minute

// freshConfig is the user configuration the server runs under: the
// defaults, with every Go driver's timeout raised to freshTimeout.
const freshConfig = `[drivers.gopls]
timeout = "10m"

[drivers.go-build]
timeout = "10m"

[drivers.go-vet]
timeout = "10m"

[drivers.staticcheck]
timeout = "10m"
`

// freshResult is the part of the structured DevResult these tests read.
// driverStatus is one driver's line of an answer's "drivers".
type driverStatus struct {
	Driver  string `json:"driver"`
	Status  string `json:"status"`
	Message string `json:"message"`
}

type freshResult struct {
	OK          bool `json:"ok"`
	Diagnostics []struct {
		Path     string `json:"path"`
		Line     int    `json:"line"`
		Severity string `json:"severity"`
		Source   string `json:"source"`
		Message  string `json:"message"`
	} `json:"diagnostics"`
	Drivers []driverStatus `json:"drivers"`
	Error   *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

// String is the answer in short, for a failure's message.
func (r freshResult) String() string {
	var b strings.Builder
	if r.OK {
		b.WriteString("ok")
	} else {
		b.WriteString("not ok")
	}
	if len(r.Diagnostics) == 0 {
		b.WriteString(", 0 diagnostics")
	}
	for _, d := range r.Diagnostics {
		b.WriteString("\n  " + d.Severity + " " + d.Path + ":" + itoa(d.Line) + ": " + d.Message + " (" + d.Source + ")")
	}
	for _, d := range r.Drivers {
		b.WriteString("\n  driver " + d.Driver + ": " + d.Status)
		if d.Message != "" {
			b.WriteString(": " + d.Message)
		}
	}
	if r.Error != nil {
		b.WriteString("\n  error " + r.Error.Kind + ": " + r.Error.Message)
	}
	return b.String()
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// hasError reports whether the answer says something is wrong: an error
// diagnostic, a driver status other than ok, or a step error.
func (r freshResult) hasError() bool {
	if r.Error != nil {
		return true
	}
	for _, d := range r.Diagnostics {
		if d.Severity == "error" {
			return true
		}
	}
	for _, d := range r.Drivers {
		if d.Status != "ok" {
			return true
		}
	}
	return false
}

// freshTree writes files (slash paths relative to a new directory, the
// base) and returns the base and the root, base/root, both with symbolic
// links resolved. A content "->target" makes a symbolic link to target.
func freshTree(t *testing.T, files map[string]string) (base, root string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for rel, content := range files {
		p := filepath.Join(base, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, "->"); ok {
			if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return base, filepath.Join(base, "root")
}

// goCommand runs the go command in dir and returns its combined output and
// whether it succeeded.
func goCommand(t *testing.T, dir string, args ...string) (string, bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), freshTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("go %s in %s did not finish within %s", strings.Join(args, " "), dir, freshTimeout)
	}
	return strings.TrimSpace(string(out)), err == nil
}

// freshConnect starts `devbroker serve --mcp` on root under freshConfig
// and waits until it advertises check and lint, which need gopls (the test
// is skipped without it) and the go command.
func freshConnect(t *testing.T, root string) *sdk.ClientSession {
	t.Helper()
	if _, err := exec.LookPath("gopls"); err != nil {
		t.Skip("needs gopls on PATH (make tools installs it)")
	}
	if !probeAvailable(t, root)["driver:gopls"] {
		t.Skip("no gopls driver found by the probe")
	}
	cfg := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cfg, "devbroker"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "devbroker", "config.toml"), []byte(freshConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	// XDG_CONFIG_HOME moves the go command's own configuration too: keep
	// it where it is.
	goenv, _ := goCommand(t, root, "env", "GOENV")
	ctx, cancel := context.WithTimeout(context.Background(), freshTimeout)
	defer cancel()
	w, err := connectWatching(ctx, t, root, []string{"XDG_CONFIG_HOME=" + cfg, "GOENV=" + goenv}, "--tools", "full") // lint and check as tools of their own
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	w.waitTools(ctx, t, func(tools []string) bool {
		return slices.Contains(tools, "check") && slices.Contains(tools, "lint")
	})
	return w.cs
}

// freshCall calls a tool that answers a DevResult, within freshTimeout.
func freshCall(t *testing.T, cs *sdk.ClientSession, name string, args map[string]any) freshResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), freshTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error: %v", name, args, err)
	}
	if res.StructuredContent == nil {
		t.Fatalf("%s %v: no structured answer: %s", name, args, resultText(res))
	}
	var r freshResult
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("%s %v: structured content %s: %v", name, args, b, err)
	}
	return r
}

// freshEdit calls edit_file and fails the test unless it succeeded.
func freshEdit(t *testing.T, cs *sdk.ClientSession, args map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), freshTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "edit_file", Arguments: args})
	if err != nil {
		t.Fatalf("edit_file %v: protocol error: %v", args, err)
	}
	if res.IsError {
		t.Fatalf("edit_file %v: %s", args, resultText(res))
	}
}

// freshCase is one change of a build input.
type freshCase struct {
	// files is the tree, relative to the base; the root is base/root, a
	// module whose main.go is the file checked.
	files map[string]string
	// setup, when set, runs after the tree is written, before the server
	// starts (go mod vendor, a hard link).
	setup func(t *testing.T, base string)
	// change makes the change under test, by another program (on disk) or
	// through the server (cs).
	change func(t *testing.T, cs *sdk.ClientSession, base string)
}

// runFresh builds the tree, checks main.go through a long-running server
// (ok), makes the change, and checks main.go and **/*.go again: each check
// must not be ok while the go build it corresponds to fails.
func runFresh(t *testing.T, c freshCase) {
	t.Helper()
	base, root := freshTree(t, c.files)
	if c.setup != nil {
		c.setup(t, base)
	}
	if out, ok := goCommand(t, root, "build", "./..."); !ok {
		t.Fatalf("the module does not build before the change (the test is wrong):\n%s", out)
	}
	cs := freshConnect(t, root)
	if r := freshCall(t, cs, "check", map[string]any{"paths": []string{"main.go"}}); !r.OK {
		t.Fatalf("check main.go before the change: %s", r)
	}

	c.change(t, cs, base)

	pkgOut, pkgOK := goCommand(t, root, "build", "-o", os.DevNull, ".")
	allOut, allOK := goCommand(t, root, "build", "./...")
	if pkgOK || allOK {
		t.Fatalf("the change did not break the build (the test is wrong): go build . ok=%v, go build ./... ok=%v:\n%s\n%s", pkgOK, allOK, pkgOut, allOut)
	}
	if r := freshCall(t, cs, "check", map[string]any{"paths": []string{"main.go"}}); r.OK || !r.hasError() {
		t.Errorf("check main.go answered %s\nwhile go build . fails:\n%s", r, pkgOut)
	}
	if r := freshCall(t, cs, "check", map[string]any{"paths": []string{"**/*.go"}}); r.OK || !r.hasError() {
		t.Errorf("check **/*.go answered %s\nwhile go build ./... fails:\n%s", r, allOut)
	}
}

// rewriteInPlace replaces old by new in the file at p, writing through the
// same inode (O_TRUNC), as an editor that does not rename does.
func rewriteInPlace(t *testing.T, p, old, new string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s does not hold %q", p, old)
	}
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(strings.Replace(string(b), old, new, 1)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

const (
	freshGoMod  = "module example.com/m\n\ngo 1.22\n"
	freshDepGo  = "package dep\n\n// F is what main calls.\nfunc F() int { return 1 }\n"
	freshMainGo = "package main\n\nimport \"example.com/m/dep\"\n\nfunc main() { _ = dep.F() }\n"
)

// replaceModule is a module that requires example.com/dep from ../dep.
var replaceModule = map[string]string{
	"dep/go.mod":   "module example.com/dep\n\ngo 1.22\n",
	"dep/dep.go":   freshDepGo,
	"root/go.mod":  freshGoMod + "\nrequire example.com/dep v0.0.0\n\nreplace example.com/dep => ../dep\n",
	"root/main.go": "package main\n\nimport \"example.com/dep\"\n\nfunc main() { _ = dep.F() }\n",
}

// A replace directory outside the root (the usual monorepo layout), and an
// edit of its Go file by another program.
func TestFreshReplaceDirOutsideRoot(t *testing.T) {
	runFresh(t, freshCase{
		files: replaceModule,
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			rewriteInPlace(t, filepath.Join(base, "dep/dep.go"), "func F()", "func G()")
		},
	})
}

// A //go:embed pattern whose file is deleted.
func TestFreshEmbeddedFileDeleted(t *testing.T) {
	runFresh(t, freshCase{
		files: map[string]string{
			"root/go.mod":   freshGoMod,
			"root/main.go":  "package main\n\nimport _ \"embed\"\n\n//go:embed data.txt\nvar data string\n\nfunc main() { println(data) }\n",
			"root/data.txt": "hello\n",
		},
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			if err := os.Remove(filepath.Join(base, "root/data.txt")); err != nil {
				t.Fatal(err)
			}
		},
	})
}

// cgoModule is a module whose package dep calls f, declared in dep/x.h
// (which its cgo preamble includes) and defined in dep/c.c.
var cgoModule = map[string]string{
	"root/go.mod":     freshGoMod,
	"root/main.go":    freshMainGo,
	"root/dep/dep.go": "package dep\n\n// #include \"x.h\"\nimport \"C\"\n\n// F is what main calls.\nfunc F() int { return int(C.f()) }\n",
	"root/dep/x.h":    "int f(void);\n",
	"root/dep/c.c":    "#include \"x.h\"\n\nint f(void) { return 1; }\n",
}

// needsCgo skips a test where cgo cannot build: CGO_ENABLED off, or no C
// compiler.
func needsCgo(t *testing.T) {
	t.Helper()
	out, _ := goCommand(t, ".", "env", "CGO_ENABLED", "CC")
	lines := strings.Fields(out)
	if len(lines) < 2 || lines[0] != "1" {
		t.Skip("needs cgo (CGO_ENABLED=1)")
	}
	if _, err := exec.LookPath(lines[1]); err != nil {
		t.Skipf("needs a C compiler for cgo (%s): %v", lines[1], err)
	}
}

// cgo: a syntax error in a C file of the package.
func TestFreshCgoCFileSyntaxError(t *testing.T) {
	needsCgo(t)
	runFresh(t, freshCase{
		files: cgoModule,
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			rewriteInPlace(t, filepath.Join(base, "root/dep/c.c"), "return 1;", "return 1")
		},
	})
}

// cgo: a header the preamble includes no longer declares what Go calls.
func TestFreshCgoHeaderChanged(t *testing.T) {
	needsCgo(t)
	runFresh(t, freshCase{
		files: cgoModule,
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			rewriteInPlace(t, filepath.Join(base, "root/dep/x.h"), "int f(void);", "int g(void);")
		},
	})
}

// An assembly file of a package gets a syntax error. gopls does not
// assemble: only the go command sees this one. Not in the list of
// scenarios, but an input it names.
func TestFreshAssemblySyntaxError(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		t.Skip("the assembly is amd64's")
	}
	runFresh(t, freshCase{
		files: map[string]string{
			"root/go.mod":          freshGoMod,
			"root/main.go":         "package main\n\nimport \"example.com/m/dep\"\n\nfunc main() { _ = dep.Add(1, 2) }\n",
			"root/dep/dep.go":      "package dep\n\n// Add is in add_amd64.s.\nfunc Add(a, b int) int\n",
			"root/dep/add_amd64.s": "#include \"textflag.h\"\n\nTEXT ·Add(SB),NOSPLIT,$0-24\n\tMOVQ a+0(FP), AX\n\tADDQ b+8(FP), AX\n\tMOVQ AX, ret+16(FP)\n\tRET\n",
		},
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			rewriteInPlace(t, filepath.Join(base, "root/dep/add_amd64.s"), "ADDQ b+8(FP), AX", "ADDQ b+8(FP) AX")
		},
	})
}

// vendor/modules.txt loses a dependency: inconsistent vendoring.
func TestFreshVendorManifestLosesDependency(t *testing.T) {
	runFresh(t, freshCase{
		files: replaceModule,
		setup: func(t *testing.T, base string) {
			if out, ok := goCommand(t, filepath.Join(base, "root"), "mod", "vendor"); !ok {
				t.Fatalf("go mod vendor: %s", out)
			}
		},
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			p := filepath.Join(base, "root/vendor/modules.txt")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			var keep []string
			for _, l := range strings.SplitAfter(string(b), "\n") {
				if !strings.Contains(l, "example.com/dep") {
					keep = append(keep, l)
				}
			}
			if err := os.WriteFile(p, []byte(strings.Join(keep, "")), 0o644); err != nil {
				t.Fatal(err)
			}
		},
	})
}

// A go.work appears in the parent directory, listing another module but
// not the root's.
func TestFreshGoWorkAppearsInParent(t *testing.T) {
	runFresh(t, freshCase{
		files: map[string]string{
			"other/go.mod":    "module example.com/other\n\ngo 1.22\n",
			"other/other.go":  "package other\n",
			"root/go.mod":     freshGoMod,
			"root/main.go":    freshMainGo,
			"root/dep/dep.go": freshDepGo,
		},
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			if err := os.WriteFile(filepath.Join(base, "go.work"), []byte("go 1.22\n\nuse ./other\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		},
	})
}

// A Go package under node_modules/, which the module imports, edited by
// another program.
func TestFreshGoPackageUnderNodeModules(t *testing.T) {
	runFresh(t, freshCase{
		files: map[string]string{
			"root/go.mod":                  freshGoMod,
			"root/main.go":                 "package main\n\nimport \"example.com/m/node_modules/foo\"\n\nfunc main() { _ = foo.F() }\n",
			"root/node_modules/foo/foo.go": "package foo\n\n// F is what main calls.\nfunc F() int { return 1 }\n",
		},
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			rewriteInPlace(t, filepath.Join(base, "root/node_modules/foo/foo.go"), "func F()", "func G()")
		},
	})
}

// depModule is a module whose main calls dep.F.
var depModule = map[string]string{
	"root/go.mod":     freshGoMod,
	"root/main.go":    freshMainGo,
	"root/dep/dep.go": freshDepGo,
}

// A write through a hard link outside the root: the root's directory sees
// no event.
func TestFreshWriteThroughHardLink(t *testing.T) {
	runFresh(t, freshCase{
		files: depModule,
		setup: func(t *testing.T, base string) {
			if err := os.MkdirAll(filepath.Join(base, "elsewhere"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Link(filepath.Join(base, "root/dep/dep.go"), filepath.Join(base, "elsewhere/dep.go")); err != nil {
				t.Skipf("hard links: %v", err)
			}
		},
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			rewriteInPlace(t, filepath.Join(base, "elsewhere/dep.go"), "func F()", "func G()")
		},
	})
}

// A write in place that puts the file's old modification time back (as
// touch -r or a tool that keeps times does): the size, the inode and the
// mtime are those gopls read, only the content and the ctime differ. Not
// in the list; gopls keeps a file's content by inode and mtime
// whatever it is told, so telling it the path is not enough.
func TestFreshInPlaceWriteKeepsMtime(t *testing.T) {
	runFresh(t, freshCase{
		files: depModule,
		setup: func(t *testing.T, base string) {
			// Older than any cache's racy window: content read at the
			// first check is trusted by its times.
			old := time.Now().Add(-time.Hour)
			if err := os.Chtimes(filepath.Join(base, "root/dep/dep.go"), old, old); err != nil {
				t.Fatal(err)
			}
		},
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			p := filepath.Join(base, "root/dep/dep.go")
			st, err := os.Stat(p)
			if err != nil {
				t.Fatal(err)
			}
			rewriteInPlace(t, p, "func F()", "func G()")
			if err := os.Chtimes(p, st.ModTime(), st.ModTime()); err != nil {
				t.Fatal(err)
			}
		},
	})
}

// aliasModule has pkg2/dep.go, a symbolic link to ../dep/dep.go inside the
// root; main calls pkg2's F, so only the link's package breaks when the
// target's F goes.
var aliasModule = map[string]string{
	"root/go.mod":      freshGoMod,
	"root/main.go":     "package main\n\nimport dep2 \"example.com/m/pkg2\"\n\nfunc main() { _ = dep2.F() }\n",
	"root/dep/dep.go":  freshDepGo,
	"root/pkg2/dep.go": "->../dep/dep.go",
}

// A symlink alias whose target another program edits.
func TestFreshSymlinkAliasTargetEditedOutside(t *testing.T) {
	runFresh(t, freshCase{
		files: aliasModule,
		change: func(t *testing.T, _ *sdk.ClientSession, base string) {
			rewriteInPlace(t, filepath.Join(base, "root/dep/dep.go"), "func F()", "func G()")
		},
	})
}

// A symlink alias whose target devbroker's own edit_file edits.
func TestFreshSymlinkAliasTargetEditFile(t *testing.T) {
	runFresh(t, freshCase{
		files: aliasModule,
		change: func(t *testing.T, cs *sdk.ClientSession, base string) {
			p := filepath.Join(base, "root/dep/dep.go")
			freshEdit(t, cs, map[string]any{"command": "view", "file_path": p})
			freshEdit(t, cs, map[string]any{"command": "str_replace", "file_path": p, "old_str": "func F()", "new_str": "func G()"})
		},
	})
}

// A symlink alias whose target devbroker's own rename renames F in, and
// write writes.
func TestFreshSymlinkAliasTargetRenameAndWrite(t *testing.T) {
	runFresh(t, freshCase{
		files: aliasModule,
		change: func(t *testing.T, cs *sdk.ClientSession, base string) {
			r := freshCall(t, cs, "rename", map[string]any{"path": "dep/dep.go", "symbol": "F", "new_name": "G"})
			if !r.OK {
				t.Fatalf("rename: %s", r)
			}
			if w := freshCall(t, cs, "write", map[string]any{}); !w.OK {
				t.Fatalf("write: %s", w)
			}
			b, err := os.ReadFile(filepath.Join(base, "root/pkg2/dep.go"))
			if err != nil || !strings.Contains(string(b), "func G()") {
				t.Fatalf("after rename and write, pkg2/dep.go reads %q, %v; want G through the link", b, err)
			}
		},
	})
}

// The second half of the issue: after edit_file breaks a caller on disk,
// check, lint and a dev_plan check given no paths, in a session whose
// workspace holds nothing, must not answer ok: the CLI checks the root.
func TestFreshNoPathCheckAfterBreakingEdit(t *testing.T) {
	_, root := freshTree(t, map[string]string{
		"root/go.mod": freshGoMod,
		"root/a/a.go": "package a\n\n// F is used by b.\nfunc F() int { return 1 }\n",
		"root/b/b.go": "package b\n\nimport \"example.com/m/a\"\n\n// X is a's F.\nvar X = a.F()\n",
	})
	cs := freshConnect(t, root)
	a := filepath.Join(root, "a/a.go")
	freshEdit(t, cs, map[string]any{"command": "view", "file_path": a})
	freshEdit(t, cs, map[string]any{"command": "str_replace", "file_path": a,
		"old_str": "func F() int { return 1 }", "new_str": "func F(x int) int { return x }"})
	out, ok := goCommand(t, root, "build", "./...")
	if ok {
		t.Fatal("the edit did not break the build (the test is wrong)")
	}
	for _, call := range []struct {
		name string
		args map[string]any
	}{
		{"check", map[string]any{}},
		{"lint", map[string]any{}},
		{"dev_plan", map[string]any{"ops": []any{map[string]any{"step": "check"}}}},
	} {
		if r := freshCall(t, cs, call.name, call.args); r.OK || !r.hasError() {
			t.Errorf("%s %v after a breaking edit_file answered %s\nwhile go build ./... fails:\n%s", call.name, call.args, r, out)
		}
	}
}
