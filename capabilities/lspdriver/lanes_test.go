package lspdriver_test

// Sessions of one root asking at once are answered side by side by the
// lanes of the root's gopls pool (lsp.Pool), each about its own content.

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
)

func TestSessionsAtOnceEachSeeTheirOwnContent(t *testing.T) {
	root, _ := workspace(t)
	// Two lanes, whatever the machine's default (one on two cores).
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t), Lanes: 2}, root)
	caps := oneDriver{d}
	sessions := make([]*engine.Engine, 2)
	for i := range sessions {
		e, err := engine.New(root, engine.Options{Capabilities: caps})
		if err != nil {
			t.Fatal(err)
		}
		sessions[i] = e
	}
	good := "func F() int { return 1 }"
	bad := []string{`func F() int { return "one" }`, `func F() int { return "two" }`}
	check := engine.Op{Step: engine.StepCheck}
	// Each session's a/a.go has its own error, unwritten.
	errorOf := func(i int, got []string) {
		t.Helper()
		all := strings.Join(got, "\n")
		own, other := []string{`"one"`, `"two"`}[i], []string{`"two"`, `"one"`}[i]
		if !strings.Contains(all, "a/a.go: cannot use "+own) || strings.Contains(all, other) {
			t.Errorf("session %d: got %q, want its own error only", i, got)
		}
	}
	errorOf(0, planFindings(t, sessions[0], &engine.Plan{Paths: []string{"a/a.go"}, Ops: []engine.Op{{Step: engine.StepEdit, Args: &engine.EditArgs{Path: "a/a.go", Edits: []engine.FindReplace{{Find: &good, Replace: &bad[0]}}}}, check}}))

	// While a request holds the first lane, the second session is
	// answered by a lane added for it.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	done, err := lspdriver.TakeLane(ctx, d, root)
	if err != nil {
		t.Fatal(err)
	}
	errorOf(1, planFindings(t, sessions[1], &engine.Plan{Paths: []string{"a/a.go"}, Ops: []engine.Op{{Step: engine.StepEdit, Args: &engine.EditArgs{Path: "a/a.go", Edits: []engine.FindReplace{{Find: &good, Replace: &bad[1]}}}}, check}}))
	done()
	lanes := d.(*lspdriver.Driver).Servers(root)
	if len(lanes) != 2 || lanes[0].PID() == lanes[1].PID() {
		t.Fatalf("%d lanes after a request while the first was taken, want 2 processes", len(lanes))
	}

	// Both sessions at once, several times: each sees its own error.
	var wg sync.WaitGroup
	for i, e := range sessions {
		wg.Go(func() {
			for range 3 {
				errorOf(i, planFindings(t, e, &engine.Plan{Ops: []engine.Op{check}}))
			}
		})
	}
	wg.Wait()

	// Both lanes follow the disk: b changes under them.
	testtree.Put(t, root, "b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nvar X string = a.F()\n")
	for i, e := range sessions {
		if got := strings.Join(planFindings(t, e, &engine.Plan{Ops: []engine.Op{check}}), "\n"); !strings.Contains(got, "b/b.go: ") {
			t.Errorf("session %d after b changed on disk: %q", i, got)
		}
	}
	// One lane is held: the other answers both sessions in turn, each
	// about its own content, and follows the disk.
	done, err = lspdriver.TakeLane(ctx, d, root)
	if err != nil {
		t.Fatal(err)
	}
	testtree.Put(t, root, "b/b.go", "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n")
	for i, e := range sessions {
		got := planFindings(t, e, &engine.Plan{Ops: []engine.Op{check}})
		if strings.Contains(strings.Join(got, "\n"), "b/b.go: ") {
			t.Errorf("session %d after b was put back on disk: %q", i, got)
		}
		errorOf(i, got)
	}
	done()
}
