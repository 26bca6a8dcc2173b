package mcp

// This file defines [StdioTransport]: newline-delimited JSON-RPC over a
// reader and a writer that survives malformed input. The SDK's own stdio
// transport ends the connection at the first line that is not JSON; an
// agent's broker must instead answer it with a JSON-RPC error and keep
// serving, and refuse an oversized message without buffering it.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// DefaultMaxMessageBytes bounds one inbound message (one line).
const DefaultMaxMessageBytes = 16 << 20

// StdioTransport serves one MCP connection over newline-delimited JSON. A
// line that is not JSON is answered with a parse error (-32700), one that
// is JSON but not a JSON-RPC message with an invalid-request error
// (-32600), and one longer than MaxMessageBytes with an invalid-request
// error naming the limit; the connection continues in every case.
type StdioTransport struct {
	In  io.Reader
	Out io.Writer
	// MaxMessageBytes bounds one message; zero means DefaultMaxMessageBytes.
	MaxMessageBytes int
	// OnRefused, if set, is told about each refused line (for logs).
	OnRefused func(reason string)

	// answers, if set, counts requests read (+1) and answers written
	// (-1): a graceful shutdown waits for the count to reach zero.
	answers func(delta int)
	// atEnd, if set, runs when the input ends, before the end reaches the
	// session: the calls already read answer first (a client may write its
	// requests and close its end).
	atEnd func()
}

// Connect implements sdk.Transport.
func (t *StdioTransport) Connect(context.Context) (sdk.Connection, error) {
	max := t.MaxMessageBytes
	if max <= 0 {
		max = DefaultMaxMessageBytes
	}
	c := &stdioConn{
		out: t.Out, incoming: make(chan readResult), closed: make(chan struct{}),
		refused: t.OnRefused, answers: t.answers, atEnd: t.atEnd,
	}
	go c.readLoop(bufio.NewReaderSize(t.In, 64<<10), max)
	return c, nil
}

type readResult struct {
	msg jsonrpc.Message
	err error
}

type stdioConn struct {
	out      io.Writer
	writeMu  sync.Mutex
	incoming chan readResult
	closed   chan struct{}
	once     sync.Once
	refused  func(string)
	answers  func(int)
	atEnd    func()
}

// readLoop reads lines and hands well-formed messages to Read.
func (c *stdioConn) readLoop(r *bufio.Reader, max int) {
	for {
		line, tooLong, err := readLine(r, max)
		if len(bytes.TrimSpace(line)) > 0 || tooLong {
			if msg, ok := c.decode(line, tooLong, max); ok {
				if req, call := msg.(*jsonrpc.Request); call && req.IsCall() && c.answers != nil {
					c.answers(1)
				}
				select {
				case c.incoming <- readResult{msg: msg}:
				case <-c.closed:
					return
				}
			}
		}
		if err != nil {
			if c.atEnd != nil {
				c.atEnd()
			}
			select {
			case c.incoming <- readResult{err: err}:
			case <-c.closed:
			}
			return
		}
	}
}

// readLine reads one line without its newline. A line longer than max is
// consumed to its end but not kept: tooLong reports it.
func readLine(r *bufio.Reader, max int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > max+1 { // +1: the newline
				tooLong = true
				line = nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// decode parses one line, answering a malformed one with an error.
func (c *stdioConn) decode(line []byte, tooLong bool, max int) (jsonrpc.Message, bool) {
	if tooLong {
		c.refuse(jsonrpc.CodeInvalidRequest, fmt.Sprintf("message refused: it is longer than the limit of %d bytes; send smaller arguments", max), nil)
		return nil, false
	}
	line = bytes.TrimSpace(line)
	if !json.Valid(line) {
		var serr *json.SyntaxError
		detail := "not valid JSON"
		if err := json.Unmarshal(line, new(any)); errors.As(err, &serr) {
			detail = fmt.Sprintf("not valid JSON at byte %d: %v", serr.Offset, serr)
		}
		c.refuse(jsonrpc.CodeParseError, "parse error: the message is "+detail+"; send one JSON-RPC 2.0 object per line", nil)
		return nil, false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		var probe struct {
			ID any `json:"id"`
		}
		_ = json.Unmarshal(line, &probe)
		c.refuse(jsonrpc.CodeInvalidRequest, "invalid request: send one JSON-RPC 2.0 object per line: {\"jsonrpc\": \"2.0\", \"id\": ..., \"method\": ..., \"params\": {...}}; batches are not supported", probe.ID)
		return nil, false
	}
	return msg, true
}

// refuse writes an error response (id null unless the message had one).
func (c *stdioConn) refuse(code int, msg string, id any) {
	if c.refused != nil {
		c.refused(msg)
	}
	switch id.(type) {
	case string, float64:
	default:
		id = nil
	}
	data, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "id": id,
		"error": map[string]any{"code": code, "message": msg},
	})
	_ = c.writeLine(data)
}

func (c *stdioConn) writeLine(data []byte) error {
	c.writeMu.Lock()
	defer c.writeMu.Unlock()
	select {
	case <-c.closed:
		return errors.New("connection closed")
	default:
	}
	_, err := c.out.Write(append(data, '\n'))
	return err
}

// Read implements sdk.Connection.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case r := <-c.incoming:
		return r.msg, r.err
	case <-c.closed:
		return nil, io.EOF
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Write implements sdk.Connection.
func (c *stdioConn) Write(_ context.Context, msg jsonrpc.Message) error {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return err
	}
	err = c.writeLine(data)
	if _, answer := msg.(*jsonrpc.Response); answer && c.answers != nil {
		c.answers(-1)
	}
	return err
}

// Close implements sdk.Connection.
func (c *stdioConn) Close() error {
	c.once.Do(func() { close(c.closed) })
	return nil
}

// SessionID implements sdk.Connection.
func (c *stdioConn) SessionID() string { return "" }

var _ sdk.Transport = (*StdioTransport)(nil)
