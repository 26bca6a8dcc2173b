package broker_test

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// renamer answers rename by replacing a.txt's content (the language
// server's side is lsp's to test; this is the broker's write decision).
type renamer struct{}

func (renamer) Has(k engine.Kind) bool { return k == engine.Rename || k == engine.Symbols }
func (renamer) Run(_ context.Context, req engine.Request) (*engine.Response, error) {
	resp := &engine.Response{Drivers: []engine.DriverStatus{{Driver: "fake", Status: engine.StatusOK}}}
	if req.Kind == engine.Rename {
		resp.Edits = map[string]*text.Doc{"a.txt": text.FromString("uno\ntwo\n")}
	}
	return resp, nil
}
func (renamer) Report() *capabilities.Report { return &capabilities.Report{} }
func (renamer) Close() error                 { return nil }

// A step that changes the workspace only (engine.Step.Unwritten: rename,
// code_actions' apply), called on its own, writes nothing: its change
// waits in the workspace for a write, so it can be checked first.
func TestUnwrittenStepsNeverWrite(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := broker.NewManager(broker.Options{Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) {
		return renamer{}, nil
	}})
	t.Cleanup(func() { m.Close() })
	ctx := context.Background()
	s, err := m.Open(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	r := s.Step(ctx, broker.StepRequest{Args: mustArgs(engine.StepRename, []byte(`{"path":"a.txt","line":1,"column":1,"new_name":"uno"}`))})
	if !r.OK || len(r.Written) != 0 || len(r.Changes) != 1 {
		t.Fatalf("rename: ok %v, written %v, changes %+v, error %+v", r.OK, r.Written, r.Changes, r.Error)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\ntwo\n" {
		t.Fatalf("rename wrote a.txt: %q", b)
	}
	if got := s.Pending(); !slices.Equal(got, []string{"a.txt"}) {
		t.Fatalf("pending after rename %v", got)
	}
	r = s.Step(ctx, broker.StepRequest{Args: &engine.WriteArgs{}})
	if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); !r.OK || string(b) != "uno\ntwo\n" {
		t.Fatalf("write after rename: %q, error %+v", b, r.Error)
	}
}
