package lsptest

// This file defines the fault-injecting proxies: a fake that runs a real
// language server ($DEVBROKER_FAKE_LSP_SERVER, gopls say) and passes its
// messages through, but in a root that holds HangMarker holds some back,
// so that the real server seems slower than it is. Nothing is changed,
// only delayed, and only in the marked root: the driver's probe, which
// runs the server on a root of its own, meets the real server.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
)

// ServerVar names the real server a proxy runs: a path, looked up on
// PATH when it has no slash; the proxy's arguments are passed on.
const ServerVar = "DEVBROKER_FAKE_LSP_SERVER"

// Proxies of a real server.
const (
	// SlowLoad holds back the end of the server's first work-done
	// progress (gopls's "Setting up workspace: Loading packages..."),
	// and everything the server sends after it, until the process gets
	// SIGUSR1: a server whose workspace load takes as long as the test
	// wants.
	SlowLoad = "slow-load"
	// EndlessLoad is SlowLoad without an end: a server whose load never
	// ends (nor anything it would send after it).
	EndlessLoad = "endless-load"
	// SlowStart holds back from the server the first
	// workspace/executeCommand it is sent, and every request and
	// notification sent after it, until the process gets SIGUSR1: a
	// server still busy with what it was sent before a request (gopls
	// taking in the documents opened for a check) when its load has
	// ended.
	SlowStart = "slow-start"
)

// proxy reports whether mode is a proxy.
func proxy(mode string) bool { return mode == SlowLoad || mode == EndlessLoad || mode == SlowStart }

// runProxy serves mode over the real server, on r and w, until either
// side closes.
func runProxy(mode string, r io.Reader, w io.Writer) {
	name := os.Getenv(ServerVar)
	if name == "" {
		fmt.Fprintln(os.Stderr, "lsptest: set "+ServerVar+" to the server a proxy runs")
		os.Exit(2)
	}
	cmd := exec.Command(name, os.Args[1:]...)
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "lsptest:", err)
		os.Exit(2)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		fmt.Fprintln(os.Stderr, "lsptest:", err)
		os.Exit(2)
	}
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "lsptest:", err)
		os.Exit(2)
	}
	var release <-chan struct{}
	if mode != EndlessLoad {
		release = loadEnd() // listening before anything is held
	}
	// Whether the root holds HangMarker, once initialize has told.
	var marked bool
	told := make(chan struct{})
	var once sync.Once
	mark := func(b bool) { once.Do(func() { marked = b; close(told) }) }
	ask := func() bool { <-told; return marked }
	done := make(chan struct{}, 2)
	// The client's messages to the server. SlowStart holds back its
	// requests and notifications, not its answers to the server's own
	// requests (window/workDoneProgress/create, say), which the server
	// waits for.
	var mu sync.Mutex // guards the writes to in, and what follows
	var pending [][]byte
	holding, released := false, false
	if mode == SlowStart {
		go func() {
			<-release
			mu.Lock()
			defer mu.Unlock()
			holding, released = false, true
			for _, f := range pending {
				_, _ = in.Write(f)
			}
			pending = nil
		}()
	}
	go func() {
		defer func() { done <- struct{}{} }()
		defer in.Close()
		br := bufio.NewReader(r)
		for {
			frame, m, err := readFrame(br)
			if err != nil {
				mark(false)
				return
			}
			if m.Method == "initialize" {
				mark(markedRoot(m.Params))
			}
			hold := mode == SlowStart && m.Method == "workspace/executeCommand" && ask()
			mu.Lock()
			if hold && !released {
				holding = true
			}
			if holding && m.Method != "" {
				pending = append(pending, frame)
				mu.Unlock()
				continue
			}
			_, err = in.Write(frame)
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// The server's messages to the client.
	go func() {
		defer func() { done <- struct{}{} }()
		br := bufio.NewReader(out)
		begun := "" // the token of the server's first work-done progress
		held := false
		for {
			frame, m, err := readFrame(br)
			if err != nil {
				return
			}
			if (mode == SlowLoad || mode == EndlessLoad) && !held && m.Method == "$/progress" {
				tok, kind := progressOf(m.Params)
				switch {
				case begun == "" && kind == "begin":
					begun = tok
				case tok == begun && kind == "end" && ask():
					held = true
					<-release // nil for EndlessLoad: forever
				}
			}
			if _, err := w.Write(frame); err != nil {
				return
			}
		}
	}()
	<-done
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
}

// progressOf is a $/progress's token (as its JSON) and kind.
func progressOf(params json.RawMessage) (token, kind string) {
	var p struct {
		Token json.RawMessage `json:"token"`
		Value struct {
			Kind string `json:"kind"`
		} `json:"value"`
	}
	_ = json.Unmarshal(params, &p)
	return string(p.Token), p.Value.Kind
}

// readFrame reads one message: its whole frame (header and body) and
// the message.
func readFrame(br *bufio.Reader) ([]byte, *msg, error) {
	var head bytes.Buffer
	n := -1
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			return nil, nil, err
		}
		head.WriteString(line)
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if n < 0 {
		return nil, nil, fmt.Errorf("no Content-Length")
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(br, body); err != nil {
		return nil, nil, err
	}
	var m msg
	_ = json.Unmarshal(body, &m)
	return append(head.Bytes(), body...), &m, nil
}
