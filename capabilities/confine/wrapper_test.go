package confine

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

func TestMain(m *testing.M) {
	code := m.Run()
	Cleanup()
	os.Exit(code)
}

// secretMark is in every line of the fake secret outside the root.
const secretMark = "SECRETK0"

// secretHeader defines macros whose values are the secret, and a line a
// compiler would quote.
var secretHeader = func() string {
	var b strings.Builder
	for i := range 4 {
		fmt.Fprintf(&b, "#define KEY%d \"SECRETK%02dMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw\"\n", i, i)
	}
	b.WriteString("#define KEY KEY0\n")
	return b.String()
}()

// needTools skips a test without the go command and gcc.
func needTools(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the compiler wrapper is written on Unix; Windows turns cgo off")
	}
	for _, tool := range []string{"go", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s", tool)
		}
	}
}

// cgoRoot writes a root beside a directory outside it that holds the
// secret, and returns both.
func cgoRoot(t *testing.T, files map[string]string) (root, outside string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, outside = filepath.Join(base, "root"), filepath.Join(base, "outside")
	testtree.Write(t, outside, map[string]string{
		"secret.h": secretHeader,
		// A line gcc quotes, then a fatal error: no -MD rule is written.
		"fatal.h": "_Static_assert(0, \"SECRETK09 quoted before the fatal error\");\n#include \"missing-header.h\"\n",
		"k.h":     "#define ASMKEY SECRETK05MIIEv\n",
	})
	testtree.Write(t, root, map[string]string{"go.mod": "module example.com/m\n\ngo 1.22\n"})
	testtree.Write(t, root, files)
	return root, outside
}

// goBuild runs go build on pkg in root with env added, and returns its
// output and whether it built.
func goBuild(t *testing.T, root string, env []string, pkg string) (string, bool) {
	t.Helper()
	cmd := exec.Command("go", "build", "-o", os.DevNull, pkg)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		if _, ok := err.(*exec.ExitError); !ok {
			t.Fatalf("go build %s: %v", pkg, err)
		}
	}
	return string(out), err == nil
}

// TestCompilerWrapper: go build in a root the user has not trusted, with
// Env's compilers and toolexec: every way a cgo package or an assembly
// file reaches a file outside the root is refused with one line naming
// the including file and the outside path, never the file's text; what
// includes only the root's and the system's files builds, or fails with
// the compiler's own words.
func TestCompilerWrapper(t *testing.T) {
	needTools(t)
	root, outside := cgoRoot(t, map[string]string{
		"rel/rel.go":      "package rel\n\n// #include \"../../outside/secret.h\"\n// _Static_assert(0, KEY);\nimport \"C\"\n",
		"abs/abs.go":      "package abs\n\n// #include \"OUTSIDE/secret.h\"\n// _Static_assert(0, KEY1);\nimport \"C\"\n",
		"link/link.go":    "package link\n\n// #include \"lnk/secret.h\"\n// _Static_assert(0, KEY2);\nimport \"C\"\n",
		"dotdot/d.go":     "package dotdot\n\n// #include \"lnk/../outside/secret.h\"\n// _Static_assert(0, KEY3);\nimport \"C\"\n",
		"flag/flag.go":    "package flag\n\n// #cgo CFLAGS: -I${SRCDIR}/../../outside\n// #include \"secret.h\"\n// _Static_assert(0, KEY);\nimport \"C\"\n",
		"inc/inc.go":      "package inc\n\n// #cgo CFLAGS: -include ${SRCDIR}/../../outside/secret.h\n// _Static_assert(0, KEY);\nimport \"C\"\n",
		"fatal/fatal.go":  "package fatal\n\n// #include \"../../outside/fatal.h\"\nimport \"C\"\n",
		"cfile/c.go":      "package cfile\n\nimport \"C\"\n",
		"cfile/c.c":       "#include \"../../outside/secret.h\"\n_Static_assert(0, KEY);\n",
		"sys/sys.go":      "package sys\n\n// #include <stdio.h>\n// #include \"local.h\"\n// _Static_assert(sizeof(int) == 3, \"int is not three bytes\");\nimport \"C\"\n",
		"sys/local.h":     "#define LOCAL 1\n",
		"ok/ok.go":        "package ok\n\n// #include <string.h>\n// #include \"local.h\"\n// static int f(void) { return (int)strlen(\"x\") + LOCAL; }\nimport \"C\"\n\nfunc F() int { return int(C.f()) }\n",
		"ok/local.h":      "#define LOCAL 1\n",
		"asm/a.go":        "package asm\n\nfunc F()\n",
		"asm/a_amd64.s":   "#include \"../../outside/k.h\"\n#include \"textflag.h\"\nTEXT ·F(SB),NOSPLIT,$0\n\tASMKEY\n\tRET\n",
		"asm/a_arm64.s":   "#include \"../../outside/k.h\"\n#include \"textflag.h\"\nTEXT ·F(SB),NOSPLIT,$0\n\tASMKEY\n\tRET\n",
		"asmok/a.go":      "package asmok\n\nfunc F()\n",
		"asmok/a_amd64.s": "#include \"textflag.h\"\nTEXT ·F(SB),NOSPLIT,$0\n\tRET\n",
		"asmok/a_arm64.s": "#include \"textflag.h\"\nTEXT ·F(SB),NOSPLIT,$0\n\tRET\n",
	})
	abs := filepath.Join(root, "abs", "abs.go")
	src, _ := os.ReadFile(abs)
	testtree.Write(t, root, map[string]string{"abs/abs.go": strings.Replace(string(src), "OUTSIDE", outside, 1)})
	if err := os.Symlink(outside, filepath.Join(root, "link", "lnk")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..", filepath.Join(root, "dotdot", "lnk")); err != nil {
		t.Fatal(err) // dotdot/lnk/.. is the root's parent, where outside is
	}
	env, err := Env(root, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		pkg  string
		want string // in the refusal
	}{
		// The go command shortens the paths under its directory's parent.
		{"./rel", "rel/rel.go:3: error: includes ../outside/secret.h,"},
		{"./abs", "abs/abs.go:3: error: includes ../outside/secret.h,"},
		{"./link", "link.go:3: error: includes "},
		{"./dotdot", "d.go:3: error: includes "},
		{"./flag", "flag.go:4: error: includes "},
		{"./inc", "cgo: error: an -include flag reads ../outside/secret.h,"},
		{"./fatal", "fatal.go:3: error: includes "},
		{"./cfile", "c.c:1: error: includes "},
		{"./asm", "a_" + runtime.GOARCH + ".s:1: #include \"../../outside/k.h\" reads "},
	} {
		t.Run(strings.TrimPrefix(c.pkg, "./"), func(t *testing.T) {
			if c.pkg == "./asm" && runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
				t.Skip("the assembly is for amd64 and arm64")
			}
			out, built := goBuild(t, root, env, c.pkg)
			t.Logf("go build %s:\n%s", c.pkg, out)
			if built {
				t.Fatalf("go build %s built:\n%s", c.pkg, out)
			}
			if strings.Contains(out, secretMark) {
				t.Errorf("go build %s quotes the file outside the root:\n%s", c.pkg, out)
			}
			if !strings.Contains(out, c.want) || !strings.Contains(out, "outside the root") || !strings.Contains(out, "devbroker trust lifts this") {
				t.Errorf("go build %s does not say %q:\n%s", c.pkg, c.want, out)
			}
		})
	}
	// Only the root's and the system's files: the compiler's own verdict.
	out, built := goBuild(t, root, env, "./sys")
	if built || !strings.Contains(out, "int is not three bytes") || strings.Contains(out, "outside the root") {
		t.Errorf("go build ./sys (built %v) does not give gcc's error:\n%s", built, out)
	}
	for _, pkg := range []string{"./ok", "./asmok"} {
		if out, built := goBuild(t, root, env, pkg); !built {
			t.Errorf("go build %s fails:\n%s", pkg, out)
		}
	}
	// Without the confinement (a trusted root), the same build quotes the
	// secret: the refusals above are the wrapper's.
	if out, _ := goBuild(t, root, nil, "./rel"); !strings.Contains(out, secretMark) {
		t.Errorf("an unconfined go build ./rel does not quote the secret (the test proves nothing):\n%s", out)
	}
}

// TestEnvIsStable: the same root and environment give the same variables
// (a language server's configuration must not change from one load to
// the next), and the user's CC, CXX and -toolexec are kept for the
// wrapper to run.
func TestEnvIsStable(t *testing.T) {
	needTools(t)
	root := t.TempDir()
	base := append(os.Environ(), "CC=gcc -std=gnu11", "CXX=g++", "GOFLAGS=-mod=mod '-toolexec=/usr/bin/env X=1'")
	a, err := Env(root, base)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Env(root, base)
	if err != nil {
		t.Fatal(err)
	}
	if !slicesEqual(a, b) {
		t.Fatalf("Env differs between calls:\n%q\n%q", a, b)
	}
	dir, _ := lookup(a, EnvVar)
	spec, err := readSpec(dir)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(spec.CC, " ") != "gcc -std=gnu11" || strings.Join(spec.CXX, " ") != "g++" || strings.Join(spec.Toolexec, " ") != "/usr/bin/env X=1" {
		t.Errorf("spec %+v", spec)
	}
	goflags, _ := lookup(a, "GOFLAGS")
	flags, err := split(goflags)
	if err != nil || len(flags) != 2 || flags[0] != "-mod=mod" || !strings.HasPrefix(flags[1], "-toolexec=") || !strings.HasSuffix(flags[1], " "+ToolexecArg) {
		t.Errorf("GOFLAGS=%s (%v)", goflags, err)
	}
	for _, k := range []string{"CC", "CXX", "TMPDIR", "GOTMPDIR"} {
		v, _ := lookup(a, k)
		if !strings.HasPrefix(v, dir) && !strings.HasPrefix(v, "'"+dir) {
			t.Errorf("%s=%s is not in the private directory %s", k, v, dir)
		}
	}
}

func slicesEqual(a, b []string) bool {
	return bytes.Equal([]byte(strings.Join(a, "\x00")), []byte(strings.Join(b, "\x00")))
}
