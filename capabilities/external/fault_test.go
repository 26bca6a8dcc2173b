package external

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/internal/proctest"
)

// TestTimeoutKillsProcessGroup: a command silent for its timeout is
// killed with what it started, and the answer quotes its stderr. The
// watch's clock is the test's: the run's silence begins once the fake's
// one write is counted, and its timeout passes when the test moves the
// clock.
func TestTimeoutKillsProcessGroup(t *testing.T) {
	c := useFakeClock(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	d := fakeDriver(t, configs.Driver{
		Input: "stdin", Errorformat: efm,
		Timeout: configs.Duration{Duration: 300 * time.Millisecond},
	}, "hang", pidFile)
	ended := make(chan struct{})
	var r *capabilities.Result
	go func() {
		defer close(ended)
		r = d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.sh", "echo\n"))
	}()
	pid, err := proctest.ReadPid(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	if !c.waitWrite(t, ended) || !c.advance(t, 300*time.Millisecond, ended) {
		<-ended
		t.Fatalf("the run ended before its timeout: %s: %s", r.Status, r.Message)
	}
	<-ended
	wantStatus(t, r, engine.StatusTimeout)
	if len(r.Diagnostics) != 0 {
		t.Errorf("a timed-out run reported diagnostics: %+v", r.Diagnostics)
	}
	if !strings.Contains(r.Message, "wrote nothing for 300ms") || !strings.Contains(r.Message, "working hard") {
		t.Errorf("message %q should say it timed out and quote stderr", r.Message)
	}
	proctest.AssertGone(t, pid)
}

func TestCancelKillsProcessGroup(t *testing.T) {
	pidFile := filepath.Join(t.TempDir(), "pid")
	d := fakeDriver(t, configs.Driver{Input: "staged", Errorformat: efm}, "hang", pidFile)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan *capabilities.Result, 1)
	go func() { done <- d.Run(ctx, workspace(t.TempDir(), engine.Lint, "a.sh", "echo\n")) }()
	pid, err := proctest.ReadPid(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	r := <-done
	wantStatus(t, r, engine.StatusTimeout)
	if !strings.Contains(r.Message, "canceled") {
		t.Errorf("message %q should say the run was canceled", r.Message)
	}
	proctest.AssertGone(t, pid)
}

func TestSignalDeathIsCrashed(t *testing.T) {
	d := fakeDriver(t, configs.Driver{Input: "stdin", Errorformat: efm}, "signal")
	r := d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.sh", "echo\n"))
	wantStatus(t, r, engine.StatusCrashed)
	if !strings.Contains(r.Message, "killed by signal") || !strings.Contains(r.Message, "segmentation violation") {
		t.Errorf("message %q should name the signal and quote stderr", r.Message)
	}
}

func TestExitCodes(t *testing.T) {
	for _, tc := range []struct {
		name     string
		codes    configs.ExitCodes
		code     string
		want     engine.Status
		wantDiag bool
	}{
		{"139 is crashed", configs.ExitCodes{}, "139", engine.StatusCrashed, false},
		{"2 is crashed by default", configs.ExitCodes{}, "2", engine.StatusCrashed, false},
		{"2 listed as findings", configs.ExitCodes{Findings: []int{2}}, "2", engine.StatusOK, true},
		{"1 is findings by default", configs.ExitCodes{}, "1", engine.StatusOK, true},
		{"0 with findings printed still reports them", configs.ExitCodes{}, "0", engine.StatusOK, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := fakeDriver(t, configs.Driver{Input: "stdin", Errorformat: efm, ExitCodes: tc.codes},
				"print", tc.code, "-:1:2: e: bad")
			r := d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.sh", "echo\n"))
			wantStatus(t, r, tc.want)
			if tc.want == engine.StatusCrashed && !strings.Contains(r.Message, "exited with code "+tc.code) {
				t.Errorf("message %q should name the exit code", r.Message)
			}
			if got := len(r.Diagnostics) > 0; got != tc.wantDiag {
				t.Errorf("diagnostics %+v", r.Diagnostics)
			}
		})
	}
}

func TestGarbageOutput(t *testing.T) {
	garbage := []string{"\x1b[31mweird\x1b[0m", "::::", "a.sh:x:y: nope", "{not json", ""}
	t.Run("findings code with nothing parsable is not clean", func(t *testing.T) {
		d := fakeDriver(t, configs.Driver{Input: "stdin", Errorformat: efm}, append([]string{"print", "1"}, garbage...)...)
		r := d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.sh", "echo\n"))
		wantStatus(t, r, engine.StatusCrashed)
		if !strings.Contains(r.Message, "no finding could be parsed") || !strings.Contains(r.Message, "nope") {
			t.Errorf("message %q", r.Message)
		}
	})
	t.Run("garbage around findings is skipped", func(t *testing.T) {
		d := fakeDriver(t, configs.Driver{Input: "stdin", Errorformat: efm}, append([]string{"print", "1", "-:1:2: w: real"}, garbage...)...)
		r := d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.sh", "echo\n"))
		wantStatus(t, r, engine.StatusOK)
		if dg := one(t, r); dg.Message != "real" || dg.Severity != engine.SeverityWarning {
			t.Errorf("%+v", dg)
		}
	})
	t.Run("json garbage", func(t *testing.T) {
		d := fakeDriver(t, configs.Driver{Input: "stdin", JSON: &configs.JSONMapping{Line: "l", Message: "m"}}, append([]string{"print", "1"}, garbage...)...)
		r := d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.sh", "echo\n"))
		wantStatus(t, r, engine.StatusCrashed)
	})
	t.Run("formatter garbage on a findings code", func(t *testing.T) {
		d := fakeDriver(t, configs.Driver{Input: "stdin", Output: "stdout", Errorformat: efm}, "exit", "1", "garbage")
		r := d.Run(context.Background(), workspace(t.TempDir(), engine.Format, "a.sh", "echo\n"))
		wantStatus(t, r, engine.StatusCrashed)
		if len(r.Edits) != 0 {
			t.Errorf("edits %v", r.Edits)
		}
	})
}

func TestNotInstalledAtRunTime(t *testing.T) {
	d, err := New("gone", &configs.Driver{Type: "external", Command: []string{"devbroker-no-such-tool"}, Input: "stdin", Errorformat: efm, Install: "apt-get install it"}, envFor(t))
	if err != nil {
		t.Fatal(err)
	}
	r := d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.sh", "echo\n"))
	wantStatus(t, r, engine.StatusNotInstalled)
	if !strings.Contains(r.Message, "apt-get install it") {
		t.Errorf("message %q lacks the install hint", r.Message)
	}
}

func TestMissingDirIsNotMissingTool(t *testing.T) {
	d := fakeDriver(t, configs.Driver{Input: "stdin", Errorformat: efm}, "print", "0")
	r := d.Run(context.Background(), workspace(filepath.Join(t.TempDir(), "no-such-root"), engine.Lint, "a.sh", "echo\n"))
	wantStatus(t, r, engine.StatusCrashed)
	if !strings.Contains(r.Message, "could not start") {
		t.Errorf("message %q", r.Message)
	}
}

// TestLingeringOutputIsNotAnAnswer: a command that exits cleanly while
// something it started keeps its output open may have been cut short;
// that is a crashed run, never a (possibly partial) answer. (With a
// non-zero exit, os/exec reports the exit status instead, and the exit-code
// policy decides.)
func TestLingeringOutputIsNotAnAnswer(t *testing.T) {
	d := fakeDriver(t, configs.Driver{Input: "stdin", Errorformat: efm}, "linger")
	r := d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.sh", "echo\n"))
	wantStatus(t, r, engine.StatusCrashed)
	if !strings.Contains(r.Message, "output may be incomplete") {
		t.Errorf("message %q should say the output may be incomplete", r.Message)
	}
}
