//go:build unix

package gitrev

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/internal/proctest"
)

// TestCancelKillsGitWithWhatItStarted: a git that hangs, having started a
// process that holds its output, is killed with that process when the
// request is cancelled, and Open returns (before, the process kept the
// output open and Open waited for it).
func TestCancelKillsGitWithWhatItStarted(t *testing.T) {
	bin, pidFile := t.TempDir(), filepath.Join(t.TempDir(), "pid")
	script := "#!/bin/sh\nsleep 3600 &\necho $! > " + pidFile + ".tmp\nmv " + pidFile + ".tmp " + pidFile + "\nwait\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	fsys, err := rootfs.New(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := Open(ctx, fsys, "HEAD")
		done <- err
	}()
	// The child's pid is written once it runs; then cancel.
	pid, err := proctest.ReadPid(pidFile)
	if err != nil {
		t.Fatalf("the fake git never started its child: %v", err)
	}
	cancel()
	if err := <-done; err == nil {
		t.Fatal("Open answered though its git was cancelled")
	}
	proctest.AssertGone(t, pid)
}
