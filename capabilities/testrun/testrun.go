// Package testrun holds what the test drivers that run a project's own
// runner share: a private staged copy of the project (stage.go), the
// JUnit XML report (junit.go), and the runner's process: its own process
// group, killed whole when the run ends early, its output kept within a
// bound.
package testrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/devbroker/devbroker/internal/procgroup"
)

// Command is one run of a test runner.
type Command struct {
	Argv []string
	Dir  string
	// Env is added to the environment, after the defaults (no colour).
	Env []string
	// Tmp, if not "", is the run's TMPDIR.
	Tmp string
}

// Run runs c under ctx, its output to out, in its own process group,
// killed whole when ctx ends; it returns the exit code. An error means
// it could not run (not found, not executable); a run that ctx ended
// returns ctx's error.
func Run(ctx context.Context, c Command, out io.Writer) (int, error) {
	cmd := exec.CommandContext(ctx, c.Argv[0], c.Argv[1:]...)
	cmd.Dir = c.Dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0", "PY_COLORS=0", "CI=1")
	if c.Tmp != "" {
		cmd.Env = append(cmd.Env, "TMPDIR="+c.Tmp)
	}
	cmd.Env = append(cmd.Env, c.Env...)
	cmd.Stdout, cmd.Stderr = out, out
	procgroup.Set(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process) }
	cmd.WaitDelay = 2 * time.Second
	err := cmd.Run()
	if cmd.Process != nil {
		_ = procgroup.Kill(cmd.Process) // what it left behind in its group
	}
	if ctx.Err() != nil {
		return -1, ctx.Err()
	}
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit):
		return exit.ExitCode(), nil
	case err != nil:
		return -1, fmt.Errorf("%s could not run: %w", c.Argv[0], err)
	}
	return cmd.ProcessState.ExitCode(), nil
}

// Tail keeps the last 64 KiB written to it (a runner's summary is at the
// end).
type Tail struct{ buf []byte }

func (t *Tail) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if n := len(t.buf) - 64<<10; n > 0 {
		t.buf = t.buf[n:]
	}
	return len(p), nil
}

// String is the end of what was written, for a message: its last 15
// lines, at most 2,000 bytes.
func (t *Tail) String() string {
	s := strings.TrimSpace(string(t.buf))
	lines := strings.Split(s, "\n")
	if len(lines) > 15 {
		lines = lines[len(lines)-15:]
	}
	s = strings.Join(lines, "\n")
	if len(s) > 2000 {
		s = "..." + s[len(s)-2000:]
	}
	return s
}
