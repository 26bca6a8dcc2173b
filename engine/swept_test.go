package engine

import (
	"context"
	"slices"
	"testing"
)

// Which files a request says were swept in (Request.Swept): those no
// literal path of the plan or the step names and the workspace did not
// change. A step without paths sweeps in the whole root; a glob sweeps;
// a literal path names; a plan's Swept (the command line's directories
// and globs) sweeps; an edited file is asked for, wherever it came from.
func TestRequestSwept(t *testing.T) {
	tree := map[string]string{"a.go": "package a\n", "sub/b.go": "package sub\n", "sub/c.go": "package sub\n"}
	for _, tc := range []struct {
		name  string
		plan  string
		swept []string
	}{
		{"no paths: the whole root", `{"paths": [], "ops": [{"step": "check"}]}`, []string{"a.go", "sub/b.go", "sub/c.go"}},
		{"a literal path names", `{"paths": ["a.go"], "ops": [{"step": "check"}]}`, nil},
		{"a glob sweeps", `{"paths": ["sub/*.go", "a.go"], "ops": [{"step": "check"}]}`, []string{"sub/b.go", "sub/c.go"}},
		{"a step's literal path names", `{"paths": ["sub/*.go"], "ops": [{"step": "lint", "args": {"paths": ["sub/b.go", "sub/c.go"]}}]}`, nil},
		{"a step's glob sweeps", `{"paths": ["sub/*.go"], "ops": [{"step": "lint", "args": {"paths": ["sub/*.go"]}}]}`, []string{"sub/b.go", "sub/c.go"}},
		{"an edited file is asked for", `{"paths": ["sub/*.go"], "ops": [
			{"step": "edit", "args": {"path": "sub/b.go", "edits": [{"find": "package sub", "replace": "package sub // edited"}]}},
			{"step": "check"}]}`, []string{"sub/c.go"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			caps := &rootCaps{ext: ".go"}
			e, _ := setup(t, tree, Options{Capabilities: caps})
			r := run(t, e, tc.plan)
			if !r.OK {
				t.Fatalf("plan failed: %+v", r.Error)
			}
			req := caps.reqs[len(caps.reqs)-1]
			if !slices.Equal(req.Swept, tc.swept) {
				t.Errorf("swept = %v, want %v", req.Swept, tc.swept)
			}
		})
	}

	// The command line expands its directories and globs itself and says
	// which it swept in (Select, Plan.Swept): a file it named literally
	// stays asked for.
	caps := &rootCaps{ext: ".go"}
	e, _ := setup(t, tree, Options{Capabilities: caps})
	sel, err := Select(e.FS(), Walk{Covers: caps.Covers}, []string{"sub", "a.go"})
	if err != nil {
		t.Fatal(err)
	}
	paths, swept := sel.Paths, sel.Swept
	if !slices.Equal(paths, []string{"a.go", "sub/b.go", "sub/c.go"}) || !slices.Equal(swept, []string{"sub/b.go", "sub/c.go"}) {
		t.Fatalf("Select = %v, swept %v", paths, swept)
	}
	r := e.Run(context.Background(), &Plan{Paths: paths, Swept: swept, Ops: []Op{{Step: StepCheck}}})
	if !r.OK {
		t.Fatalf("plan failed: %+v", r.Error)
	}
	if got := caps.reqs[0].Swept; !slices.Equal(got, swept) {
		t.Errorf("swept = %v, want %v", got, swept)
	}
}

// Notes reach the result apart from the diagnostics, once each, and do
// not make it not ok.
func TestCoverageReachesTheResult(t *testing.T) {
	caps := &noteCaps{}
	e, _ := setup(t, map[string]string{"a.go": "package a\n"}, Options{Capabilities: caps})
	r := run(t, e, `{"paths": ["a.go"], "ops": [{"step": "lint"}, {"step": "lint"}]}`)
	if !r.OK {
		t.Fatalf("plan failed: %+v", r.Error)
	}
	if len(r.Coverage) != 1 || r.Coverage[0].Kind != NoteMissing || len(r.Diagnostics) != 0 {
		t.Errorf("coverage = %+v, diagnostics = %+v; want the note once and no diagnostic", r.Coverage, r.Diagnostics)
	}
}

// noteCaps answers ok with one coverage note.
type noteCaps struct{}

func (noteCaps) Has(Kind) bool { return true }

func (noteCaps) Run(context.Context, Request) (*Response, error) {
	return &Response{
		Drivers: []DriverStatus{{Driver: "fake", Status: StatusOK}},
		Output: Output{
			Coverage: []Note{{Kind: NoteMissing, Language: "yaml", Driver: "yamllint", Files: 1, Paths: []string{"ci.yml"}, Message: "1 yaml file not linted by yamllint (ci.yml)"}},
		},
	}, nil
}
