package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestFileStampSettled: a file's stamp is settled only once its last
// change is older than racyWindow, and only where the platform gives a
// change time; a write changes the stamp.
func TestFileStampSettled(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.go")
	if err := os.WriteFile(p, []byte("package f\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	st := StampOf(fi)
	now := time.Now()
	if st.Settled(now) {
		t.Errorf("a file written just now is settled")
	}
	hasCtime := runtime.GOOS == "linux" || runtime.GOOS == "darwin"
	if got := st.Settled(now.Add(racyWindow + time.Second)); got != hasCtime {
		t.Errorf("settled %v past the racy window on %s, want %v", got, runtime.GOOS, hasCtime)
	}
	if err := os.WriteFile(p, []byte("package f // longer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi2, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if StampOf(fi2) == st {
		t.Errorf("the stamp did not change with the file")
	}
}
