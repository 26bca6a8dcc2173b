package external

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/configtest"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
	"github.com/devbroker/devbroker/internal/proctest"
)

// fakeClock stands in for the watch's clock and ticker: the test moves
// time and wakes the watch itself, so nothing depends on how fast the
// machine is.
type fakeClock struct {
	mu    sync.Mutex
	now   time.Time
	tick  chan time.Time
	wrote chan struct{} // a write of the command's output was counted
}

// useFakeClock installs a fake clock for the test.
func useFakeClock(t *testing.T) *fakeClock {
	c := &fakeClock{now: time.Unix(1e9, 0), tick: make(chan time.Time), wrote: make(chan struct{}, 100)}
	oldNow, oldTick, oldHook := clockNow, newTick, wroteHook
	clockNow = func() time.Time {
		c.mu.Lock()
		defer c.mu.Unlock()
		return c.now
	}
	newTick = func() (<-chan time.Time, func()) { return c.tick, func() {} }
	wroteHook = func() { c.wrote <- struct{}{} }
	t.Cleanup(func() { clockNow, newTick, wroteHook = oldNow, oldTick, oldHook })
	return c
}

// advance moves the clock by d and wakes the watch, which looks at the
// run when it receives the tick. It reports false when the run had
// already ended.
func (c *fakeClock) advance(t *testing.T, d time.Duration, ended <-chan struct{}) bool {
	t.Helper()
	c.mu.Lock()
	c.now = c.now.Add(d)
	now := c.now
	c.mu.Unlock()
	select {
	case c.tick <- now:
		return true
	case <-ended:
		return false
	case <-time.After(configtest.Timeout):
		t.Fatal("the watch never took the tick")
		return false
	}
}

// waitWrite waits for a write of the command's output; false when the
// run ended first.
func (c *fakeClock) waitWrite(t *testing.T, ended <-chan struct{}) bool {
	t.Helper()
	select {
	case <-c.wrote:
		return true
	case <-ended:
		return false
	case <-time.After(configtest.Timeout):
		t.Fatal("the command never wrote")
		return false
	}
}

// TestProgressKeepsARunAlive: a command that keeps writing (as go build
// -v does, a package per line, over a cold build cache) runs on past the
// driver's timeout and its answer counts; each line is reported as
// progress.
func TestProgressKeepsARunAlive(t *testing.T) {
	c := useFakeClock(t)
	const timeout = time.Minute
	ack := filepath.Join(t.TempDir(), "ack")
	os.WriteFile(ack, []byte("0"), 0o600)
	d := fakeDriver(t, configs.Driver{Input: "staged", Errorformat: efm, Stream: "stderr", Timeout: configs.Duration{Duration: timeout}}, "chatty", ack, "4")
	var mu sync.Mutex
	var pieces []engine.Progress
	ctx := engine.WithProgress(context.Background(), func(p engine.Progress) {
		mu.Lock()
		defer mu.Unlock()
		pieces = append(pieces, p)
	})
	ended := make(chan struct{})
	var res *capabilities.Result
	go func() {
		defer close(ended)
		res = d.Run(ctx, workspace(t.TempDir(), engine.Lint, "a.go", "package a\n"))
	}()
	for i := 1; i <= 4; i++ {
		if !c.waitWrite(t, ended) {
			break
		}
		// Most of the timeout passes after each line: four lines take
		// well over the timeout in all.
		c.advance(t, timeout*9/10, ended)
		os.WriteFile(ack, []byte(strconv.Itoa(i)), 0o600)
	}
	<-ended
	wantStatus(t, res, engine.StatusOK)
	if dg := one(t, res); dg.Message != "found" {
		t.Errorf("%+v", dg)
	}
	mu.Lock()
	defer mu.Unlock()
	var saw, done bool
	for _, p := range pieces {
		if p.ID == "fake/running" && strings.Contains(p.Message, "lines of output") {
			saw = true
		}
		done = done || (p.ID == "fake/running" && p.Done)
	}
	if !saw || !done {
		t.Errorf("progress should count the lines and end: %+v", pieces)
	}
}

// TestSilentHangTimesOut: a command that writes nothing for the driver's
// timeout is killed, and the answer says how to raise the timeout.
func TestSilentHangTimesOut(t *testing.T) {
	c := useFakeClock(t)
	pidFile := filepath.Join(t.TempDir(), "pid")
	d := fakeDriver(t, configs.Driver{Input: "staged", Errorformat: efm, Timeout: configs.Duration{Duration: time.Minute}}, "silent", pidFile)
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
	// Less than the timeout: nothing happens.
	if !c.advance(t, 59*time.Second, ended) || !c.advance(t, time.Second, ended) {
		t.Fatalf("the run ended before its timeout: %s: %s", r.Status, r.Message)
	}
	<-ended
	wantStatus(t, r, engine.StatusTimeout)
	for _, want := range []string{"wrote nothing for 1m", `set timeout = "2m" under [drivers.fake]`} {
		if !strings.Contains(r.Message, want) {
			t.Errorf("message %q lacks %q", r.Message, want)
		}
	}
	proctest.AssertGone(t, pid)
}

// TestRunBound: a command that keeps writing is still bounded, at
// RunCeiling times the timeout in all.
func TestRunBound(t *testing.T) {
	c := useFakeClock(t)
	const timeout = time.Minute
	ack := filepath.Join(t.TempDir(), "ack")
	os.WriteFile(ack, []byte("0"), 0o600)
	d := fakeDriver(t, configs.Driver{Input: "staged", Errorformat: efm, Timeout: configs.Duration{Duration: timeout}}, "chatty", ack, "1000")
	ended := make(chan struct{})
	res := make(chan string, 1)
	go func() {
		r := d.Run(context.Background(), workspace(t.TempDir(), engine.Lint, "a.go", "package a\n"))
		close(ended)
		res <- string(r.Status) + ": " + r.Message
	}()
	for i := 1; ; i++ {
		if !c.waitWrite(t, ended) || !c.advance(t, timeout/2, ended) {
			break
		}
		os.WriteFile(ack, []byte(strconv.Itoa(i)), 0o600)
	}
	got := <-res
	for _, want := range []string{string(engine.StatusTimeout) + ":", "still making progress after 10m", `set timeout = "2m"`} {
		if !strings.Contains(got, want) {
			t.Errorf("answer %q lacks %q", got, want)
		}
	}
}

// TestGoColdCacheProgress: over an empty build cache, the default go vet
// and go build drivers report each package the go command builds (its -v
// lines) as progress, and those lines do not disturb the answer.
func TestGoColdCacheProgress(t *testing.T) {
	for _, name := range []string{"go-vet", "go-build"} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{
				"go.mod":     "module example.com/m\n\ngo 1.22\n",
				"lib/lib.go": "package lib\n\nfunc F() int { return 1 }\n",
				"a/a.go":     "package a\n\nimport \"example.com/m/lib\"\n\nvar X = lib.F\n",
			}
			for p, c := range files {
				os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755)
				if err := os.WriteFile(filepath.Join(root, p), []byte(c), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			cfg := *defaults(t).Drivers[name]
			cfg.Env = append(append([]string(nil), cfg.Env...), "GOCACHE="+t.TempDir(), "GOFLAGS=-mod=mod")
			dd, err := New(name, &cfg, capabilities.Env{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			d := dd.(*Driver)
			var mu sync.Mutex
			var pieces []engine.Progress
			ctx := engine.WithProgress(context.Background(), func(p engine.Progress) {
				mu.Lock()
				defer mu.Unlock()
				pieces = append(pieces, p)
			})
			req := workspace(root, engine.Check, "a/a.go", "package a\n\nimport \"example.com/m/lib\"\n\nvar X = lib.F\n\nvar i int = \"s\"\n")
			for p, c := range files {
				if req.All[p] == nil {
					req.All[p] = text.FromString(c)
				}
			}
			r := d.Run(ctx, req)
			wantStatus(t, r, engine.StatusOK)
			if dg := one(t, r); dg.Path != "a/a.go" || dg.Line != 7 || !strings.Contains(dg.Message, "cannot use") {
				t.Errorf("%+v", dg)
			}
			mu.Lock()
			defer mu.Unlock()
			var built bool
			for _, p := range pieces {
				if p.Done && p.ID == name+"/running" && strings.Contains(p.Message, "example.com/m/") && strings.Contains(p.Message, "built") {
					built = true
				}
			}
			if !built {
				t.Errorf("the last progress should name the packages built: %+v", pieces)
			}
		})
	}
}
