package broker_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
)

type fakeDrivers struct {
	closed atomic.Int32
	// run, when set, is called by every Run.
	run func()
}

func (f *fakeDrivers) Has(k engine.Kind) bool { return k == engine.Check }
func (f *fakeDrivers) Run(context.Context, engine.Request) (*engine.Response, error) {
	if f.run != nil {
		f.run()
	}
	return &engine.Response{Drivers: []engine.DriverStatus{{Driver: "fake", Status: engine.StatusOK}}}, nil
}
func (f *fakeDrivers) Report() *capabilities.Report { return &capabilities.Report{} }
func (f *fakeDrivers) Close() error                 { f.closed.Add(1); return nil }

func setup(t *testing.T, opts broker.Options) (*broker.Manager, string, *fakeDrivers, *atomic.Int32) {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &fakeDrivers{}
	var loads atomic.Int32
	opts.Load = func(context.Context, string, broker.Drivers) (broker.Drivers, error) {
		loads.Add(1)
		return d, nil
	}
	m := broker.NewManager(opts)
	t.Cleanup(func() { m.Close() })
	return m, root, d, &loads
}

// mustArgs decodes a step's JSON arguments through the registry, as a
// surface does.
func mustArgs(step engine.StepName, raw []byte) engine.Args {
	s, ok := engine.LookupStep(step)
	if !ok {
		panic("no step " + step)
	}
	a, err := s.Decode(raw)
	if err != nil {
		panic(err)
	}
	return a
}

func editArgs(path, find, replace string) engine.Args {
	raw, _ := json.Marshal(map[string]any{"path": path, "edits": []any{map[string]string{"find": find, "replace": replace}}})
	return mustArgs(engine.StepEdit, raw)
}

func editPlan(find, replace string) *engine.Plan {
	return &engine.Plan{Paths: []string{"a.txt"}, Ops: []engine.Op{{Step: engine.StepEdit, Args: editArgs("a.txt", find, replace)}}}
}

func readPlan() *engine.Plan {
	return &engine.Plan{Paths: []string{"a.txt"}, Ops: []engine.Op{{Step: engine.StepReadLines, Args: mustArgs(engine.StepReadLines, []byte(`{"path":"a.txt","start":1}`))}}}
}

// Concurrent first opens of one root share one load: the first open's
// load runs until the three others, one through another spelling of the
// root, are waiting for it.
func TestSessionsShareOneRootAndKeepSeparateWorkspaces(t *testing.T) {
	m, root, d, loads := setup(t, broker.Options{})
	ctx := context.Background()
	entered, release := make(chan struct{}), make(chan struct{})
	m = broker.NewManager(broker.Options{Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) {
		if loads.Add(1) == 1 {
			close(entered)
			<-release
		}
		return d, nil
	}})
	t.Cleanup(func() { m.Close() })
	sessions := make([]*broker.Session, 4)
	finished := make(chan int, len(sessions))
	open := func(i int) {
		defer func() { finished <- i }()
		dir := root
		if i%2 == 1 {
			dir = root + "/./" // another spelling of the same root
		}
		s, err := m.Open(ctx, dir)
		if err != nil {
			t.Error(err)
			return
		}
		sessions[i] = s
	}
	for len(broker.RootWaited) > 0 {
		<-broker.RootWaited // other tests' waits
	}
	go open(0)
	<-entered
	for i := 1; i < len(sessions); i++ {
		go open(i)
	}
	for waiting := 0; waiting < len(sessions)-1; {
		select {
		case <-broker.RootWaited:
			waiting++
		case i := <-finished:
			close(release)
			t.Fatalf("open %d returned while the first open's load was running", i)
		}
	}
	close(release)
	for range sessions {
		<-finished
	}
	if t.Failed() {
		return
	}
	if n := loads.Load(); n != 1 {
		t.Fatalf("the root's drivers were loaded %d times, want once", n)
	}
	for _, s := range sessions[1:] {
		if s.Root() != sessions[0].Root() {
			t.Fatal("sessions on one root have different Roots")
		}
	}
	a, b := sessions[0], sessions[1]
	if r := a.Run(ctx, editPlan("two", "TWO")); !r.OK {
		t.Fatalf("edit: %+v", r.Error)
	}
	if r := b.Run(ctx, readPlan()); r.Reads["a.txt"] != "one\ntwo" {
		t.Fatalf("b sees a's unwritten edit: %q", r.Reads["a.txt"])
	}
	if r := a.Run(ctx, readPlan()); r.Reads["a.txt"] != "one\nTWO" {
		t.Fatalf("a lost its edit: %q", r.Reads["a.txt"])
	}
	if got := a.Pending(); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("a pending %v", got)
	}
	if got := b.Pending(); len(got) != 0 {
		t.Fatalf("b pending %v", got)
	}
}

func TestCloseDiscardsAndEndsTheSession(t *testing.T) {
	m, root, d, _ := setup(t, broker.Options{})
	ctx := context.Background()
	s, err := m.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	s.OnClose(func() { close(closed) })
	s.Run(ctx, editPlan("two", "TWO"))
	s.Close()
	<-closed
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\ntwo\n" {
		t.Fatalf("disk changed: %q", b)
	}
	r := s.Run(ctx, readPlan())
	if r.Error == nil || !strings.Contains(r.Error.Message, "has ended") {
		t.Fatalf("call after close: %+v", r.Error)
	}
	if len(m.Sessions()) != 0 {
		t.Fatalf("sessions left: %v", m.Sessions())
	}
	// The drivers outlive the session; the manager closes them once.
	if d.closed.Load() != 0 {
		t.Fatal("drivers closed with the session")
	}
	m.Close()
	m.Close()
	if n := d.closed.Load(); n != 1 {
		t.Fatalf("drivers closed %d times", n)
	}
	if _, err := m.Open(ctx, root); err == nil {
		t.Fatal("open after close succeeded")
	}
}

// clock is a test's clock, moved by hand.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// A session idle for longer than the idle timeout ends; one used within
// it does not, and idle time counts from the end of a call, however long
// the call was. The manager's clock is the test's, and the test reaps.
func TestIdleSessionsEnd(t *testing.T) {
	c := &clock{now: time.Unix(1_000_000_000, 0)}
	d := &fakeDrivers{}
	m := broker.NewManagerWithClock(broker.Options{IdleTimeout: time.Minute, Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) {
		return d, nil
	}}, c.Now)
	t.Cleanup(func() { m.Close() })
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	idle, _ := m.Open(ctx, root)
	busy, _ := m.Open(ctx, root)
	long, _ := m.Open(ctx, root)
	ended := make(chan struct{})
	idle.OnClose(func() { close(ended) })
	idle.Run(ctx, editPlan("two", "TWO"))
	// long's check takes 50 s of the clock: it ends at +50 s.
	d.run = func() { c.Add(50 * time.Second) }
	if r := long.Run(ctx, &engine.Plan{Paths: []string{"a.txt"}, Ops: []engine.Op{{Step: engine.StepCheck}}}); !r.OK {
		t.Fatalf("check: %+v", r.Error)
	}
	d.run = nil
	c.Add(5 * time.Second)
	busy.Pending() // busy is used at +55 s
	broker.ReapIdle(m)
	select {
	case <-ended:
		t.Fatal("a session idle for 55 s of a minute's timeout was ended")
	default:
	}
	c.Add(10 * time.Second) // +65 s: idle for 65 s, long for 15 s, busy for 10 s
	broker.ReapIdle(m)
	select {
	case <-ended:
	default:
		t.Fatal("a session idle for 65 s of a minute's timeout was not ended")
	}
	for _, s := range []*broker.Session{busy, long} {
		if _, ok := m.Session(s.ID()); !ok {
			t.Errorf("session %s, used within the timeout, was ended too", s.ID())
		}
	}
	if r := idle.Run(ctx, readPlan()); r.Error == nil || !strings.Contains(r.Error.Message, "idle") {
		t.Fatalf("call on the idle session: %+v", r.Error)
	}
}

func TestStepWritesOnlyWhatItChanged(t *testing.T) {
	m, root, _, _ := setup(t, broker.Options{})
	ctx := context.Background()
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("bee\n"), 0o644)
	s, _ := m.Open(ctx, root)
	s.Run(ctx, &engine.Plan{Paths: []string{"b.txt"}, Ops: []engine.Op{{Step: engine.StepEdit, Args: editArgs("b.txt", "bee", "BEE")}}})
	r := s.Step(ctx, broker.StepRequest{Args: editArgs("a.txt", "one", "ONE")})
	if !r.OK || !slices.Equal(r.Written, []string{"a.txt"}) {
		t.Fatalf("step: written %v, error %+v", r.Written, r.Error)
	}
	if got := s.Pending(); !slices.Equal(got, []string{"b.txt"}) {
		t.Fatalf("pending after step %v", got)
	}
	// A read does not write.
	r = s.Step(ctx, broker.StepRequest{Args: mustArgs(engine.StepReadLines, []byte(`{"path":"b.txt","start":1}`))})
	if r.Reads["b.txt"] != "BEE" || len(r.Written) != 0 {
		t.Fatalf("read: %+v", r)
	}
	// A file the step names follows the disk: with no unwritten change it
	// is read again, so the edit applies to what is on disk now.
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("ONE\ntwo\nthree\n"), 0o644)
	r = s.Step(ctx, broker.StepRequest{Args: editArgs("a.txt", "two", "2")})
	if !r.OK || !slices.Equal(r.Written, []string{"a.txt"}) {
		t.Fatalf("edit after an outside change: written %v, error %+v", r.Written, r.Error)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "ONE\n2\nthree\n" {
		t.Fatalf("a.txt = %q", b)
	}
	// A file with unwritten changes keeps them, is reported stale, and
	// its write fails as step 2; the workspace keeps the edit.
	os.WriteFile(filepath.Join(root, "b.txt"), []byte("bee\nmore\n"), 0o644)
	r = s.Step(ctx, broker.StepRequest{Args: editArgs("b.txt", "BEE", "B")})
	if r.OK || r.Error == nil || r.Error.Step != 2 || r.Error.Name != "write" || r.Error.Kind != "conflict" {
		t.Fatalf("conflicting write: %+v", r.Error)
	}
	if len(r.Stale) != 1 || r.Stale[0].Path != "b.txt" || r.Stale[0].Disk != "changed" {
		t.Fatalf("stale = %+v", r.Stale)
	}
}

// A root given through a symlink (macOS's /tmp, a symlinked checkout) is
// shared with its resolved spelling, but each session still takes absolute
// paths spelled the way its root was given, as edit_file and editor URIs
// spell them.
func TestSessionTakesPathsUnderTheRootAsGiven(t *testing.T) {
	m, root, _, _ := setup(t, broker.Options{})
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Skip("no symlinks:", err)
	}
	ctx := context.Background()
	s, err := m.Open(ctx, link)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, abs := range []string{filepath.Join(link, "a.txt"), filepath.Join(s.Root().Dir(), "a.txt")} {
		if rel, err := s.Rel(abs); err != nil || rel != "a.txt" {
			t.Errorf("Rel(%s) = %q, %v; want a.txt", abs, rel, err)
		}
	}
	if s2, err := m.Open(ctx, root); err != nil || s2.Root() != s.Root() {
		t.Fatalf("the two spellings do not share one Root: %v", err)
	}
}
