//go:build unix

package main

// The private temporary directories of a devbroker process that was
// SIGKILLed (issue 22, item 7): the next devbroker start removes them,
// and never those of a process still running.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// watchDirs lists the language servers' watch directories in tmp.
func watchDirs(t *testing.T, tmp string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(tmp, "devbroker-watch-*"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestKilledServersDirectoriesAreSwept: a serve whose language server
// runs (a fake that answers, with its disk watcher) is SIGKILLed and
// leaves its watch directory; the next devbroker command removes it, and
// keeps a directory named for a process that runs.
func TestKilledServersDirectoriesAreSwept(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	cfg := t.TempDir()
	testtree.Write(t, cfg, map[string]string{"devbroker/config.toml": fmt.Sprintf(hungConfig, lsptest.Push)})
	t.Setenv("XDG_CONFIG_HOME", cfg)
	root := testtree.New(t, map[string]string{"a.fk": "one\n"})

	cmd := exec.Command(devbrokerBin(t), "serve", "--mcp", "--root", root)
	logs := &syncBuffer{}
	cmd.Stderr = logs
	// A process that inherited the killed server's standard error would
	// hold Wait for ever: give up on the pipe after a while.
	cmd.WaitDelay = 10 * time.Second
	ctx, cancel := context.WithTimeout(context.Background(), hungWait)
	defer cancel()
	c := sdk.NewClient(&sdk.Implementation{Name: "sweep_test", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, logs)
	}
	defer cs.Close()
	res := callTool(t, cs, "check", map[string]any{"paths": []string{"a.fk"}})
	if !strings.Contains(resultText(res), "push v") {
		t.Fatalf("the fake server did not answer: %s\n%s", resultText(res), logs)
	}
	left := watchDirs(t, tmp)
	if len(left) != 1 {
		t.Fatalf("watch directories while the server runs: %v, want one", left)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); errors.Is(err, exec.ErrWaitDelay) {
		t.Logf("a process kept the killed server's standard error open: %v", err)
	}
	if got := watchDirs(t, tmp); len(got) != 1 {
		t.Fatalf("after SIGKILL: %v, want the killed server's directory left behind", got)
	}
	live := filepath.Join(tmp, fmt.Sprintf("devbroker-watch-p%d-1", os.Getpid()))
	if err := os.Mkdir(live, 0o700); err != nil {
		t.Fatal(err)
	}

	// The next start sweeps.
	probe := exec.Command(devbrokerBin(t), "probe", "--root", root)
	if out, err := probe.CombinedOutput(); err != nil {
		t.Fatalf("devbroker probe: %v\n%s", err, out)
	}
	if got := watchDirs(t, tmp); len(got) != 1 || got[0] != live {
		t.Fatalf("after the next start: %v, want only %s (its process runs)", got, live)
	}
}
