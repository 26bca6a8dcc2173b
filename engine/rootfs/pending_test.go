package rootfs

import (
	"encoding/hex"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
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
	deadTemp := TempPrefix + strconv.Itoa(dead.Process.Pid) + "-0000000000000000"
	liveTemp := TempPrefix + strconv.Itoa(os.Getppid()) + "-0000000000000001"
	oldTemp := TempPrefix + strconv.Itoa(os.Getppid()) + "-0000000000000002"
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

// deadPid is the pid of a process that has exited.
func deadPid(t *testing.T) int {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("no pid check on Windows")
	}
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip("cannot start a process:", err)
	}
	return dead.Process.Pid
}

// exists reports whether name is in f's root.
func exists(t *testing.T, f *FS, name string) bool {
	t.Helper()
	_, err := os.Lstat(filepath.Join(f.Root(), name))
	return err == nil
}

// A long-running process removes temporaries a killed writer leaves after
// its first write to the directory too: a write sweeps again once
// sweepInterval has passed since the last sweep there, and not before.
func TestWriteSweepsAgainAfterTheInterval(t *testing.T) {
	pid := deadPid(t)
	f, _ := newTree(t)
	clock := time.Now()
	defer func(old func() time.Time) { now = old }(now)
	now = func() time.Time { return clock }

	if err := f.WriteFile("a.txt", []byte("1\n")); err != nil {
		t.Fatal(err)
	}
	later := TempPrefix + strconv.Itoa(pid) + "-00112233aabbccdd"
	mustWrite(t, filepath.Join(f.Root(), later), "x")
	if err := f.WriteFile("a.txt", []byte("2\n")); err != nil {
		t.Fatal(err)
	}
	if !exists(t, f, later) {
		t.Fatalf("a write within %v of the last sweep swept again", sweepInterval)
	}
	clock = clock.Add(sweepInterval)
	if err := f.WriteFile("a.txt", []byte("3\n")); err != nil {
		t.Fatal(err)
	}
	if exists(t, f, later) {
		t.Fatalf("a write %v after the last sweep left %s", sweepInterval, later)
	}
}

// Only names exactly of the form a write creates are temporaries: a
// user's file that merely starts with TempPrefix is never removed, even
// when old.
func TestSweepMatchesOnlyTemporaryNames(t *testing.T) {
	pid := strconv.Itoa(deadPid(t))
	f, _ := newTree(t)
	user := []string{
		TempPrefix + "notes.txt",
		TempPrefix + pid + "-00",
		TempPrefix + pid + "-00112233aabbccdd.bak",
		TempPrefix + pid + "-00112233AABBCCDD",
		TempPrefix + pid + "-00112233aabbccddee",
		TempPrefix + "+" + pid + "-00112233aabbccdd",
		TempPrefix + "0" + pid + "-00112233aabbccdd",
		TempPrefix + "-00112233aabbccdd",
	}
	past := time.Now().Add(-StaleTempAge - time.Hour)
	for _, n := range user {
		mustWrite(t, filepath.Join(f.Root(), n), "x")
		if err := os.Chtimes(filepath.Join(f.Root(), n), past, past); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.WriteFile("a.txt", []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	for _, n := range user {
		if !exists(t, f, n) {
			t.Errorf("the sweep removed the user's file %q", n)
		}
	}
	for _, n := range []string{TempPrefix + pid + "-00112233aabbccdd", TempPrefix + "1-00112233aabbccdd"} {
		if !isTempName(n) {
			t.Errorf("isTempName(%q) = false", n)
		}
	}
}

// FuzzIsTempName: every name isTempName accepts is exactly TempPrefix, a
// positive pid that prints back as itself, "-" and the hex of 8 bytes.
func FuzzIsTempName(f *testing.F) {
	for _, s := range []string{TempPrefix + "12-00112233aabbccdd", TempPrefix + "notes", TempPrefix + "012-00112233aabbccdd", TempPrefix + "1-", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !isTempName(name) {
			return
		}
		pidText, random, _ := strings.Cut(strings.TrimPrefix(name, TempPrefix), "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid <= 0 || strconv.Itoa(pid) != pidText {
			t.Fatalf("isTempName(%q) accepted pid %q", name, pidText)
		}
		if b, err := hex.DecodeString(random); err != nil || len(b) != tempRandLen/2 || hex.EncodeToString(b) != random {
			t.Fatalf("isTempName(%q) accepted random part %q", name, random)
		}
	})
}
