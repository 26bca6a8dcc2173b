package main

// Graceful shutdown through the real binary: a lint call hangs in a
// driver (fault injection: devbroker-hang), the server gets SIGTERM, and
// the call still answers, cancelled, before the process exits.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

// hangRunning is what the hanging driver logs when a call reaches it.
const hangRunning = "hang driver: running"

// hangMain runs devbroker with a hanging lint driver.
func hangMain() {
	hookLoader = func(broker.Loader) broker.Loader {
		return func(context.Context, string, broker.Drivers) (broker.Drivers, error) { return hangDrivers{}, nil }
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// hangDrivers serves lint with a command that sleeps for ten minutes,
// killed when the call's context ends, as an external driver's is.
type hangDrivers struct{}

func (hangDrivers) Has(k engine.Kind) bool { return k == engine.Lint }

func (hangDrivers) Run(ctx context.Context, _ engine.Request) (*engine.Response, error) {
	fmt.Fprintln(os.Stderr, hangRunning)
	err := exec.CommandContext(ctx, "sleep", "600").Run()
	return &engine.Response{Drivers: []engine.DriverStatus{{Driver: "hang", Status: engine.StatusTimeout, Message: fmt.Sprintf("hang: %v (%v)", ctx.Err(), err)}}}, nil
}

func (hangDrivers) Report() *capabilities.Report {
	return &capabilities.Report{Available: map[engine.Kind][]string{engine.Lint: {"text"}}}
}

func (hangDrivers) Close() error { return nil }

// startHang starts devbroker-hang with args; stderr lines go to a channel
// as well as to the returned buffer.
func startHang(t *testing.T, args ...string) (*exec.Cmd, io.WriteCloser, io.Reader, <-chan string, *syncBuffer) {
	t.Helper()
	bin, err := exec.LookPath("devbroker-hang")
	if err != nil {
		t.Fatalf("devbroker-hang is not on PATH: %v", err)
	}
	cmd := exec.Command(bin, args...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	pr, pw := io.Pipe()
	logs := &syncBuffer{}
	cmd.Stderr = io.MultiWriter(logs, pw)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string, 1000)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		pw.Close()
		if t.Failed() {
			t.Logf("server logs:\n%s", logs)
		}
	})
	return cmd, stdin, stdout, lines, logs
}

// waitLine waits for a stderr line containing s.
func waitLine(t *testing.T, lines <-chan string, s string) {
	t.Helper()
	timeout := time.After(2 * time.Minute)
	for {
		select {
		case l := <-lines:
			if strings.Contains(l, s) {
				return
			}
		case <-timeout:
			t.Fatalf("no log line %q", s)
		}
	}
}

// waitExit waits for the process to exit (a generous bound: the point is
// that it exits, long before the hung command's ten minutes).
func waitExit(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("no exit after SIGTERM within a minute")
	}
}

func TestServeStdioSIGTERMAnswersInFlight(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	cmd, stdin, stdout, lines, _ := startHang(t, "serve", "--mcp", "--root", root, "--tools", "full", "--grace", "1s") // lint as a tool of its own
	answers := make(chan map[string]any, 10)
	go func() {
		dec := json.NewDecoder(stdout)
		for {
			var m map[string]any
			if dec.Decode(&m) != nil {
				close(answers)
				return
			}
			if m["id"] != nil {
				answers <- m
			}
		}
	}()
	send := func(s string) {
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	<-answers
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"lint","arguments":{"paths":["a.txt"]}}}`)
	waitLine(t, lines, hangRunning)
	cmd.Process.Signal(syscall.SIGTERM)
	var m map[string]any
	select {
	case a, ok := <-answers:
		if !ok {
			t.Fatal("the server exited without answering the call in flight")
		}
		m = a
	case <-time.After(time.Minute):
		t.Fatal("no answer to the call in flight within a minute of SIGTERM")
	}
	b, _ := json.Marshal(m)
	if m["id"] != float64(2) || m["result"] == nil || !strings.Contains(string(b), "timeout") {
		t.Fatalf("answer to the call in flight: %s", b)
	}
	waitExit(t, cmd)
}

func TestServeEditorSIGTERMAnswersInFlight(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	cmd, stdin, stdout, lines, _ := startHang(t, "serve", "--stdio", "--root", root, "--grace", "1s")
	send := func(s string) {
		if _, err := fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(s), s); err != nil {
			t.Fatal(err)
		}
	}
	answers := make(chan map[string]any, 10)
	go func() {
		br := bufio.NewReader(stdout)
		for {
			n := 0
			for {
				l, err := br.ReadString('\n')
				if err != nil {
					close(answers)
					return
				}
				if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Content-Length:"); ok {
					fmt.Sscan(v, &n)
				}
				if strings.TrimSpace(l) == "" {
					break
				}
			}
			b := make([]byte, n)
			if _, err := io.ReadFull(br, b); err != nil {
				close(answers)
				return
			}
			var m map[string]any
			if json.Unmarshal(b, &m) == nil && m["id"] != nil {
				answers <- m
			}
		}
	}()
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	<-answers
	send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	send(`{"jsonrpc":"2.0","id":2,"method":"devbroker/plan","params":{"paths":["a.txt"],"ops":[{"step":"lint"}]}}`)
	waitLine(t, lines, hangRunning)
	cmd.Process.Signal(syscall.SIGTERM)
	select {
	case m, ok := <-answers:
		b, _ := json.Marshal(m)
		if !ok || m["id"] != float64(2) || !strings.Contains(string(b), "timeout") {
			t.Fatalf("answer to the request in flight: %s", b)
		}
	case <-time.After(time.Minute):
		t.Fatal("no answer to the request in flight within a minute of SIGTERM")
	}
	waitExit(t, cmd)
}
