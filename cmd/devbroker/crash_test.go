package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/devbroker/devbroker/engine/rootfs"
)

// TestCrashDuringWrite SIGKILLs the real binary at random moments while it
// writes many large files, many times. Afterwards every file must be wholly
// old or wholly new: per-file writes are atomic, so a crash never leaves a
// torn file.
func TestCrashDuringWrite(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: runs the binary many times")
	}
	const files, size = 60, 200 << 10
	root := t.TempDir()
	old := map[string][]byte{}
	niu := map[string][]byte{}
	var patch strings.Builder
	patch.WriteString("*** Begin Patch\n")
	for i := range files {
		name := fmt.Sprintf("f%03d.txt", i)
		var b bytes.Buffer
		fmt.Fprintf(&b, "first line of %s\n", name)
		for b.Len() < size {
			fmt.Fprintf(&b, "%s line %d of filler text to make the file large\n", name, b.Len())
		}
		fmt.Fprintf(&b, "last line of %s\n", name)
		old[name] = b.Bytes()
		n := bytes.Replace(b.Bytes(), []byte("first line of"), []byte("FIRST LINE OF"), 1)
		n = bytes.Replace(n, []byte("last line of"), []byte("LAST LINE OF"), 1)
		niu[name] = n
		fmt.Fprintf(&patch, "*** Update File: %s\n@@\n-first line of %s\n+FIRST LINE OF %s\n@@\n-last line of %s\n+LAST LINE OF %s\n", name, name, name, name, name)
	}
	patch.WriteString("*** End Patch\n")
	plan, _ := json.Marshal(map[string]any{
		"paths": []string{"*.txt"},
		"ops": []any{
			map[string]any{"step": "apply_patch", "args": map[string]string{"patch": patch.String()}},
			map[string]any{"step": "write", "args": map[string]any{}},
		},
	})
	planFile := filepath.Join(t.TempDir(), "plan.json")
	if err := os.WriteFile(planFile, plan, 0o644); err != nil {
		t.Fatal(err)
	}
	reset := func() {
		for name, data := range old {
			if err := os.WriteFile(filepath.Join(root, name), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := func() *exec.Cmd { return exec.Command("devbroker", "run", "--root", root, planFile) }

	// One full run, to learn how long a run takes here and that it works.
	reset()
	start := time.Now()
	if out, err := cmd().CombinedOutput(); err != nil {
		t.Fatalf("full run: %v\n%s", err, out)
	}
	full := time.Since(start)
	check := func(iter int) (olds, news int) {
		for name := range old {
			got, err := os.ReadFile(filepath.Join(root, name))
			if err != nil {
				t.Fatalf("iteration %d: %v", iter, err)
			}
			switch {
			case bytes.Equal(got, old[name]):
				olds++
			case bytes.Equal(got, niu[name]):
				news++
			default:
				t.Fatalf("iteration %d: %s is torn: %d bytes, neither old (%d) nor new (%d)", iter, name, len(got), len(old[name]), len(niu[name]))
			}
		}
		return olds, news
	}
	if o, _ := check(0); o != 0 {
		t.Fatalf("the full run left %d old files", o)
	}
	mixed := 0
	for i := 1; i <= 30; i++ {
		reset()
		c := cmd()
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.Int64N(int64(full) + 1)))
		_ = c.Process.Kill() // SIGKILL
		_ = c.Wait()
		if o, n := check(i); o > 0 && n > 0 {
			mixed++
		}
	}
	// A kill can leave temporaries: each is named recognisably, and the
	// next write to the directory removes those whose writer is dead.
	left := 0
	for _, name := range strays(t, root, old) {
		if !strings.HasPrefix(name, rootfs.TempPrefix) {
			t.Errorf("a killed write left %q, which is not named %s*", name, rootfs.TempPrefix)
		}
		left++
	}
	reset()
	if out, err := cmd().CombinedOutput(); err != nil {
		t.Fatalf("run after the kills: %v\n%s", err, out)
	}
	if s := strays(t, root, old); len(s) > 0 {
		t.Errorf("temporaries remain after the next write: %q", s)
	}
	t.Logf("full run %v; %d of 30 kills landed mid-write; %d temporaries were left, and removed by the next write", full, mixed, left)
}

// strays lists the entries of root that are not files of the tree.
func strays(t *testing.T, root string, tree map[string][]byte) []string {
	t.Helper()
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if _, ok := tree[e.Name()]; !ok {
			out = append(out, e.Name())
		}
	}
	return out
}
