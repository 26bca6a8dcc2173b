//go:build unix

package gotest

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// TestGoCommandDiedIsNotOK: a go command that dies (killed by a signal:
// the OOM killer, a stray kill) after reporting some packages and before
// the others is not a passing run: the packages it never reported went
// untested. The go command here is the real one behind a wrapper that
// drops b's events (b's test fails) and then kills itself.
func TestGoCommandDiedIsNotOK(t *testing.T) {
	needGo(t)
	root := module(t)
	wrapper := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\nif [ \"$1\" = test ]; then\n\tgo \"$@\" | grep -v '\"Package\":\"example.com/m/b\"'\n\tkill -9 $$\nfi\nexec go \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := New("go-test", &configs.Driver{Command: []string{wrapper}}, capabilities.Env{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res := d.Run(ctx, request(root, map[string]string{
		"a/a.go":      "package a\n\nfunc Add(x, y int) int { return x - y }\n",
		"c/c_test.go": "package c\n\nimport \"testing\"\n\nfunc TestC(t *testing.T) {}\n\nfunc TestD(t *testing.T) {}\n",
	}))
	if res.Status == engine.StatusOK {
		t.Errorf("ok after the go command died: %s %v %+v", res.Message, res.Diagnostics, res.Coverage)
	}
}
