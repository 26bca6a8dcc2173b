package editor_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/editor"
	"github.com/devbroker/devbroker/engine/testtree"
)

// script is a connection whose input is fixed and already complete: the
// client wrote everything and closed its end. Like a pipe, it takes no
// write once closed.
type script struct {
	in     io.Reader
	mu     sync.Mutex
	out    bytes.Buffer
	closed bool
}

func (s *script) Read(p []byte) (int, error) { return s.in.Read(p) }
func (s *script) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, io.ErrClosedPipe
	}
	return s.out.Write(p)
}
func (s *script) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	return nil
}

// TestInputEndAnswersWhatWasSent: a client that writes its messages and
// closes its input (a script piping a file) gets every request answered,
// in order, before Serve returns, and its notifications (a buffer sync)
// land before the requests after them, and exit closes the connection only
// after the answers before it are written. (Answers lost to the input's end
// were a race, so the exchange runs several times.)
func TestInputEndAnswersWhatWasSent(t *testing.T) {
	for range 30 {
		inputEnd(t)
	}
}

func inputEnd(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "first\nsecond\n"})
	msgs := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`,
		`{"jsonrpc":"2.0","method":"initialized","params":{}}`,
		fmt.Sprintf(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file://%s/a.txt","languageId":"text","version":1,"text":"first\nunsaved\n"}}}`, root),
		`{"jsonrpc":"2.0","id":2,"method":"devbroker/plan","params":{"paths":["a.txt"],"ops":[{"step":"read_lines","args":{"path":"a.txt","start":2,"end":2},"label":"l"}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	}
	var in strings.Builder
	for _, m := range msgs {
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	conn := &script{in: strings.NewReader(in.String())}
	mgr := broker.NewManager(broker.Options{})
	defer mgr.Close()
	if err := (editor.Options{}).Serve(context.Background(), conn, mgr, root); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	conn.mu.Lock()
	out := conn.out.String()
	conn.mu.Unlock()
	for _, want := range []string{`"id":1`, `"reads":{"l":"unsaved"}`, `"result":null,"id":3`} {
		if !strings.Contains(out, want) {
			t.Errorf("the answers lack %s; got:\n%s", want, out)
		}
	}
}
