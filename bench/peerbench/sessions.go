package main

// This file measures concurrent sessions on one root: one server process,
// several MCP clients over HTTP, each session editing its own file of the
// module while the others edit theirs. devbroker serves them over
// streamable HTTP (one gopls for the root, shared by the sessions); gopls
// mcp over SSE (-listen: one gopls session, shared). Each session's answer
// is judged on its own file, as the others' errors are really there (on
// disk for gopls mcp).

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"regexp"
	"sync"
	"syscall"
	"time"

	"github.com/devbroker/devbroker/bench/internal/host"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func measureSessions(ctx context.Context, c *corpus, t *tools, o options, res *results) error {
	if o.sessions == 0 {
		return nil
	}
	files, err := c.sessionFiles(o.sessions)
	if err != nil {
		return err
	}
	// Both servers run at once, each on its own copy with its sessions
	// connected and warm; the rounds alternate between them (the first
	// to go alternates too), so both are measured under the same load.
	type side struct {
		name  string
		cands []candidate
		edits []*edit
		took  time.Duration
	}
	type server struct {
		name, label string
		start       func(context.Context, *tools, string, []*edit) ([]candidate, func(), error)
	}
	servers := []server{{
		fmt.Sprintf("devbroker `dev_plan [edit, check]`, %d sessions over streamable HTTP", o.sessions), "devbroker --http",
		func(ctx context.Context, t *tools, root string, edits []*edit) ([]candidate, func(), error) {
			return devbrokerSessions(ctx, t, t.devbroker, root, edits)
		},
	}}
	if t.baseline != "" {
		// The -baseline binary (a build before a change) serves its own
		// sessions in the same rounds.
		servers = append(servers, server{
			fmt.Sprintf("baseline devbroker (%s) `dev_plan [edit, check]`, %d sessions over streamable HTTP", filepath.Base(t.baseline), o.sessions), "baseline devbroker --http",
			func(ctx context.Context, t *tools, root string, edits []*edit) ([]candidate, func(), error) {
				return devbrokerSessions(ctx, t, t.baseline, root, edits)
			},
		})
	}
	servers = append(servers, server{fmt.Sprintf("`gopls mcp -listen`, %d sessions over SSE", o.sessions), "gopls mcp -listen", goplsSessions})
	var sides []*side
	var names, labels []string
	var pids []int
	for _, s := range servers {
		root, err := c.copyOf(fmt.Sprintf("sessions-%d", len(sides)))
		if err != nil {
			return err
		}
		edits := make([]*edit, len(files))
		for i, f := range files {
			if edits[i], err = newEdit(root, f); err != nil {
				return err
			}
		}
		logf("starting and warming %s", s.name)
		cands, stop, err := s.start(ctx, t, root, edits)
		if err != nil {
			return fmt.Errorf("%s: %w", s.name, err)
		}
		defer stop()
		sides = append(sides, &side{name: s.name, cands: cands, edits: edits})
		names, labels, pids = append(names, s.name), append(labels, s.label), append(pids, cands[0].pid())
	}
	// Every server's memory, from before their warm-up to the rounds' end.
	mem := watchMemory(fmt.Sprintf("%d sessions at once", o.sessions), names, labels, pids, names[len(names)-1])
	for _, sd := range sides {
		if err := warmAll(ctx, sd.cands, sd.edits); err != nil {
			return fmt.Errorf("%s: %w", sd.name, err)
		}
	}
	mem.stage("the sessions' warm-up")
	logf("measuring %d sessions, %d rounds, the servers taking turns", o.sessions, o.n)
	for r := range o.n {
		for k := range sides {
			sd := sides[(r+k)%len(sides)]
			took, err := concurrently(ctx, sd.cands, sd.edits, func(broken bool) *series {
				return res.series(res.sessions, sd.name, direction(broken))
			})
			if err != nil {
				return fmt.Errorf("%s: %w", sd.name, err)
			}
			sd.took += took
		}
	}
	for _, sd := range sides {
		res.rates = append(res.rates, rate{name: sd.name, answers: 2 * o.n * len(sd.cands), took: sd.took})
	}
	res.memory = append(res.memory, mem.end("the sessions' rounds"))
	res.sessionsLoad = host.Load()
	res.sessionFiles = files
	return nil
}

// warmAll warms every session at once.
func warmAll(ctx context.Context, cands []candidate, edits []*edit) error {
	errs := make([]error, len(cands))
	var wg sync.WaitGroup
	for i := range cands {
		wg.Go(func() {
			if _, err := warm(ctx, cands[i], edits[i], 5, true); err != nil {
				errs[i] = fmt.Errorf("session %d (%s): %w", i, edits[i].file, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}

// concurrently runs one round in every session at once: the error added,
// then removed. The samples of all sessions go to one series per
// direction. It returns the round's wall time.
func concurrently(ctx context.Context, cands []candidate, edits []*edit, to func(bool) *series) (time.Duration, error) {
	var mu sync.Mutex
	errs := make([]error, len(cands))
	var wg sync.WaitGroup
	began := time.Now()
	for i := range cands {
		wg.Go(func() {
			for _, broken := range directions {
				a, d, err := timed(func() (answer, error) { return set(ctx, cands[i], edits[i], broken) })
				if err != nil {
					errs[i] = fmt.Errorf("session %d (%s): %w", i, edits[i].file, err)
					return
				}
				ok, why := judge(a, edits[i], wantOf(broken), nil, true)
				mu.Lock()
				to(broken).add(d, ok, why)
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return time.Since(began), errors.Join(errs...)
}

// devbrokerSessions starts the devbroker binary bin's serve --mcp --http on a loopback port
// and connects one client per edit. stop closes them and the server.
func devbrokerSessions(ctx context.Context, t *tools, bin, root string, edits []*edit) ([]candidate, func(), error) {
	cmd := exec.Command(bin, "serve", "--mcp", "--root", root, "--http", "127.0.0.1:0")
	cmd.Env = t.env()
	url, stop, err := startListening(cmd, regexp.MustCompile(`url=(http://\S+)`))
	if err != nil {
		return nil, nil, fmt.Errorf("devbroker serve --http: %w", err)
	}
	var cands []candidate
	for _, e := range edits {
		changed := make(chan struct{}, 1)
		cs, err := connect(ctx, &sdk.StreamableClientTransport{Endpoint: url, MaxRetries: -1}, changed, "")
		if err == nil {
			err = waitForTool(ctx, cs, changed, "check")
		}
		if err != nil {
			closeAll(cands)
			stop()
			return nil, nil, err
		}
		cands = append(cands, &devbroker{cs: cs, proc: cmd.Process.Pid, root: root, e: e})
	}
	return cands, func() { closeAll(cands); stop() }, nil
}

// goplsSessions starts gopls mcp -listen on a free loopback port and
// connects one SSE client per edit. The port is found by listening and
// closing, so another process may take it before gopls does: a start that
// fails is tried again on a new port, twice.
func goplsSessions(ctx context.Context, t *tools, root string, edits []*edit) ([]candidate, func(), error) {
	var addr string
	var pid int
	var stop func()
	var err error
	for range 3 {
		if addr, pid, stop, err = listenGopls(t, root); err == nil {
			break
		}
	}
	if err != nil {
		return nil, nil, err
	}
	var cands []candidate
	for _, e := range edits {
		cs, err := connect(ctx, &sdk.SSEClientTransport{Endpoint: "http://" + addr}, nil, root)
		if err != nil {
			closeAll(cands)
			stop()
			return nil, nil, err
		}
		cands = append(cands, goplsSession(cs, pid, root, e))
	}
	return cands, func() { closeAll(cands); stop() }, nil
}

// listenGopls starts gopls mcp -listen on a loopback port that was free a
// moment ago and returns its address and process once gopls says it
// listens.
func listenGopls(t *tools, root string) (string, int, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", 0, nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(t.gopls, "mcp", "-listen="+addr)
	cmd.Dir, cmd.Env = root, t.env()
	_, stop, err := startListening(cmd, regexp.MustCompile(`(mcp http server listening)`))
	if err != nil {
		return "", 0, nil, fmt.Errorf("gopls mcp -listen: %w", err)
	}
	return addr, cmd.Process.Pid, stop, nil
}

func closeAll(cands []candidate) {
	for _, c := range cands {
		c.close()
	}
}

// startListening starts cmd and waits for a line of its standard error
// that re matches, and returns the match's first group and how to stop
// the process (SIGTERM, then SIGKILL after 10 s).
func startListening(cmd *exec.Cmd, re *regexp.Regexp) (string, func(), error) {
	pr, pw := io.Pipe()
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		return "", nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); pw.Close(); close(exited) }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
				break
			}
		}
		io.Copy(io.Discard, pr)
	}()
	select {
	case s := <-found:
		return s, stop, nil
	case <-exited:
		return "", nil, fmt.Errorf("exited before listening")
	case <-time.After(2 * time.Minute):
		stop()
		return "", nil, fmt.Errorf("did not start listening within 2 minutes")
	}
}
