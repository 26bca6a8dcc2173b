// Package procmem reads the memory of a process tree on Linux: a process
// and every descendant, found by the parent each process names in
// /proc/PID/stat, each measured by /proc/PID/smaps_rollup. The tree's
// PSS (proportional set size: each shared page divided among the
// processes that map it) is the sum of its processes', so pages the tree's
// processes share are counted once; its RSS sums every process's resident
// pages, shared ones as often as they are mapped.
//
// Where /proc has no smaps_rollup (another OS, an old kernel), [Supported]
// says why and nothing is measured: a size is never a made-up zero.
package procmem

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Proc is one process of a tree.
type Proc struct {
	PID  int
	Comm string   // the command's name, as /proc/PID/stat gives it
	Args []string // its command line (none for a process that hides it)
	PSS  int64    // bytes
	RSS  int64    // bytes
	Anon int64    // anonymous PSS (heap, stacks), bytes; 0 where the kernel does not say
}

// Tree is a process tree at one moment.
type Tree struct {
	PSS, RSS int64  // bytes, summed over Procs
	Procs    []Proc // the root first, then its descendants by PID
	Shared   int    // children not in Procs: they ran in their parent's memory (vfork, before exec)
}

// String is the tree in short: its PSS and RSS in MiB and its processes.
func (t Tree) String() string {
	return fmt.Sprintf("PSS %s, RSS %s, %d processes", MiB(t.PSS), MiB(t.RSS), len(t.Procs))
}

// MiB formats bytes as mebibytes.
func MiB(b int64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

// Supported returns nil when this system's /proc can be read for
// memory, else why not.
func Supported() error {
	if _, err := os.ReadFile("/proc/self/smaps_rollup"); err != nil {
		return fmt.Errorf("no /proc/PID/smaps_rollup on this system: %w", err)
	}
	return nil
}

// Parents maps every process in /proc to its parent.
func Parents() (map[int]int, error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	out := make(map[int]int, len(ents))
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		_, ppid, err := stat(pid)
		if err != nil {
			continue // gone since the listing
		}
		out[pid] = ppid
	}
	return out, nil
}

// stat reads a process's command name and parent from /proc/PID/stat.
func stat(pid int) (comm string, ppid int, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return "", 0, err
	}
	return parseStat(b)
}

// parseStat reads the command name and the parent of a /proc/PID/stat
// line: "PID (COMM) STATE PPID ...", where COMM may hold spaces and
// parentheses, so it ends at the last ')'.
func parseStat(b []byte) (comm string, ppid int, err error) {
	open, end := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || end < open {
		return "", 0, fmt.Errorf("stat %q: no command name", b)
	}
	f := strings.Fields(string(b[end+1:]))
	if len(f) < 2 {
		return "", 0, fmt.Errorf("stat %q: no parent", b)
	}
	ppid, err = strconv.Atoi(f[1])
	return string(b[open+1 : end]), ppid, err
}

// Descendants are pid and every process below it in parents, pid first,
// then level by level (a parent before its children), each level's by
// PID.
func Descendants(pid int, parents map[int]int) []int {
	children := map[int][]int{}
	for c, p := range parents {
		if c != p {
			children[p] = append(children[p], c)
		}
	}
	out := []int{pid}
	seen := map[int]bool{pid: true}
	for i := 0; i < len(out); i++ {
		cs := children[out[i]]
		slices.Sort(cs)
		for _, c := range cs {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	return out
}

// Measure reads the tree of pid, its descendants found in parents. A
// descendant that exits before it is read is left out; the root's exit
// is an error. A child that shares its parent's address space (Go and
// others start a command with vfork: until its exec the child runs in
// the parent's memory, and /proc shows the parent's sizes for it) is
// not counted again, only in Shared.
func Measure(pid int, parents map[int]int) (Tree, error) {
	var t Tree
	read := map[int]*Proc{}
	for i, p := range Descendants(pid, parents) {
		pr, shared, err := readProc(p, read[parents[p]])
		if err != nil {
			if i > 0 && errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return Tree{}, err
		}
		if shared {
			t.Shared++
			continue
		}
		read[p] = &pr
		t.Procs = append(t.Procs, pr)
		t.PSS += pr.PSS
		t.RSS += pr.RSS
	}
	return t, nil
}

// ReadTree reads the tree of pid as /proc has it now.
func ReadTree(pid int) (Tree, error) {
	parents, err := Parents()
	if err != nil {
		return Tree{}, err
	}
	return Measure(pid, parents)
}

// Read measures one process.
func Read(pid int) (Proc, error) {
	p, _, err := readProc(pid, nil)
	return p, err
}

// readProc measures a process, and says whether it runs in its parent's
// address space (parent nil: not asked). A child with its parent's
// command name may be a vfork child before its exec (an exec'd child has
// its own name); kcmp(2) is asked before the sizes are read, as the exec
// may come at any moment, after which the child never shares its
// parent's memory again. Where kcmp cannot answer (an unknown platform, a
// sandbox that refuses the call) [looksShared] decides, by the sizes.
func readProc(pid int, parent *Proc) (p Proc, shared bool, err error) {
	comm, _, err := stat(pid)
	if err != nil {
		return Proc{}, false, err
	}
	maybe := parent != nil && comm == parent.Comm
	if maybe {
		same, err := sameVM(pid, parent.PID)
		if same {
			return Proc{}, true, nil
		}
		maybe = err != nil // kcmp said no, or could not say
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/smaps_rollup", pid))
	if errors.Is(err, syscall.ESRCH) { // exiting
		return Proc{}, false, fmt.Errorf("process %d: %w", pid, fs.ErrNotExist)
	}
	if err != nil {
		return Proc{}, false, err
	}
	if len(b) == 0 { // a process exiting (or a kernel thread) maps nothing
		return Proc{}, false, fmt.Errorf("process %d: %w", pid, fs.ErrNotExist)
	}
	if p, err = parseRollup(b); err != nil {
		return Proc{}, false, err
	}
	p.PID, p.Comm = pid, comm
	if cl, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil {
		p.Args = strings.Split(strings.TrimSuffix(string(cl), "\x00"), "\x00")
	}
	return p, maybe && looksShared(p, *parent), nil
}

// looksShared is the guess, without kcmp, that child runs in parent's
// memory: its command line and sizes, within 2 %, are its parent's. A
// child forked without vfork, before its exec, looks the same: its half
// of the pages it shares with its parent is then left out until the
// exec.
func looksShared(child, parent Proc) bool {
	near := func(a, b int64) bool { return a >= b-b/50 && a <= b+b/50 }
	return child.Comm == parent.Comm && slices.Equal(child.Args, parent.Args) && near(child.PSS, parent.PSS) && near(child.RSS, parent.RSS)
}

// parseRollup reads the Pss, Rss and Pss_Anon lines (in kB) of
// /proc/PID/smaps_rollup.
func parseRollup(b []byte) (Proc, error) {
	var p Proc
	seen := 0
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		var to *int64
		switch name {
		case "Pss":
			to = &p.PSS
			seen |= 1
		case "Rss":
			to = &p.RSS
			seen |= 2
		case "Pss_Anon":
			to = &p.Anon
		default:
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(val), " kB"), 10, 64)
		if err != nil {
			return Proc{}, fmt.Errorf("smaps_rollup: %s: %w", name, err)
		}
		*to = kb << 10
	}
	if seen != 3 {
		return Proc{}, errors.New("smaps_rollup: no Pss or Rss line")
	}
	return p, nil
}

// Usage is what a [Sampler] saw of one tree.
type Usage struct {
	Peak    Tree  // the sample with the highest PSS
	End     Tree  // the last sample read: Stop's, or the one before it when Stop's read failed
	Samples int   // how many samples were read
	Err     error // why the tree was not measured (then Peak and End are empty)
}

// Sampler reads the trees of some processes every so often, in the
// background, until it is stopped.
type Sampler struct {
	pids   []int
	stop   chan struct{}
	done   chan struct{}
	mu     sync.Mutex
	usage  []Usage
	failed error // Supported's answer
}

// Start samples the trees of pids at once, then every interval until
// Stop. Where the system cannot be measured, Stop reports why for every
// tree.
func Start(interval time.Duration, pids ...int) *Sampler {
	s := &Sampler{pids: pids, stop: make(chan struct{}), done: make(chan struct{}), usage: make([]Usage, len(pids))}
	if s.failed = Supported(); s.failed != nil {
		close(s.done)
		return s
	}
	s.sample()
	go func() {
		defer close(s.done)
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-s.stop:
				return
			case <-tick.C:
				s.sample()
			}
		}
	}()
	return s
}

// sample reads every tree once; each tree read is its End until a later
// one is.
func (s *Sampler) sample() {
	parents, perr := Parents()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, pid := range s.pids {
		u := &s.usage[i]
		t, err := Tree{}, perr
		if err == nil {
			t, err = Measure(pid, parents)
		}
		if err != nil {
			if u.Err == nil {
				u.Err = err
			}
			continue
		}
		u.Samples++
		if t.PSS > u.Peak.PSS {
			u.Peak = t
		}
		u.End = t
	}
}

// Stop (called once) takes the last sample and returns each tree's usage, in the order
// of Start's pids. A tree whose every read failed has its Err set; one
// that failed only sometimes (its root exited at the end) keeps what was
// read.
func (s *Sampler) Stop() []Usage {
	if s.failed != nil {
		out := make([]Usage, len(s.pids))
		for i := range out {
			out[i].Err = s.failed
		}
		return out
	}
	close(s.stop)
	<-s.done
	s.sample()
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.usage)
	for i := range out {
		if out[i].Samples > 0 {
			out[i].Err = nil
		}
	}
	return out
}
