package gotest

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// benchModule is the real module the benchmark runs on, and the file its
// edits change: cobra's command.go, which every package of it imports.
const (
	benchModule = "github.com/spf13/cobra@v1.10.1"
	benchFile   = "command.go"
)

// BenchmarkAffectedTests measures the time to an answer for an agent's
// loop: each iteration makes a new edit (a new state, so no test result
// is cached) to a file of cobra and asks for the tests it affects.
//
//   - devbroker: the driver, on the unwritten content (-overlay);
//   - disk: the baseline, the same edit written to disk and go test run
//     on the same packages, as a person or an agent with its own edit
//     tool would.
//
// Both share the build cache; the sub-benchmarks interleave with
// -count. Run: go test -run '^$' -bench AffectedTests -count 5
// ./capabilities/gotest/ (the module comes from the module proxy).
func BenchmarkAffectedTests(b *testing.B) {
	root := copyModule(b)
	orig, err := os.ReadFile(filepath.Join(root, benchFile))
	if err != nil {
		b.Fatal(err)
	}
	edit := func(i int) string {
		return string(orig) + fmt.Sprintf("\nvar benchEdit%d = %d\n", i, i)
	}
	d, _ := New("go-test", &configs.Driver{Timeout: configs.Duration{Duration: configtest.Timeout}}, capabilities.Env{Root: root})
	defer d.Close()
	var pkgs []string
	warm := request(root, map[string]string{benchFile: edit(-1)})
	res := d.Run(context.Background(), warm)
	if res.Status != engine.StatusOK {
		b.Fatalf("warm-up: %s: %s", res.Status, res.Message)
	}
	pkgs = res.Coverage[0].Paths
	warmDiags := res.Diagnostics
	b.Logf("packages run: %v (%s)", pkgs, res.Coverage[0].Message)
	n := time.Now().UnixNano() // a new state in every run of the benchmark
	b.Run("devbroker", func(b *testing.B) {
		for b.Loop() {
			n++
			res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Test, Root: root, Files: []string{benchFile}, Changed: []string{benchFile}, All: map[string]*text.Doc{benchFile: text.FromString(edit(int(n)))}})
			// cobra's own failures (a test that expects a
			// write to fail, run as root) are the same in
			// every state.
			if res.Status != engine.StatusOK || len(res.Diagnostics) != len(warmDiags) {
				b.Fatalf("%s: %s %v", res.Status, res.Message, res.Diagnostics)
			}
		}
	})
	b.Run("disk", func(b *testing.B) {
		for b.Loop() {
			n++
			if err := os.WriteFile(filepath.Join(root, benchFile), []byte(edit(int(n))), 0o644); err != nil {
				b.Fatal(err)
			}
			cmd := exec.Command("go", append([]string{"test"}, pkgs...)...)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil && len(warmDiags) == 0 {
				b.Fatalf("go test: %v\n%s", err, out)
			}
		}
		_ = os.WriteFile(filepath.Join(root, benchFile), orig, 0o644)
	})
}

// copyModule copies benchModule from the module cache into a writable
// temporary directory, downloading it (and its dependencies) first.
func copyModule(b *testing.B) string {
	b.Helper()
	out, err := exec.Command("go", "mod", "download", "-json", benchModule).Output()
	if err != nil {
		b.Skipf("go mod download %s: %v", benchModule, err)
	}
	var m struct{ Dir string }
	if err := json.Unmarshal(out, &m); err != nil || m.Dir == "" {
		b.Skipf("go mod download %s: no directory (%v)", benchModule, err)
	}
	root := b.TempDir()
	err = filepath.WalkDir(m.Dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(m.Dir, p)
		dst := filepath.Join(root, rel)
		if e.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command("go", "mod", "download")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil && !strings.Contains(string(out), "no dependencies") {
		b.Skipf("go mod download in %s: %v\n%s", root, err, out)
	}
	return root
}
