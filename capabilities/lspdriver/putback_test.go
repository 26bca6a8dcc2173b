package lspdriver_test

// The put-back path through the driver: a Go file whose workspace content
// goes back to the disk's is sent at disk content (lsp.Document.OnDisk),
// which gopls sees padded and keeps open after requests that leave it
// out. The answers must be those of the exact content, fresh, and
// never from an old copy of the disk.

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/testtree"
	"github.com/devbroker/devbroker/engine/text"
)

// planFindings runs a plan and returns its diagnostics as "path: message".
func planFindings(t *testing.T, e *engine.Engine, plan *engine.Plan) []string {
	t.Helper()
	res := e.Run(context.Background(), plan)
	var got []string
	for _, dg := range res.Diagnostics {
		got = append(got, dg.Path+": "+dg.Message)
	}
	for _, ds := range res.Drivers {
		if ds.Status != engine.StatusOK {
			t.Fatalf("driver %s: %s %s", ds.Driver, ds.Status, ds.Message)
		}
	}
	return got
}

func TestCheckPutBackFollowsDisk(t *testing.T) {
	root, _ := workspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	caps := oneDriver{d}
	editor, err := engine.New(root, engine.Options{Capabilities: caps})
	if err != nil {
		t.Fatal(err)
	}
	other, err := engine.New(root, engine.Options{Capabilities: caps})
	if err != nil {
		t.Fatal(err)
	}
	good, bad := "func F() int { return 1 }", "func F() int { return \"one\" }"
	edit := func(from, to string) engine.Op {
		return engine.Op{Step: engine.StepEdit, Args: &engine.EditArgs{Path: "a/a.go", Edits: []engine.FindReplace{{Find: &from, Replace: &to}}}}
	}
	check := engine.Op{Step: engine.StepCheck}
	want := func(what string, got []string, sub string) {
		t.Helper()
		if sub == "" && len(got) > 0 || sub != "" && !strings.Contains(strings.Join(got, "\n"), sub) {
			t.Fatalf("%s: got %q, want %q", what, got, sub)
		}
	}
	for i := range 2 {
		got := planFindings(t, editor, &engine.Plan{Paths: []string{"a/a.go"}, Ops: []engine.Op{edit(good, bad), check}})
		want("break", got, "a/a.go: cannot use \"one\"")
		got = planFindings(t, editor, &engine.Plan{Ops: []engine.Op{edit(bad, good), check}})
		want("put back "+string(rune('1'+i)), got, "")
	}
	// Another session checks b: a.go stays open at disk content. Then
	// another program changes a.go on disk: both sessions see it.
	want("b alone", planFindings(t, other, &engine.Plan{Paths: []string{"b/b.go"}, Ops: []engine.Op{check}}), "")
	testtree.Put(t, root, "a/a.go", "package a\n\n// F is one.\nfunc F(x int) int { return x }\n")
	want("b after a changed on disk", planFindings(t, other, &engine.Plan{Ops: []engine.Op{check}}), "b/b.go: not enough arguments in call to a.F")
	want("a's session after the disk changed", planFindings(t, editor, &engine.Plan{Ops: []engine.Op{check}}), "b/b.go: not enough arguments in call to a.F")
}

// TestKeptDocAnswersAsClosed: a file kept open at disk content after its
// request adds nothing a closed file would not get to the answers of
// requests that leave it out.
func TestKeptDocAnswersAsClosed(t *testing.T) {
	root, all := workspace(t)
	vet := "package a\n\nimport \"fmt\"\n\n// F is one.\nfunc F() int { return 1 }\n\nvar _ = fmt.Sprintf(\"%d\", \"x\")\n"
	testtree.Put(t, root, "a/a.go", vet)
	all["a/a.go"] = text.FromString(vet)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	run := func(file string) []engine.Diagnostic {
		res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{file}, All: all})
		if res.Status != engine.StatusOK {
			t.Fatalf("status %s: %s", res.Status, res.Message)
		}
		return res.Diagnostics
	}
	alone := run("b/b.go") // a.go never opened
	found := false
	for _, dg := range run("a/a.go") {
		found = found || dg.Path == "a/a.go" && strings.Contains(dg.Message, "Sprintf")
	}
	if !found {
		t.Fatal("a.go's Sprintf finding is missing from its own check")
	}
	if got := run("b/b.go"); !reflect.DeepEqual(got, alone) {
		t.Fatalf("b.go with a.go kept open: %+v, want as with a.go closed: %+v", got, alone)
	}
}

// TestOnDiskPositionsAtTheEnd: a syntax error at the end of a file at
// disk content is reported where it is for the exact content.
func TestOnDiskPositionsAtTheEnd(t *testing.T) {
	for _, src := range []string{"package a\n\nfunc F() int {\n", "package a\n\nfunc F() int {"} {
		root, all := workspace(t)
		testtree.Put(t, root, "a/a.go", src)
		all["a/a.go"] = text.FromString(src)
		d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
		run := func(changed []string) []engine.Diagnostic {
			res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"a/a.go"}, All: all, Changed: changed})
			if res.Status != engine.StatusOK {
				t.Fatalf("status %s: %s", res.Status, res.Message)
			}
			var out []engine.Diagnostic
			for _, dg := range res.Diagnostics {
				if dg.Path == "a/a.go" {
					out = append(out, dg)
				}
			}
			return out
		}
		exact := run([]string{"a/a.go"}) // sent as changed: the exact text
		atDisk := run(nil)
		if len(exact) == 0 || !reflect.DeepEqual(atDisk, exact) {
			t.Errorf("%q at disk content: %+v, want as sent exactly: %+v", src, atDisk, exact)
		}
	}
}

// TestOlderCopyIsNotKept: a session whose copy of a.go is unchanged but
// older than the disk (an editor buffer pins it, or another session wrote
// the file since) checks a.go; a later request that leaves a.go out (another
// session checking b.go, which calls F) must see the disk, where F takes an
// argument, not the older copy kept open.
func TestOlderCopyIsNotKept(t *testing.T) {
	root, all := workspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: map[string]any{"diagnosticsDelay": "0s"}}, root)
	newA := "package a\n\n// F is one.\nfunc F(x int) int { return x }\n"
	testtree.Put(t, root, "a/a.go", newA)
	res := d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"a/a.go"}, All: all})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	disk := map[string]*text.Doc{}
	for p, doc := range all {
		disk[p] = doc
	}
	disk["a/a.go"] = text.FromString(newA)
	res = d.Run(context.Background(), &capabilities.Request{Kind: engine.Check, Root: root, Files: []string{"b/b.go"}, All: disk})
	if res.Status != engine.StatusOK {
		t.Fatalf("status %s: %s", res.Status, res.Message)
	}
	for _, dg := range res.Diagnostics {
		if dg.Path == "b/b.go" && strings.Contains(dg.Message, "not enough arguments") {
			return
		}
	}
	t.Fatalf("b.go checked against a stale a.go kept open: %+v", res.Diagnostics)
}
