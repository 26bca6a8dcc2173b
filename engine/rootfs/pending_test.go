package rootfs

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// A write removes the temporaries in its directory whose writer is gone or
// that are older than StaleTempAge, and nothing else; its own temporary is
// named with TempPrefix and is gone after it.
func TestWriteSweepsStaleTemporaries(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no pid check on Windows")
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	f, _ := newTree(t)
	root := f.Root()
	deadTemp := TempPrefix + strconv.Itoa(dead.Process.Pid) + "-00"
	liveTemp := TempPrefix + strconv.Itoa(os.Getppid()) + "-01"
	oldTemp := TempPrefix + strconv.Itoa(os.Getppid()) + "-02"
	mustMkdir(t, filepath.Join(root, "sub"))
	for _, p := range []string{deadTemp, liveTemp, oldTemp, ".a.txt123", "sub/" + deadTemp} {
		mustWrite(t, filepath.Join(root, p), "x")
	}
	past := time.Now().Add(-StaleTempAge - time.Hour)
	if err := os.Chtimes(filepath.Join(root, oldTemp), past, past); err != nil {
		t.Fatal(err)
	}
	if err := f.WriteFile("a.txt", []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	want := []string{".a.txt123", liveTemp, "a.txt", "sub"}
	if len(got) != len(want) {
		t.Fatalf("after the write the root holds %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("after the write the root holds %q, want %q", got, want)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "sub", deadTemp)); err != nil {
		t.Errorf("a write to the root touched sub/: %v", err)
	}
}
