package staticcheck

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine/text"
)

// parityModule is a module nobody here wrote, with several findings.
const parityModule = "github.com/rogpeppe/go-internal@v1.16.0"

// copyModule copies a module from the module cache into a temporary
// directory with writable modes, or skips the test.
func copyModule(t testing.TB, mod string) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		t.Skipf("go env GOMODCACHE: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), filepath.FromSlash(mod))
	if _, err := os.Stat(src); err != nil {
		t.Skipf("%s is not in the module cache", mod)
	}
	dst := filepath.Join(t.TempDir(), "mod")
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o777)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o666)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// goFiles lists the workspace paths of the .go files under root.
func goFiles(t testing.TB, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".go") {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// cliBinary is the staticcheck command of this module's tool directive.
func cliBinary(t testing.TB) string {
	t.Helper()
	out, err := exec.Command("go", "tool", "-n", "staticcheck").Output()
	if err != nil {
		t.Skipf("go tool -n staticcheck: %v", err)
	}
	return strings.TrimSpace(string(out))
}

// runCLI runs the staticcheck command with -f json ./... in root and
// returns its findings as "path:line:col code message", columns in
// characters.
func runCLI(t testing.TB, bin, root string, env ...string) []string {
	t.Helper()
	cmd := exec.Command(bin, "-f", "json", "./...")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() != 1) {
		t.Fatalf("staticcheck: %v\n%s", err, stderr.String())
	}
	var out []string
	sc := bufio.NewScanner(&stdout)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var f struct {
			Code     string
			Message  string
			Location struct {
				File   string
				Line   int
				Column int
			}
		}
		if err := json.Unmarshal(sc.Bytes(), &f); err != nil {
			t.Fatalf("staticcheck output %q: %v", sc.Text(), err)
		}
		// staticcheck prints a path relative to its working directory
		// when that is shorter than the absolute one.
		if !filepath.IsAbs(f.Location.File) {
			f.Location.File = filepath.Join(root, f.Location.File)
		}
		rel, err := filepath.Rel(root, f.Location.File)
		if err != nil {
			t.Fatal(err)
		}
		col := f.Location.Column
		if data, err := os.ReadFile(f.Location.File); err == nil && col > 0 {
			m := text.NewMapper(string(data))
			_, c := m.Position(m.Offset(f.Location.Line-1, col-1, text.Bytes), text.Chars)
			col = c + 1
		}
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", filepath.ToSlash(rel), f.Location.Line, col, f.Code, f.Message))
	}
	sort.Strings(out)
	return out
}

// TestParity: on a real module, the driver's findings are the command's.
func TestParity(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: lints a whole module twice")
	}
	root := copyModule(t, parityModule)
	cli := runCLI(t, cliBinary(t), root, "STATICCHECK_CACHE="+t.TempDir())
	if len(cli) < 3 {
		t.Fatalf("the command found too little to compare (%d findings)", len(cli))
	}
	ds := runLint(t, newDriver(t), &capabilities.Request{Root: root, Files: goFiles(t, root)})
	got := brief(ds)
	if !equal(got, cli) {
		t.Errorf("driver and command differ\ndriver (%d):\n%s\ncommand (%d):\n%s", len(got), join(got), len(cli), join(cli))
	}
	t.Logf("%d findings, equal", len(cli))
}
