package broker

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/lsp"
)

// Two sessions of one root share one gopls, and each is answered about
// its own workspace: A's unwritten rename is not what B's definition and
// references see, B's rename and write take B's view, and A's later write,
// made from the content B replaced, is refused and leaves B's on disk.
func TestSessionsShareGoplsEachItsOwnView(t *testing.T) {
	if _, _, err := lsp.FindServer(context.Background(), "gopls", ".", true); err != nil {
		t.Skipf("no gopls: %v", err)
	}
	root, _ := filepath.EvalSymlinks(t.TempDir())
	testtree.Write(t, root, map[string]string{
		"go.mod": "module example.com/m\n\ngo 1.22\n",
		"a/a.go": "package a\n\n// F returns one.\nfunc F() int { return 1 }\n",
		"b/b.go": "package b\n\nimport \"example.com/m/a\"\n\nvar X = a.F()\n",
	})
	m := NewManager(Options{Load: realLoader})
	t.Cleanup(func() { m.Close() })
	ctx := context.Background()
	open := func() *Session {
		s, err := m.Open(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	sa, sb := open(), open()
	step := func(s *Session, name engine.StepName, args string) *engine.Result {
		t.Helper()
		st, _ := engine.LookupStep(name)
		a, err := st.Decode([]byte(args))
		if err != nil {
			t.Fatal(err)
		}
		return s.Step(ctx, StepRequest{Args: a})
	}
	if r := step(sa, engine.StepRename, `{"path":"a/a.go","symbol":"F","new_name":"G"}`); !r.OK {
		t.Fatalf("A's rename: %+v", r.Error)
	}
	r := step(sb, engine.StepDefinition, `{"path":"b/b.go","line":5,"symbol":"F"}`)
	if !r.OK || len(r.Answers) != 1 || len(r.Answers[0].Locations) != 1 || r.Answers[0].Locations[0].Text != "func F() int { return 1 }" {
		t.Fatalf("B's definition of F after A's unwritten rename: %+v %+v", r.Error, r.Answers)
	}
	r = step(sb, engine.StepReferences, `{"path":"a/a.go","symbol":"F"}`)
	if !r.OK || len(r.Answers[0].Locations) != 1 || r.Answers[0].Locations[0].Text != "var X = a.F()" {
		t.Fatalf("B's references of F: %+v %+v", r.Error, r.Answers)
	}
	if r = step(sb, engine.StepRename, `{"path":"a/a.go","symbol":"F","new_name":"H"}`); !r.OK || len(r.Changes) != 2 {
		t.Fatalf("B's rename: %+v %+v", r.Error, r.Changes)
	}
	if r = step(sb, engine.StepWrite, `{}`); !r.OK {
		t.Fatalf("B's write: %+v", r.Error)
	}
	r = step(sa, engine.StepWrite, `{}`)
	if r.OK || r.Error == nil || r.Error.Kind != fault.Conflict {
		t.Fatalf("A's write over B's: ok %v, error %+v", r.OK, r.Error)
	}
	for p, want := range map[string]string{"a/a.go": "func H() int", "b/b.go": "a.H()"} {
		if b, _ := os.ReadFile(filepath.Join(root, p)); !strings.Contains(string(b), want) {
			t.Errorf("%s after both writes:\n%s", p, b)
		}
	}
}
