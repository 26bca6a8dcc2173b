package rootfs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestReadFileMax: a file over the limit is refused from its size alone,
// with a *TooLargeError naming the size and the limit; a file at the limit
// is read whole.
func TestReadFileMax(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big.txt"), []byte("0123456789a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "ok.txt"), []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := New(root)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = fsys.ReadFileMax("big.txt", 10)
	var tl *TooLargeError
	if !errors.As(err, &tl) || tl.Size != 11 || tl.Limit != 10 || tl.AtLeast {
		t.Fatalf("ReadFileMax(big.txt, 10) = %v, want a TooLargeError of 11 bytes over 10", err)
	}
	data, _, err := fsys.ReadFileMax("ok.txt", 10)
	if err != nil || string(data) != "0123456789" {
		t.Fatalf("ReadFileMax(ok.txt, 10) = %q, %v", data, err)
	}
	if _, _, err := fsys.ReadFileMax("missing.txt", 10); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
}

// TestReadAtMost: the read itself is bounded, so a file that grew after
// its size was checked is refused after max+1 bytes, not read whole.
func TestReadAtMost(t *testing.T) {
	r := strings.NewReader(strings.Repeat("x", 1000))
	_, err := readAtMost(r, "grew.txt", 5, 10)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !tl.AtLeast || tl.Size != 11 || tl.Limit != 10 {
		t.Fatalf("readAtMost = %v, want a TooLargeError of at least 11 bytes", err)
	}
	if r.Len() != 1000-11 {
		t.Fatalf("read %d bytes, want 11", 1000-r.Len())
	}
	data, err := readAtMost(strings.NewReader("0123456789"), "ok.txt", 10, 10)
	if err != nil || len(data) != 10 {
		t.Fatalf("readAtMost at the limit = %q, %v", data, err)
	}
}

// TestReadAtMostSize: the buffer is sized from the size fstat gave, but
// the read goes to the end whatever the file's size is by then.
func TestReadAtMostSize(t *testing.T) {
	text := strings.Repeat("0123456789", 300)
	for _, c := range []struct{ size, limit int64 }{
		{0, 0}, {10, 0}, {3000, 0}, {5000, 0}, {3000, 3000}, {100, 4000}, {3000, 1 << 20},
	} {
		data, err := readAtMost(strings.NewReader(text), "f.txt", c.size, c.limit)
		if err != nil || string(data) != text {
			t.Fatalf("readAtMost(size %d, limit %d) = %d bytes, %v; want all %d", c.size, c.limit, len(data), err, len(text))
		}
	}
	if _, err := readAtMost(strings.NewReader(text), "f.txt", 100, 2999); err == nil {
		t.Fatal("readAtMost of 3000 bytes with limit 2999: no error")
	}
}
