package procmem

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// depthEnv makes the test binary a link of a process chain: it starts
// itself with one less, and the last one waits for its standard input
// (the test's pipe) to close.
const depthEnv = "PROCMEM_TEST_DEPTH"

func TestMain(m *testing.M) {
	if v := os.Getenv(depthEnv); v != "" {
		depth, _ := strconv.Atoi(v)
		if depth <= 1 {
			io.Copy(io.Discard, os.Stdin)
			os.Exit(0)
		}
		// Touch some memory, so that this link's own size is more
		// than the runtime's.
		buf := make([]byte, 8<<20)
		for i := range buf {
			buf[i] = byte(i)
		}
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", depthEnv, depth-1))
		cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		runtime.KeepAlive(buf) // until the child is done
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// startChain starts a chain of n processes (the test binary, each the
// child of the one before) and returns the first's PID once all n can be
// read from /proc, each in its own memory (past its exec), polling with
// a deadline. Cleanup ends the chain.
func startChain(t *testing.T, n int) int {
	t.Helper()
	pid, _ := startChainEnd(t, n)
	return pid
}

// startChainEnd is startChain that also returns a function that ends the
// chain and waits for it (Cleanup then does nothing more).
func startChainEnd(t *testing.T, n int) (int, func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", depthEnv, n))
	cmd.Stdin, cmd.Stderr = r, os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	end := sync.OnceFunc(func() {
		w.Close() // the last link reads EOF, and each link's Run returns
		if err := cmd.Wait(); err != nil {
			t.Errorf("the chain: %v", err)
		}
	})
	t.Cleanup(end)
	deadline := time.Now().Add(time.Minute)
	for {
		tree, err := ReadTree(cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		if len(tree.Procs) == n && tree.Shared == 0 && slices.IndexFunc(tree.Procs, func(p Proc) bool { return len(p.Args) != 1 }) < 0 {
			return cmd.Process.Pid, end
		}
		if time.Now().After(deadline) {
			t.Fatalf("/proc did not show the chain's %d processes within a minute: %v", n, tree)
		}
		time.Sleep(10 * time.Millisecond) // polling /proc, bounded by the deadline
	}
}

func TestTree(t *testing.T) {
	if err := Supported(); err != nil {
		t.Skip(err)
	}
	pid := startChain(t, 3)
	parents, err := Parents()
	if err != nil {
		t.Fatal(err)
	}
	pids := Descendants(pid, parents)
	if len(pids) != 3 || pids[0] != pid {
		t.Fatalf("Descendants(%d) = %v, want the root and its child and grandchild", pid, pids)
	}
	if parents[pids[1]] != pid && parents[pids[2]] != pid {
		t.Errorf("no descendant of %d is its child: %v", pid, parents)
	}
	tree, err := Measure(pid, parents)
	if err != nil {
		t.Fatal(err)
	}
	var got []int
	var pss, rss int64
	for _, p := range tree.Procs {
		got = append(got, p.PID)
		if p.PSS <= 0 || p.RSS <= 0 || p.RSS < p.PSS {
			t.Errorf("process %d (%s): PSS %d, RSS %d: want 0 < PSS <= RSS", p.PID, p.Comm, p.PSS, p.RSS)
		}
		if p.Comm == "" || len(p.Args) != 1 || p.Args[0] != os.Args[0] {
			t.Errorf("process %d: command name %q, arguments %q: want a name and the test binary's %q", p.PID, p.Comm, p.Args, os.Args[0])
		}
		pss += p.PSS
		rss += p.RSS
	}
	if !slices.Equal(got, pids) {
		t.Errorf("the tree's processes are %v, want %v", got, pids)
	}
	if tree.PSS != pss || tree.RSS != rss {
		t.Errorf("the tree's PSS %d and RSS %d are not its processes' sums %d and %d", tree.PSS, tree.RSS, pss, rss)
	}
	// The test binary is not in its child's tree.
	if slices.Contains(pids, os.Getpid()) {
		t.Errorf("the tree of %d holds the test itself (%d)", pid, os.Getpid())
	}
}

func TestSampler(t *testing.T) {
	if err := Supported(); err != nil {
		s := Start(time.Millisecond, os.Getpid())
		if u := s.Stop(); u[0].Err == nil || u[0].Samples != 0 {
			t.Errorf("unsupported system: usage %+v, want the reason and no samples", u[0])
		}
		return
	}
	pid := startChain(t, 2)
	s := Start(time.Millisecond, pid, os.Getpid())
	u := s.Stop()
	if len(u) != 2 {
		t.Fatalf("Stop returned %d usages for 2 trees", len(u))
	}
	chain := u[0]
	if chain.Err != nil || chain.Samples < 2 {
		t.Fatalf("the chain's usage: %v, %d samples: want at least the first and the last", chain.Err, chain.Samples)
	}
	if len(chain.Peak.Procs) != 2 || len(chain.End.Procs) != 2 || chain.Peak.PSS <= 0 || chain.End.PSS <= 0 || chain.Peak.PSS < chain.End.PSS {
		t.Errorf("the chain's peak %v and end %v: want both processes, sizes above 0, the peak at least the end", chain.Peak, chain.End)
	}
	// The test's own tree holds the chain.
	if own := u[1]; len(own.End.Procs) < 3 || own.End.PSS <= chain.End.PSS {
		t.Errorf("the test's tree at the end, %v, does not hold the chain's %v", own.End, chain.End)
	}
}

// A tree whose root exits before Stop keeps the last tree read as its
// End, not an empty one.
func TestSamplerRootGoneAtStop(t *testing.T) {
	if err := Supported(); err != nil {
		t.Skip(err)
	}
	pid, end := startChainEnd(t, 2)
	s := Start(time.Hour, pid) // Start's own sample only
	end()
	u := s.Stop()[0]
	if u.Err != nil || u.Samples != 1 {
		t.Fatalf("usage: %v, %d samples; want Start's sample and no error", u.Err, u.Samples)
	}
	if len(u.End.Procs) != 2 || u.End.PSS <= 0 || u.End.PSS != u.Peak.PSS {
		t.Errorf("end %v, peak %v: want the one tree read, both processes", u.End, u.Peak)
	}
}

func TestParse(t *testing.T) {
	comm, ppid, err := parseStat([]byte("4242 (a (b) c) S 17 4242 4242 0 -1 4194560"))
	if err != nil || comm != "a (b) c" || ppid != 17 {
		t.Errorf("parseStat = %q, %d, %v; want \"a (b) c\", 17", comm, ppid, err)
	}
	rollup := "55d0c0a8e000-7ffd4b5f2000 ---p 00000000 00:00 0                  [rollup]\nRss:               13504 kB\nPss:                5213 kB\nPss_Anon:           3072 kB\nPss_File:           2141 kB\nShared_Clean:       9088 kB\n"
	p, err := parseRollup([]byte(rollup))
	if err != nil || p.RSS != 13504<<10 || p.PSS != 5213<<10 || p.Anon != 3072<<10 {
		t.Errorf("parseRollup = %+v, %v", p, err)
	}
	if _, err := parseRollup([]byte("Rss: 1 kB\n")); err == nil {
		t.Error("parseRollup without Pss: no error")
	}
	// A parent before its children, whatever their PIDs.
	if got := Descendants(9, map[int]int{2: 9, 3: 2, 4: 7, 5: 9, 1: 5}); !slices.Equal(got, []int{9, 2, 5, 3, 1}) {
		t.Errorf("Descendants = %v, want [9 2 5 3 1]", got)
	}
}

func TestSharesParent(t *testing.T) {
	if err := Supported(); err == nil {
		if same, err := sameVM(os.Getpid(), os.Getpid()); err == nil && !same {
			t.Errorf("kcmp: the test process does not share its own address space")
		}
		pid := startChain(t, 2)
		tree, err := ReadTree(pid)
		if err != nil {
			t.Fatal(err)
		}
		// Both run the test binary, but the child has its own memory.
		if len(tree.Procs) != 2 || tree.Shared != 0 {
			t.Fatalf("the chain's tree: %d processes, %d shared; want 2 and 0", len(tree.Procs), tree.Shared)
		}
		if _, shared, err := readProc(tree.Procs[1].PID, &tree.Procs[0]); err != nil || shared {
			t.Errorf("the chain's child (%d): shared %v, %v; want its own memory", tree.Procs[1].PID, shared, err)
		}
	}
	// Without kcmp: the command line and the sizes decide.
	parent := Proc{PID: 1, Comm: "gopls", Args: []string{"gopls"}, PSS: 400 << 20, RSS: 420 << 20}
	for _, c := range []struct {
		child Proc
		want  bool
	}{
		{Proc{PID: 2, Comm: "gopls", Args: []string{"gopls"}, PSS: 401 << 20, RSS: 421 << 20}, true},
		{Proc{PID: 2, Comm: "gopls", Args: []string{"gopls", "** telemetry **"}, PSS: 401 << 20, RSS: 421 << 20}, false},
		{Proc{PID: 2, Comm: "gopls", Args: []string{"gopls"}, PSS: 10 << 20, RSS: 12 << 20}, false},
		{Proc{PID: 2, Comm: "go", Args: []string{"gopls"}, PSS: 400 << 20, RSS: 420 << 20}, false},
	} {
		if got := looksShared(c.child, parent); got != c.want {
			t.Errorf("looksShared(%+v, %+v) = %v, want %v", c.child, parent, got, c.want)
		}
	}
}
