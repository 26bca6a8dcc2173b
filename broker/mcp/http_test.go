package mcp

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestHTTPStalledBodyAnswered408: a request whose body stops arriving is
// answered 408 once the body deadline passes, naming it, and the
// connection is not held past it.
func TestHTTPStalledBodyAnswered408(t *testing.T) {
	h := newHarness(t, &fakeDrivers{}, map[string]string{"a.txt": "one\n"})
	ts := httptest.NewServer(NewHTTPHandler(h.srv, HTTPOptions{BodyTimeout: 200 * time.Millisecond}))
	t.Cleanup(ts.Close)
	host := strings.TrimPrefix(ts.URL, "http://")
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	fmt.Fprintf(conn, "POST / HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", host)
	// A hang guard only: the answer comes after the 200 ms deadline.
	conn.SetReadDeadline(time.Now().Add(2 * time.Minute))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no answer to a stalled body: %v", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("status %d, want 408", resp.StatusCode)
	}
}

// TestHTTPUnknownSessionIDsLeaveNothing: requests naming session ids no
// session has are answered by the transport and leave no record in the
// gate (each added an entry that nothing removed until a new session came).
func TestHTTPUnknownSessionIDsLeaveNothing(t *testing.T) {
	h := newHarness(t, &fakeDrivers{}, map[string]string{"a.txt": "one\n"})
	g := newGate(h.srv, HTTPOptions{})
	ts := httptest.NewServer(g)
	t.Cleanup(ts.Close)
	for i := range 50 {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("Mcp-Session-Id", fmt.Sprintf("made-up-%d", i))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	g.mu.Lock()
	n := len(g.activity)
	g.mu.Unlock()
	if n != 0 {
		t.Errorf("%d records of made-up session ids", n)
	}
}
