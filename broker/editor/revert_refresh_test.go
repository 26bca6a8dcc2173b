package editor_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// A failed plan drops only its own changes. A file the plan's check read
// again from disk (someone else changed it) is not the plan's change: it is
// not listed as reverted, and the session keeps what the disk holds instead
// of going back to its old copy.
func TestFailedPlanKeepsDiskRefresh(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "ok\n", "y.txt": "fine\n"})
	c := start(t, root, true)
	c.init(nil)
	var r failedResult
	c.must("devbroker/plan", map[string]any{"paths": []string{"a.txt", "y.txt"}, "ops": []any{checkOp}}, &r)
	if !r.OK {
		t.Fatalf("first check: %+v", r.Error)
	}
	if err := os.WriteFile(filepath.Join(root, "y.txt"), []byte("changed elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r = failedResult{}
	c.must("devbroker/plan", map[string]any{"ops": []any{editOp("a.txt", "ok", "BAD"), checkOp}}, &r)
	if r.OK || r.Error == nil || r.Error.Kind != "diagnostics" {
		t.Fatalf("failed check: ok %v error %+v", r.OK, r.Error)
	}
	if !slices.Equal(r.Reverted, []string{"a.txt"}) {
		t.Errorf("reverted %v, want [a.txt]: y.txt was changed on disk, not by the plan", r.Reverted)
	}
	r = failedResult{}
	c.must("devbroker/plan", map[string]any{"ops": []any{readOp("y.txt")}}, &r)
	if got := r.Reads["y.txt"]; got != "changed elsewhere" {
		t.Errorf("after the failed plan the session reads y.txt as %q, want what the disk holds", got)
	}
}
