//go:build unix

package lsp_test

// Tests of a start that does not end with the request that began it: a
// server that does not answer initialize is started once, not once per
// request, and Close (or the start's own bound) ends it and its process.

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/devbroker/devbroker/lsp"
	"github.com/devbroker/devbroker/lsp/lsptest"
)

// hangingServer is a Server on the fake that never answers, with the
// given start bound, and a function that returns the fake's process id
// once it has started (it writes it to a FIFO the function reads).
func hangingServer(t *testing.T, bound time.Duration) (*lsp.Server, func() int) {
	t.Helper()
	fifo := filepath.Join(t.TempDir(), "pid")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	s := lsp.NewServer(lsp.Config{Name: "fake", Command: []string{os.Args[0]}, Root: t.TempDir(), StartTimeout: bound,
		Env: []string{lsptest.EnvVar + "=" + lsptest.Hang, lsptest.PIDFileVar + "=" + fifo}})
	t.Cleanup(func() { _ = s.Close() })
	return s, func() int {
		t.Helper()
		b, err := os.ReadFile(fifo) // until the fake has written it
		if err != nil {
			t.Fatal(err)
		}
		pid, err := strconv.Atoi(string(b))
		if err != nil {
			t.Fatalf("pid %q: %v", b, err)
		}
		return pid
	}
}

// gone reports whether the process pid has exited and been reaped.
func gone(pid int) bool {
	return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}

// TestStartOutlivesTheRequest: a request that stops waiting while the
// server starts gets ErrStarting (a timeout), and the start goes on: the
// next request waits for the same process instead of starting another.
// Close ends the start, and the process is gone when it returns.
func TestStartOutlivesTheRequest(t *testing.T) {
	s, pid := hangingServer(t, 10*time.Minute)
	for i := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
		_, err := s.Diagnose(ctx, nil, nil)
		cancel()
		if !errors.Is(err, lsp.ErrStarting) || !errors.Is(err, context.DeadlineExceeded) || !strings.Contains(err.Error(), "fake has not answered initialize") {
			t.Fatalf("request %d: err = %v, want ErrStarting, a deadline, and what it waited for", i+1, err)
		}
	}
	p := pid()
	if n := lsp.Launches(s); n != 1 || gone(p) {
		t.Fatalf("%d starts (want 1), the first one's process gone: %v", n, gone(p))
	}
	if s.PID() != 0 || s.Starts() != 0 {
		t.Fatalf("a server that did not answer initialize counts as started: pid %d, starts %d", s.PID(), s.Starts())
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !gone(p) {
		t.Fatalf("the process %d of the start Close ended is still there", p)
	}
}

// TestStartBound: a start ends at its own bound, with an error that says
// so, and its process is gone then; the request that waited longer gets
// that error.
func TestStartBound(t *testing.T) {
	s, pid := hangingServer(t, 500*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := s.Diagnose(ctx, nil, nil)
		errc <- err
	}()
	p := pid()
	err := <-errc
	if errors.Is(err, lsp.ErrStarting) || !strings.Contains(err.Error(), "fake did not answer initialize within 500ms (its start's bound)") {
		t.Fatalf("err = %v, want the start's bound", err)
	}
	if !gone(p) {
		t.Fatalf("the process %d of the start that ran out is still there", p)
	}
}
