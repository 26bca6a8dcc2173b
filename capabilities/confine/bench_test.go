package confine

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// benchCompile runs argv on a small C file in dir, b.N times.
func benchCompile(b *testing.B, argv, env []string, dir string) {
	b.Helper()
	for b.Loop() {
		cmd := exec.Command(argv[0], append(argv[1:], "-c", "x.c", "-o", os.DevNull)...)
		cmd.Dir, cmd.Env = dir, env
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
		}
	}
}

// BenchmarkCompile: one compile of a file that includes a system header,
// by gcc itself (direct) and through the wrapper (wrapped): the cost the
// confinement adds to each compiler run of a cgo build.
func BenchmarkCompile(b *testing.B) {
	if _, err := exec.LookPath("gcc"); err != nil {
		b.Skip("needs gcc")
	}
	root := b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "x.c"), []byte("#include <stdio.h>\nint f(void) { return puts(\"x\"); }\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	env, err := Env(root, os.Environ())
	if err != nil {
		b.Fatal(err)
	}
	dir, _ := lookup(env, EnvVar)
	b.Run("direct", func(b *testing.B) { benchCompile(b, []string{"gcc"}, os.Environ(), root) })
	b.Run("wrapped", func(b *testing.B) {
		benchCompile(b, []string{filepath.Join(dir, "cc")}, append(os.Environ(), env...), root)
	})
}

// BenchmarkGoListCompiled: what gopls runs to load a cgo package (go list
// -compiled, its build cached), without and with the confinement's
// environment (the toolexec asks each tool its version through the
// wrapper; the compilers run only on a cache miss).
func BenchmarkGoListCompiled(b *testing.B) {
	for _, tool := range []string{"go", "gcc"} {
		if _, err := exec.LookPath(tool); err != nil {
			b.Skipf("needs %s", tool)
		}
	}
	root := b.TempDir()
	for p, c := range map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\n// #include <string.h>\n// static int f(void) { return (int)strlen(\"x\"); }\nimport \"C\"\n\nfunc F() int { return int(C.f()) }\n",
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	env, err := Env(root, os.Environ())
	if err != nil {
		b.Fatal(err)
	}
	list := func(b *testing.B, env []string) {
		for b.Loop() {
			cmd := exec.Command("go", "list", "-compiled", "-e", "-json", "./...")
			cmd.Dir, cmd.Env = root, env
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("go list: %v\n%s", err, out)
			}
		}
	}
	b.Run("plain", func(b *testing.B) { list(b, os.Environ()) })
	b.Run("confined", func(b *testing.B) { list(b, append(os.Environ(), env...)) })
}
