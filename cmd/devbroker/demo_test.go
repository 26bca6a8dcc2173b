package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMakeDemo: make demo's plan (examples/demo/break.json) changes
// Greet's signature in memory, lint finds the caller it breaks, and the
// plan stops before its write: exit 1, the broken caller named, the files
// on disk unchanged. The Makefile runs this very plan.
func TestMakeDemo(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(mk), "run --root examples/demo examples/demo/break.json") {
		t.Fatal("the Makefile's demo target no longer runs examples/demo/break.json: update this test with it")
	}
	root := t.TempDir()
	for _, f := range []string{"go.mod", "greet.go", "banner.go", "break.json"} {
		b, err := os.ReadFile(filepath.Join("../../examples/demo", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := readFile(t, root, "greet.go")
	cmd := exec.Command(devbrokerBin(t), "run", "--root", root, filepath.Join(root, "break.json"))
	out, err := cmd.Output()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Fatalf("exit %v, want 1 (the plan stopped):\n%s", err, out)
	}
	for _, want := range []string{`"name": "lint"`, "banner.go:5:15: not enough arguments in call to Greet", "did not run"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the answer lacks %q:\n%s", want, out)
		}
	}
	if readFile(t, root, "greet.go") != before {
		t.Error("greet.go changed on disk: the plan wrote past its failed lint")
	}
}
