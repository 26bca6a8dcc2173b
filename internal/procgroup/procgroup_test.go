//go:build unix

package procgroup

import (
	"bufio"
	"io"
	"os/exec"
	"testing"
)

// TestKillReachesChildren starts a shell whose background child holds the
// write end of stdout. Reading stdout reaches EOF only when every holder has
// died, so the test ends only if Kill reached the child too.
func TestKillReachesChildren(t *testing.T) {
	cmd := exec.Command("sh", "-c", "sleep 1000 & echo started; wait")
	Set(cmd)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start sh: %v", err)
	}
	r := bufio.NewReader(out)
	if line, err := r.ReadString('\n'); err != nil || line != "started\n" {
		t.Fatalf("first line %q, %v; want \"started\"", line, err)
	}
	if err := Kill(cmd.Process); err != nil {
		t.Fatalf("Kill: %v", err)
	}
	if rest, err := io.ReadAll(r); err != nil || len(rest) != 0 {
		t.Errorf("after Kill read %q, %v; want EOF", rest, err)
	}
	if err := cmd.Wait(); err == nil {
		t.Error("Wait after Kill returned no error; want the kill reported")
	}
}
