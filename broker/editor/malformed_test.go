package editor_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/broker/editor"
	"github.com/devbroker/devbroker/engine/testtree"
)

// rawReply is a response as it is on the wire.
type rawReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    struct {
			Kind      string `json:"kind"`
			Message   string `json:"message"`
			Retryable *bool  `json:"retryable"`
		} `json:"data"`
	} `json:"error"`
}

// readFrame reads one Content-Length framed message.
func readFrame(t *testing.T, r *bufio.Reader) rawReply {
	t.Helper()
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("reading a header: %v", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		t.Fatal(err)
	}
	var out rawReply
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("reply %q: %v", body, err)
	}
	return out
}

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// Malformed framing and JSON are answered with errors, and the connection
// keeps serving.
func TestMalformedInputKeepsTheConnection(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "one\n"})
	mgr := broker.NewManager(broker.Options{})
	t.Cleanup(func() { mgr.Close() })
	srv, cli := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- editor.Options{}.Serve(context.Background(), srv, mgr, root) }()
	r := bufio.NewReader(cli)
	send := func(s string) {
		t.Helper()
		cli.SetWriteDeadline(time.Now().Add(10 * time.Second))
		if _, err := io.WriteString(cli, s); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name, input string
		code        int
		id          string
		msg         string
	}{
		{"not JSON", frame(`{"jsonrpc":"2.0","id":1,"method":`), -32700, "null", "not valid JSON"},
		{"no Content-Length", "Content-Type: x\r\n\r\n", -32700, "null", "missing Content-Length"},
		{"bad Content-Length", "Content-Length: many\r\n\r\n", -32700, "null", "invalid Content-Length"},
		{"not an object", frame(`[1,2]`), -32600, "null", "batches are not supported"},
		{"no jsonrpc version", frame(`{"id":7,"method":"initialize"}`), -32600, "7", `"jsonrpc": "2.0"`},
		{"unknown method", frame(`{"jsonrpc":"2.0","id":8,"method":"devbroker/nothing"}`), -32601, "8", "devbroker/plan"},
		{"before initialize", frame(`{"jsonrpc":"2.0","id":9,"method":"devbroker/probe"}`), -32002, "9", "initialize first"},
		{"bad initialize params", frame(`{"jsonrpc":"2.0","id":10,"method":"initialize","params":{"capabilities":7}}`), -32602, "10", "invalid params"},
	}
	for _, tc := range cases {
		send(tc.input)
		rep := readFrame(t, r)
		if rep.Error == nil || rep.Error.Code != tc.code || string(rep.ID) != tc.id || !strings.Contains(rep.Error.Message, tc.msg) {
			t.Errorf("%s: reply id %s error %+v, want code %d id %s and %q", tc.name, rep.ID, rep.Error, tc.code, tc.id, tc.msg)
			continue
		}
		if rep.Error.Data.Kind != "bad_argument" || rep.Error.Data.Retryable == nil || *rep.Error.Data.Retryable || rep.Error.Data.Message != rep.Error.Message {
			t.Errorf("%s: data %+v, want kind bad_argument, the error's message, retryable false", tc.name, rep.Error.Data)
		}
	}
	// Garbage glued to the next message's header: the reader resyncs.
	send("garbage" + frame(`{"jsonrpc":"2.0","id":11,"method":"initialize","params":{}}`))
	for i := 0; i < 2; i++ {
		rep := readFrame(t, r)
		switch string(rep.ID) {
		case "null":
			if rep.Error == nil || !strings.Contains(rep.Error.Message, "garbage") {
				t.Errorf("glued garbage: %+v", rep.Error)
			}
		case "11":
			if rep.Error != nil || !strings.Contains(string(rep.Result), `"devbroker"`) {
				t.Errorf("initialize after garbage: %s %+v", rep.Result, rep.Error)
			}
		default:
			t.Errorf("unexpected reply %+v", rep)
		}
	}
	send(frame(`{"jsonrpc":"2.0","id":12,"method":"devbroker/plan","params":{"paths":["a.txt"],"ops":[{"step":"read_lines","args":{"path":"a.txt","start":1}}]}}`))
	if rep := readFrame(t, r); rep.Error != nil || !strings.Contains(string(rep.Result), `"a.txt":"one"`) {
		t.Errorf("plan after malformed input: %s %+v", rep.Result, rep.Error)
	}
	send(frame(`{"jsonrpc":"2.0","id":13,"method":"devbroker/plan","params":{"paths":[],"ops":[],"extra":1}}`))
	if rep := readFrame(t, r); rep.Error == nil || rep.Error.Code != -32602 || !strings.Contains(rep.Error.Message, "extra") {
		t.Errorf("plan with an unknown field: %+v", rep.Error)
	}
	send(frame(`{"jsonrpc":"2.0","id":14,"method":"shutdown"}`))
	if rep := readFrame(t, r); rep.Error != nil {
		t.Errorf("shutdown: %+v", rep.Error)
	}
	send(frame(`{"jsonrpc":"2.0","method":"exit"}`))
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve after exit: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after exit")
	}
}
