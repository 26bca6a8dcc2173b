package main

// Trust holds on the editor surface too: `devbroker serve --stdio` on an
// untrusted root runs none of the commands its .devbroker.toml names, not
// at start-up and not for a plan's lint, and the answer is not ok.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"
)

// editorClient speaks the editor protocol's framing to a child process.
type editorClient struct {
	t   *testing.T
	in  io.Writer
	out *bufio.Reader
}

func (c *editorClient) send(msg string) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(msg), msg); err != nil {
		c.t.Fatal(err)
	}
}

// answer reads messages until the answer to id, skipping notifications.
func (c *editorClient) answer(id int) map[string]any {
	c.t.Helper()
	for {
		n := -1
		for {
			l, err := c.out.ReadString('\n')
			if err != nil {
				c.t.Fatalf("reading the answer to %d: %v", id, err)
			}
			if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Content-Length:"); ok {
				fmt.Sscan(v, &n)
			}
			if strings.TrimSpace(l) == "" && n >= 0 {
				break
			}
		}
		b := make([]byte, n)
		if _, err := io.ReadFull(c.out, b); err != nil {
			c.t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			c.t.Fatalf("message %q: %v", b, err)
		}
		if m["id"] == float64(id) {
			return m
		}
	}
}

// startEditor starts devbroker serve --stdio on root and stops it when the
// test ends (its logs shown if the test failed).
func startEditor(t *testing.T, root string, extra ...string) *editorClient {
	t.Helper()
	cmd := exec.Command(devbrokerBin(t), append([]string{"serve", "--stdio", "--root", root}, extra...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	cmd.Stderr = logs
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close() // the endpoint ends when its input does
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(time.Minute):
			cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("editor endpoint logs:\n%s", logs)
		}
	})
	return &editorClient{t: t, in: stdin, out: bufio.NewReader(stdout)}
}

func TestServeEditorUntrustedRunsNothing(t *testing.T) {
	parent, root := trustRoots(t, markerTOML)
	c := startEditor(t, root)
	c.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
	c.answer(1)
	c.send(`{"jsonrpc":"2.0","method":"initialized","params":{}}`)
	c.send(`{"jsonrpc":"2.0","id":2,"method":"devbroker/plan","params":{"paths":["notes.txt"],"ops":[{"step":"lint"}]}}`)
	a := c.answer(2)
	b, _ := json.Marshal(a)
	assertNoMarkers(t, parent)
	t.Logf("answer: %s", b)
	// The untrusted file applies not at all: its notes language does not
	// exist, so nothing lints notes.txt (and the marker never ran). The
	// answer's coverage says so, and that the project file is ignored
	// until trusted.
	if !strings.Contains(string(b), "1 file not linted (notes.txt): no configured language covers it") {
		t.Errorf("the lint answer with the project file untrusted: %s", b)
	}
	if !regexp.MustCompile(`"kind":"config","message":"[^"]*/\.devbroker\.toml is not trusted: none of it applies[^"]*devbroker trust`).Match(b) {
		t.Errorf("the lint answer does not say the project file is ignored until trusted: %s", b)
	}
}
