package lsp

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
)

type rwc struct{ io.Reader }

func (rwc) Write(b []byte) (int, error) { return len(b), nil }
func (rwc) Close() error                { return nil }

func TestBoundedStream(t *testing.T) {
	for _, tc := range []struct{ in, err string }{
		{"Content-Length: 2\r\n\r\n{}", "invalid"}, // read, then not a message
		{"Content-Length: 101\r\n\r\n", "over the limit of 100 bytes"},
		{"Content-Length: -1\r\n\r\n", "invalid Content-Length"},
		{"X: " + strings.Repeat("x", maxHeaderLine) + "\r\n\r\n", "header line longer than"},
		{"Content-Type: x\r\n\r\n", "missing Content-Length"},
		{"Content-Length: 30\r\n\r\n{\"jsonrpc\":\"2.0\"", "reading a 30-byte message"},
	} {
		s := newBoundedStream(rwc{strings.NewReader(tc.in)}, 100)
		_, _, err := s.Read(context.Background())
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%.40q: err = %v, want %q", tc.in, err, tc.err)
		}
	}
	_, _, err := newBoundedStream(rwc{strings.NewReader("Content-Length: 101\r\n\r\n")}, 100).Read(context.Background())
	if !errors.Is(err, ErrMessageTooLarge) {
		t.Errorf("err = %v, want ErrMessageTooLarge", err)
	}
	msg := `{"jsonrpc":"2.0","method":"initialized","params":{}}`
	s := newBoundedStream(rwc{strings.NewReader("content-length: 52\r\n\r\n" + msg)}, 100)
	if m, _, err := s.Read(context.Background()); err != nil || m == nil {
		t.Fatalf("a good message: %v", err)
	}
}

func FuzzReadHeader(f *testing.F) {
	f.Add("Content-Length: 12\r\n\r\n")
	f.Add("Content-Length: 99999999999\r\n\r\n")
	f.Add("Content-Type: a\r\nContent-Length: 1\r\n\r\n")
	f.Fuzz(func(t *testing.T, in string) {
		n, total, err := readHeader(bufio.NewReaderSize(strings.NewReader(in), maxHeaderLine), 1000)
		if err == nil && (n <= 0 || n > 1000) {
			t.Fatalf("length %d accepted", n)
		}
		if total > int64(len(in)) {
			t.Fatalf("read %d of %d bytes", total, len(in))
		}
	})
}
