//go:build unix

package privtemp

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// deadPID is the process id of a process that has exited (and been
// reaped).
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run true: %v", err)
	}
	return cmd.Process.Pid
}

// TestSweepRemovesOnlyTheDeads: of the directories in the temporary
// directory, Sweep removes those Dir made for a process that has exited,
// and keeps this process's, a running process's, the ones without a
// process id, and what is not a directory.
func TestSweepRemovesOnlyTheDeads(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	mine, err := Dir("watch")
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(mine) != tmp || !name.MatchString(filepath.Base(mine)) {
		t.Fatalf("Dir made %s, not a name Sweep knows under %s", mine, tmp)
	}
	dead := deadPID(t)
	mk := func(name string) string {
		p := filepath.Join(tmp, name)
		if err := os.Mkdir(p, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(p, "inside"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := mk(fmt.Sprintf("devbroker-watch-p%d-123", dead))
	goneToo := mk(fmt.Sprintf("devbroker-lsp-smoke-p%d-456", dead))
	keep := []string{
		mine,
		mk(fmt.Sprintf("devbroker-trees-p%d-1", os.Getppid())), // running
		mk("devbroker-watch-123456"),                           // an older devbroker's: no process id
		mk(fmt.Sprintf("other-watch-p%d-1", dead)),             // not devbroker's
	}
	file := filepath.Join(tmp, fmt.Sprintf("devbroker-watch-p%d-7", dead))
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(tmp, fmt.Sprintf("devbroker-watch-p%d-8", dead))
	if err := os.Symlink(keep[1], link); err != nil {
		t.Fatal(err)
	}
	keep = append(keep, file, link)
	removed, err := Sweep()
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(removed)
	if want := []string{goneToo, gone}; !slices.Equal(removed, want) {
		t.Errorf("removed %v, want %v", removed, want)
	}
	for _, p := range []string{gone, goneToo} {
		if _, err := os.Lstat(p); !os.IsNotExist(err) {
			t.Errorf("%s is still there (%v)", p, err)
		}
	}
	for _, p := range keep {
		if _, err := os.Lstat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}
