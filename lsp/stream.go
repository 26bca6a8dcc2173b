package lsp

// This file defines the reading side of a language server's connection:
// LSP framing with bounds. jsonrpc2's own stream allocates whatever a
// Content-Length header announces (up to 2 GiB) and reads header lines of
// any length; a broken or hostile server could make the broker allocate
// that much. [boundedStream] refuses a message over [MaxMessageBytes] and
// a header line over maxHeaderLine, which ends the connection: the server
// is then reported as crashed, with the reason.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"go.lsp.dev/jsonrpc2"
)

// MaxMessageBytes bounds one message from a language server. The largest
// expected ones are a workspace's diagnostics or a whole-file edit; a
// workspace holds at most 32 MiB by default.
const MaxMessageBytes = 64 << 20

// maxHeaderLine bounds one header line ("Content-Length: 123").
const maxHeaderLine = 4 << 10

// ErrMessageTooLarge is the connection failure of a server that sent a
// message over the limit.
var ErrMessageTooLarge = errors.New("message too large")

// boundedStream reads LSP-framed messages with bounds and writes them as
// jsonrpc2's stream does.
type boundedStream struct {
	jsonrpc2.Stream // Write and Close
	in              *bufio.Reader
	max             int64
}

func newBoundedStream(rwc io.ReadWriteCloser, max int64) *boundedStream {
	return &boundedStream{Stream: jsonrpc2.NewStream(rwc), in: bufio.NewReaderSize(rwc, maxHeaderLine), max: max}
}

// Read implements jsonrpc2.Stream.
func (s *boundedStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, err
	}
	length, total, err := readHeader(s.in, s.max)
	if err != nil {
		return nil, total, err
	}
	data := make([]byte, length)
	if _, err := io.ReadFull(s.in, data); err != nil {
		return nil, total, fmt.Errorf("reading a %d-byte message: %w", length, err)
	}
	total += length
	msg, err := jsonrpc2.DecodeMessage(data)
	return msg, total, err
}

// readHeader reads one header block and returns its Content-Length, which
// is positive and at most max.
func readHeader(in *bufio.Reader, max int64) (length, total int64, err error) {
	length = -1
	for {
		line, err := in.ReadSlice('\n')
		total += int64(len(line))
		if errors.Is(err, bufio.ErrBufferFull) {
			return 0, total, fmt.Errorf("the language server sent a header line longer than %d bytes", maxHeaderLine)
		}
		if err != nil {
			return 0, total, fmt.Errorf("failed reading header line: %w", err)
		}
		text := strings.TrimSpace(string(line))
		if text == "" {
			break
		}
		name, value, ok := strings.Cut(text, ":")
		if !ok {
			return 0, total, fmt.Errorf("invalid header line %q", text)
		}
		if strings.EqualFold(strings.TrimSpace(name), jsonrpc2.HdrContentLength) {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n <= 0 {
				return 0, total, fmt.Errorf("invalid %s %q", jsonrpc2.HdrContentLength, value)
			}
			if n > max {
				return 0, total, fmt.Errorf("%w: the language server announced a message of %d bytes, over the limit of %d bytes", ErrMessageTooLarge, n, max)
			}
			length = n
		}
	}
	if length < 0 {
		return 0, total, fmt.Errorf("missing %s header", jsonrpc2.HdrContentLength)
	}
	return length, total, nil
}
