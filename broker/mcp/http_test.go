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
