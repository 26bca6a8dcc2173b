package main

// This file defines the script commands that speak the editor endpoint's
// LSP framing (Content-Length headers), so a txtar script can drive
// `devbroker serve --stdio` through stdin and read its answers.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	// frame IN OUT: write OUT holding each non-empty line of IN (one JSON
	// message a line, ${WORK} expanded, so file URIs can name the
	// script's directory) as an LSP-framed message.
	scriptCmds["frame"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: frame IN OUT")
		}
		var out bytes.Buffer
		for _, line := range strings.Split(ts.ReadFile(args[0]), "\n") {
			if line = strings.TrimSpace(line); line == "" {
				continue
			}
			line = os.Expand(line, ts.Getenv)
			if !json.Valid([]byte(line)) {
				ts.Fatalf("frame: not one JSON message: %s", line)
			}
			fmt.Fprintf(&out, "Content-Length: %d\r\n\r\n%s", len(line), line)
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), out.Bytes(), 0o644))
	}
	// unframe IN OUT: read IN (stdout or stderr, or a file) as LSP-framed
	// messages and write OUT with one compact JSON message a line. A
	// header without Content-Length, a short body or a body that is not
	// JSON fails the script.
	scriptCmds["unframe"] = func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: unframe IN OUT")
		}
		msgs, err := unframe(ts.ReadFile(args[0]))
		if err != nil {
			ts.Fatalf("unframe %s: %v", args[0], err)
		}
		ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(strings.Join(msgs, "\n")+"\n"), 0o644))
	}
}

// unframe splits LSP-framed data into its messages, each compacted.
func unframe(data string) ([]string, error) {
	r := bufio.NewReader(strings.NewReader(data))
	var msgs []string
	for {
		if _, err := r.Peek(1); err == io.EOF {
			return msgs, nil
		}
		hdr, err := textproto.NewReader(r).ReadMIMEHeader()
		if err != nil {
			return nil, fmt.Errorf("message %d: reading headers: %w", len(msgs)+1, err)
		}
		n, err := strconv.Atoi(hdr.Get("Content-Length"))
		if err != nil {
			return nil, fmt.Errorf("message %d: no Content-Length: %v", len(msgs)+1, hdr)
		}
		body := make([]byte, n)
		if _, err := io.ReadFull(r, body); err != nil {
			return nil, fmt.Errorf("message %d: body shorter than its Content-Length %d: %w", len(msgs)+1, n, err)
		}
		var b bytes.Buffer
		if err := json.Compact(&b, body); err != nil {
			return nil, fmt.Errorf("message %d: not JSON: %w", len(msgs)+1, err)
		}
		msgs = append(msgs, b.String())
	}
}
