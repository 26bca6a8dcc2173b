package staticcheck

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// testEnv isolates the tests' caches from the user's and keeps go off the
// network.
func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "devbroker-staticcheck-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	os.Setenv("DEVBROKER_STATICCHECK_CACHE", filepath.Join(tmp, "cache"))
	os.Setenv("GOTOOLCHAIN", "local")
	os.Setenv("GOFLAGS", "-mod=mod")
	os.Setenv("GOPROXY", "off")
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

func newDriver(t testing.TB) *Driver {
	t.Helper()
	d, err := New("staticcheck", configtest.Driver(&configs.Driver{Type: "staticcheck"}), capabilities.Env{})
	if err != nil {
		t.Fatal(err)
	}
	drv := d.(*Driver)
	t.Cleanup(func() {
		drv.mu.Lock()
		defer drv.mu.Unlock()
		for _, st := range drv.stages {
			os.RemoveAll(st.dir)
		}
	})
	return drv
}

// docs turns contents into workspace documents.
func docs(files map[string]string) map[string]*text.Doc {
	out := map[string]*text.Doc{}
	for p, c := range files {
		out[p] = text.FromString(c)
	}
	return out
}

// runLint runs the driver and fails the test unless the status is ok.
func runLint(t testing.TB, d *Driver, req *capabilities.Request) []engine.Diagnostic {
	t.Helper()
	req.Kind = engine.Lint
	if req.All == nil {
		req.All = map[string]*text.Doc{}
	}
	r := d.Run(context.Background(), req)
	if r.Status != engine.StatusOK {
		t.Fatalf("status %s: %s", r.Status, r.Message)
	}
	return r.Diagnostics
}

// brief is a diagnostic as "path:line:col code message".
func brief(ds []engine.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", d.Path, d.Line, d.Column, d.Code, d.Message))
	}
	sort.Strings(out)
	return out
}

// has reports whether ds has a finding of code at path:line.
func has(ds []engine.Diagnostic, path string, line int, code string) bool {
	for _, d := range ds {
		if d.Path == path && d.Line == line && d.Code == code {
			return true
		}
	}
	return false
}

func codes(ds []engine.Diagnostic) string {
	return strings.Join(brief(ds), "\n")
}

const goMod = "module example.com/m\n\ngo 1.22\n"
