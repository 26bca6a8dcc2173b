package editor

// This file defines the connection's framing: LSP-style messages, each a
// header block with Content-Length and a JSON body. Unlike jsonrpc2's own
// stream, which ends the connection at the first bad message, [stream]
// answers malformed framing or JSON with a JSON-RPC error and reads on.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine/fault"
)

// maxMessage bounds one message's body. A plan carrying a large patch is
// the biggest expected message; a workspace holds at most 32 MiB.
const maxMessage = 64 << 20

// stream is a [jsonrpc2.Stream] over LSP framing that survives malformed
// input.
type stream struct {
	rwc io.ReadWriteCloser
	in  *bufio.Reader
	// wmu serializes writes: the conn's messages and the stream's own
	// error replies to input it refused.
	wmu sync.Mutex
	// refused is told about each refused message (for logs); may be nil.
	refused func(reason string)
	// ended is closed when the input ends between messages: the client
	// has sent everything. Read then waits for Close (closed), so the
	// connection stays up to answer what was sent (see Serve).
	ended, closed chan struct{}
	endOnce       sync.Once
	closeOnce     sync.Once
}

func newStream(rwc io.ReadWriteCloser, refused func(string)) *stream {
	return &stream{rwc: rwc, in: bufio.NewReader(rwc), refused: refused, ended: make(chan struct{}), closed: make(chan struct{})}
}

// badInput is input the stream refused, with the JSON-RPC error it answers.
type badInput struct {
	code jsonrpc2.Code
	id   json.RawMessage // the message's id when it could be read, else null
	msg  string
}

func (e *badInput) Error() string { return e.msg }

// Read returns the next well-formed message. Malformed framing or JSON is
// answered with an error response (id null unless the message's id could
// be read) and skipped; only a failure of the underlying reader ends it.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	var total int64
	for {
		if err := ctx.Err(); err != nil {
			return nil, total, err
		}
		body, skipped, n, err := s.readFrame()
		total += n
		if skipped != nil {
			// The frame was readable after skipping junk: report the junk,
			// then serve the message.
			if werr := s.refuse(skipped); werr != nil {
				return nil, total, werr
			}
		}
		if err == nil {
			var msg jsonrpc2.Message
			msg, err = decode(body)
			if err == nil {
				return msg, total, nil
			}
		}
		var bad *badInput
		if errors.Is(err, io.EOF) {
			s.endOnce.Do(func() { close(s.ended) })
			select {
			case <-s.closed:
			case <-ctx.Done():
			}
			return nil, total, err
		}
		if !errors.As(err, &bad) {
			return nil, total, err
		}
		if werr := s.refuse(bad); werr != nil {
			return nil, total, werr
		}
	}
}

// refuse reports refused input to the log and answers it.
func (s *stream) refuse(bad *badInput) error {
	if s.refused != nil {
		s.refused(bad.msg)
	}
	return s.writeError(bad)
}

// readFrame reads one header block and its body. A header line that does
// not parse is skipped, but one with "Content-Length:" inside it (the rest
// of a bad message glued to the next header) resynchronizes there. When a
// body could be read after skipping such junk, skipped describes the junk.
func (s *stream) readFrame() (body []byte, skipped *badInput, total int64, err error) {
	length := -1
	var problems []string
	started := false
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			if errors.Is(err, io.EOF) && (started || line != "") {
				return nil, nil, total, fmt.Errorf("the input ended inside a message header: %w", io.ErrUnexpectedEOF)
			}
			return nil, nil, total, err
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			if !started {
				continue // blank lines between messages
			}
			break
		}
		started = true
		if i := strings.Index(line, "Content-Length:"); i > 0 {
			problems = append(problems, fmt.Sprintf("skipped %q", abbrev(line[:i])))
			line = line[i:]
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			problems = append(problems, fmt.Sprintf("invalid header line %q (want \"Name: value\")", abbrev(line)))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			switch {
			case err != nil || n <= 0:
				problems = append(problems, fmt.Sprintf("invalid Content-Length %q (want a positive number of bytes)", abbrev(value)))
				length = -1
			case n > maxMessage:
				problems = append(problems, fmt.Sprintf("Content-Length %d is over the limit of %d bytes", n, maxMessage))
				length = -1
			default:
				length = n
			}
		}
	}
	if length < 0 {
		if len(problems) == 0 {
			problems = append(problems, "missing Content-Length header")
		}
		return nil, nil, total, framingError(problems)
	}
	if len(problems) > 0 {
		skipped = framingError(problems)
	}
	body = make([]byte, length)
	n, err := io.ReadFull(s.in, body)
	total += int64(n)
	if err != nil {
		return nil, skipped, total, fmt.Errorf("reading a %d-byte message body: %w", length, err)
	}
	return body, skipped, total, nil
}

func framingError(problems []string) *badInput {
	return &badInput{code: jsonrpc2.ParseError, msg: "malformed message framing: " + strings.Join(problems, "; ") + `; frame each message as "Content-Length: N\r\n\r\n" followed by N bytes of JSON`}
}

// decode checks and decodes one message body.
func decode(body []byte) (jsonrpc2.Message, error) {
	if !json.Valid(body) {
		var v any
		err := json.Unmarshal(body, &v)
		return nil, &badInput{code: jsonrpc2.ParseError, msg: fmt.Sprintf("the message is not valid JSON: %v", err)}
	}
	var probe struct {
		JSONRPC *string         `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Method  *string         `json:"method"`
	}
	if err := json.Unmarshal(body, &probe); err != nil {
		return nil, &badInput{code: jsonrpc2.InvalidRequest, msg: "the message is not a JSON-RPC 2.0 object (batches are not supported): " + abbrev(string(body))}
	}
	if probe.JSONRPC == nil || *probe.JSONRPC != "2.0" {
		return nil, &badInput{code: jsonrpc2.InvalidRequest, id: probe.ID, msg: `the message lacks "jsonrpc": "2.0"`}
	}
	msg, err := jsonrpc2.DecodeMessage(body)
	if err != nil {
		return nil, &badInput{code: jsonrpc2.InvalidRequest, id: probe.ID, msg: "the message is not a valid JSON-RPC 2.0 request: " + err.Error()}
	}
	return msg, nil
}

// writeError answers refused input.
func (s *stream) writeError(bad *badInput) error {
	id := bad.id
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	data, _ := json.Marshal(wire.KindError(fault.BadArgument, bad.msg))
	raw := json.RawMessage(data)
	resp := struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc2.Error  `json:"error"`
	}{"2.0", id, jsonrpc2.Error{Code: bad.code, Message: bad.msg, Data: &raw}}
	body, err := json.Marshal(resp)
	if err != nil {
		return err
	}
	_, err = s.writeFrame(body)
	return err
}

// Write sends a message.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	body, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshaling message: %w", err)
	}
	return s.writeFrame(body)
}

func (s *stream) writeFrame(body []byte) (int64, error) {
	s.wmu.Lock()
	defer s.wmu.Unlock()
	n, err := fmt.Fprintf(s.rwc, "Content-Length: %d\r\n\r\n%s", len(body), body)
	return int64(n), err
}

// Close closes the underlying connection.
// Close closes the connection; a Read waiting after the input ended
// returns.
func (s *stream) Close() error {
	err := net.ErrClosed
	s.closeOnce.Do(func() {
		close(s.closed)
		err = s.rwc.Close()
	})
	return err
}

// abbrev shortens s for an error message.
func abbrev(s string) string {
	const max = 60
	if len(s) > max {
		return s[:max] + "..."
	}
	return s
}

var _ jsonrpc2.Stream = (*stream)(nil)
