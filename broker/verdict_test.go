package broker_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/devbroker/devbroker/broker"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/text"
)

// fixingDrivers rewrite a.txt and answer with a fixed verdict: fault
// injection for the granular steps' write.
type fixingDrivers struct{ resp engine.Response }

func (f *fixingDrivers) Has(engine.Kind) bool { return true }
func (f *fixingDrivers) Run(context.Context, engine.Request) (*engine.Response, error) {
	r := f.resp
	r.Edits = map[string]*text.Doc{"a.txt": text.FromString("fixed\n")}
	return &r, nil
}
func (f *fixingDrivers) Report() *capabilities.Report { return &capabilities.Report{} }
func (f *fixingDrivers) Close() error                 { return nil }

// A mutating step on its own is followed by a write, but not when the step
// failed on its verdict: a lint --fix that leaves an error, or a format
// whose answer is incomplete, writes nothing.
func TestFailedStepDoesNotWrite(t *testing.T) {
	for _, tc := range []struct {
		step       engine.StepName
		args, kind string
		resp       engine.Response
	}{
		{engine.StepLint, `{"paths": ["a.txt"], "fix": true}`, "diagnostics", engine.Response{
			Output: engine.Output{
				Diagnostics: []engine.Diagnostic{{Path: "a.txt", Line: 1, Column: 1, Severity: engine.SeverityError, Message: "still broken"}},
			},
			Drivers: []engine.DriverStatus{{Driver: "fake", Status: engine.StatusOK}},
		}},
		{engine.StepFormat, `{"paths": ["a.txt"]}`, "timeout", engine.Response{
			Drivers: []engine.DriverStatus{{Driver: "fake", Status: engine.StatusTimeout, Message: "too slow"}},
		}},
	} {
		t.Run(string(tc.step), func(t *testing.T) {
			root := t.TempDir()
			if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("one\ntwo\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			d := &fixingDrivers{resp: tc.resp}
			m := broker.NewManager(broker.Options{Load: func(context.Context, string, broker.Drivers) (broker.Drivers, error) { return d, nil }})
			t.Cleanup(func() { m.Close() })
			ctx := context.Background()
			s, err := m.Open(ctx, root)
			if err != nil {
				t.Fatal(err)
			}
			r := s.Step(ctx, broker.StepRequest{Args: mustArgs(tc.step, []byte(tc.args))})
			if r.OK || r.Error == nil || string(r.Error.Kind) != tc.kind || r.Error.Step != 1 {
				t.Fatalf("result: ok=%v error=%+v, want a %s failure at step 1", r.OK, r.Error, tc.kind)
			}
			if len(r.Written) != 0 {
				t.Errorf("written = %v after a failed %s", r.Written, tc.step)
			}
			if b, _ := os.ReadFile(filepath.Join(root, "a.txt")); string(b) != "one\ntwo\n" {
				t.Errorf("disk a.txt = %q, want it unchanged", b)
			}
		})
	}
}
