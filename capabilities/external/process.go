package external

// This file defines the process runner: one command, with a timeout, its
// output captured up to [MaxOutput], and its whole process group killed
// when the run ends early.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/internal/procgroup"
)

// waitDelay bounds how long a run waits for its output pipes after the
// command was killed or exited while a leftover child still holds them.
const waitDelay = 2 * time.Second

// invocation is one run of a command.
type invocation struct {
	argv  []string
	dir   string
	env   []string // added to the environment
	stdin []byte   // nil: /dev/null
}

// outcome is what one run did.
type outcome struct {
	stdout, stderr capped
	code           int    // exit code; -1 when there is none
	signal         string // the signal that killed it, if any
	timedOut       bool   // it wrote nothing for the driver's timeout
	bounded        bool   // it ran for its whole bound
	limits         limits // the bounds it ran under
	canceled       bool   // the caller canceled
	notFound       bool   // the command does not exist
	err            error  // any other failure to run
	// unrun says why the command was not run at all (its directory is
	// not on disk), or "".
	unrun string
}

// capped is a buffer that keeps the first MaxOutput bytes written to it
// and counts the rest.
type capped struct {
	buf     bytes.Buffer
	dropped int64
}

func (c *capped) Write(p []byte) (int, error) {
	room := MaxOutput - c.buf.Len()
	if room < len(p) {
		if room > 0 {
			c.buf.Write(p[:room])
		}
		c.dropped += int64(len(p) - max(room, 0))
		return len(p), nil
	}
	return c.buf.Write(p)
}

// run runs inv under ctx within lim: the run ends when it wrote nothing
// for lim.idle, or ran for lim.total. rep, when not nil, reports its
// progress.
func run(ctx context.Context, inv invocation, lim limits, rep *reporter) *outcome {
	o := &outcome{code: -1, limits: lim}
	tctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	m := &meter{moved: clockNow()}
	began := m.moved
	cmd := exec.CommandContext(tctx, inv.argv[0], inv.argv[1:]...)
	cmd.Dir = inv.dir
	// Output is read by parsers, not people: ask for no colour (CI
	// environments make some tools colour their output by default). The
	// driver's own env comes last and wins.
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0", "CLICOLOR=0", "TERM=dumb"), inv.env...)
	if inv.stdin != nil {
		cmd.Stdin = bytes.NewReader(inv.stdin)
	}
	cmd.Stdout, cmd.Stderr = counting{&o.stdout, m}, counting{&o.stderr, m}
	procgroup.Set(cmd)
	cmd.Cancel = func() error { return procgroup.Kill(cmd.Process) }
	cmd.WaitDelay = waitDelay
	done := make(chan struct{})
	watched := make(chan struct{})
	go func() {
		defer close(watched)
		watchRun(m, lim, began, cancel, rep, done)
	}()
	err := cmd.Run()
	close(done)
	<-watched
	cur, _ := m.read()
	rep.end(cur, began)
	if cmd.Process != nil {
		// Whatever the command left behind in its group goes with it.
		_ = procgroup.Kill(cmd.Process)
	}
	if ps := cmd.ProcessState; ps != nil {
		o.code = ps.ExitCode()
		o.signal = signalOf(ps)
	}
	switch cause := context.Cause(tctx); {
	case ctx.Err() != nil:
		o.canceled = true
	case cause == errStalled:
		o.timedOut = true
	case cause == errBounded:
		o.bounded = true
	case cmd.ProcessState == nil && missing(inv.argv[0], inv.dir, err):
		o.notFound = true
		o.err = err
	case cmd.ProcessState == nil && err != nil:
		o.err = err
	case errors.Is(err, exec.ErrWaitDelay):
		// The command exited, but something it started kept its output
		// open past the wait delay: what was read may be cut short.
		o.err = fmt.Errorf("it exited, but a process it started kept its output open, so the output may be incomplete (%w)", err)
	}
	return o
}

// missing reports whether err, from starting name in dir, says that the
// command does not exist (and not, say, that dir does not).
func missing(name, dir string, err error) bool {
	if errors.Is(err, exec.ErrNotFound) {
		return true
	}
	if !errors.Is(err, fs.ErrNotExist) || !strings.ContainsRune(name, filepath.Separator) {
		return false
	}
	if !filepath.IsAbs(name) {
		name = filepath.Join(dir, name)
	}
	_, serr := os.Stat(name)
	return errors.Is(serr, fs.ErrNotExist)
}

// failure classifies an outcome under the exit-code policy: the status
// and message of a run that is no answer, or "" for an answer (an OK or a
// findings code). what names the run in messages ("shellcheck on a.sh").
func (d *Driver) failure(o *outcome, what string) (engine.Status, string) {
	switch {
	case o.unrun != "":
		return engine.StatusUnchecked, fmt.Sprintf("%s did not run: %s", what, o.unrun)
	case o.canceled:
		return engine.StatusTimeout, fmt.Sprintf("%s was canceled before it finished", what)
	case o.timedOut:
		return engine.StatusTimeout, d.stalledMessage(o, what)
	case o.bounded:
		return engine.StatusTimeout, d.boundedMessage(o, what)
	case o.notFound:
		return engine.StatusNotInstalled, fmt.Sprintf("%s: %v%s", what, o.err, d.installHint())
	case o.err != nil && o.code >= 0:
		return engine.StatusCrashed, fmt.Sprintf("%s: %v", what, o.err)
	case o.err != nil:
		return engine.StatusCrashed, fmt.Sprintf("%s could not start: %v", what, o.err)
	case o.signal != "":
		return engine.StatusCrashed, fmt.Sprintf("%s was killed by %s%s", what, o.signal, stderrTail(o))
	case d.isOK(o.code) || d.isFindings(o.code):
		return "", ""
	default:
		return engine.StatusCrashed, fmt.Sprintf("%s exited with code %d, which is neither ok %v nor findings %v%s", what, o.code, d.ok, d.findings, stderrTail(o))
	}
}

func (d *Driver) isOK(code int) bool {
	for _, c := range d.ok {
		if c == code {
			return true
		}
	}
	return false
}

func (d *Driver) isFindings(code int) bool {
	for _, c := range d.findings {
		if c == code {
			return true
		}
	}
	return false
}

func (d *Driver) installHint() string {
	if d.cfg.Install == "" {
		return ""
	}
	return "; install: " + d.cfg.Install
}

// tailLines and tailBytes bound the standard error quoted in a message.
const (
	tailLines = 15
	tailBytes = 2000
)

// stderrTail is ": " and the end of the run's standard error (or of its
// standard output when standard error is empty), or "".
func stderrTail(o *outcome) string {
	s := strings.TrimSpace(o.stderr.buf.String())
	if s == "" {
		s = strings.TrimSpace(o.stdout.buf.String())
	}
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > tailLines {
		lines = lines[len(lines)-tailLines:]
	}
	s = strings.Join(lines, "\n")
	if len(s) > tailBytes {
		s = "..." + s[len(s)-tailBytes:]
	}
	return ": " + s
}
