package lspdriver_test

import (
	"context"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/editfile"
)

// oneDriver serves an engine's check with one driver, and passes disk
// changes on as capabilities.Set does.
type oneDriver struct{ d capabilities.Driver }

func (o oneDriver) Has(kind engine.Kind) bool { return kind == engine.Check }

func (o oneDriver) Run(ctx context.Context, req engine.Request) (*engine.Response, error) {
	var files []string
	for p := range req.Files {
		files = append(files, p)
	}
	r := o.d.Run(ctx, &capabilities.Request{Kind: req.Kind, Root: req.Root, Files: files, All: req.Files, Changed: req.Changed, Deleted: req.Deleted})
	return &engine.Response{Output: engine.Output{Diagnostics: r.Diagnostics}, Drivers: []engine.DriverStatus{{Driver: "gopls", Status: r.Status, Message: r.Message}}}, nil
}

func (o oneDriver) DiskChanged(paths []string) { o.d.(engine.DiskObserver).DiskChanged(paths) }

// TestDevbrokerWritesReachTheServer: with the disk watcher off, what an
// engine writes (edit_file's commit, a plan's write) still reaches the
// server, so a check of a dependent package in another workspace follows.
func TestDevbrokerWritesReachTheServer(t *testing.T) {
	lspdriver.SetNoWatch(true)
	t.Cleanup(func() { lspdriver.SetNoWatch(false) })
	root, _ := workspace(t)
	d := driver(t, &configs.Driver{Type: "lsp", Command: []string{goplsPath(t)}, Settings: goplsSettings(t)}, root)
	caps := oneDriver{d}
	writer, err := engine.New(root, engine.Options{Capabilities: caps})
	if err != nil {
		t.Fatal(err)
	}
	checker, err := engine.New(root, engine.Options{Capabilities: caps})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	check := func(what, want string) {
		t.Helper()
		res := checker.Run(ctx, &engine.Plan{Paths: []string{"b/b.go"}, Ops: []engine.Op{{Step: engine.StepCheck}}})
		var got []string
		for _, dg := range res.Diagnostics {
			got = append(got, dg.Path+": "+dg.Message)
		}
		joined := strings.Join(got, "\n")
		if want == "" && len(got) > 0 || want != "" && !strings.Contains(joined, want) {
			t.Fatalf("%s: got %q, want %q", what, got, want)
		}
	}
	check("before", "")
	ef := editfile.NewSession(writer.FS(), writer.Workspace())
	old, repl := "func F() int { return 1 }", "func F(x int) int { return x }"
	if _, err := ef.Do(ctx, &editfile.Params{Command: "view", FilePath: root + "/a/a.go"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ef.Do(ctx, &editfile.Params{Command: "str_replace", FilePath: root + "/a/a.go", OldStr: &old, NewStr: &repl}); err != nil {
		t.Fatal(err)
	}
	check("after edit_file", "b/b.go: not enough arguments in call to a.F")
	edit := &engine.EditArgs{Path: "a/a.go", Edits: []engine.FindReplace{{Find: &repl, Replace: &old}}}
	res := writer.Run(ctx, &engine.Plan{Paths: []string{"a/a.go"}, Ops: []engine.Op{{Step: engine.StepEdit, Args: edit}, {Step: engine.StepWrite}}})
	if !res.OK {
		t.Fatalf("edit and write: %+v", res.Error)
	}
	check("after a plan's write", "")
}
