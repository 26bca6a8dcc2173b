package mcp

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	ws "github.com/devbroker/devbroker/engine/workspace"
)

// TestProbeTextIsTheReportsText: the probe tool's text is the report's one
// text form (what devbroker probe prints), then the tools, for every
// part of a report: an untrusted project file, and found, missing and
// untrusted drivers.
func TestProbeTextIsTheReportsText(t *testing.T) {
	r := &capabilities.Report{
		Drivers: []capabilities.DriverReport{
			{Name: "gopls", Type: "lsp", Kinds: []engine.Kind{engine.Check}, Probe: capabilities.Probe{State: capabilities.Found, Version: "gopls v1\nbuild info", Path: "/bin/gopls"}},
			{Name: "ruff", Type: "external", Kinds: []engine.Kind{engine.Lint}, Probe: capabilities.Probe{State: capabilities.Missing, Reason: "ruff is not on PATH"}},
			{Name: "prettier", Type: "external", Kinds: []engine.Kind{engine.Format}, Probe: capabilities.Probe{State: capabilities.Untrusted, Reason: "not trusted", Command: []string{"prettier", "--stdin-filepath", "{path}"}}},
		},
		Available: map[engine.Kind][]string{engine.Check: {"go"}},
		Project: &capabilities.ProjectTrust{File: "/r/.devbroker.toml", Reason: "run devbroker trust /r",
			Runs: []capabilities.ProjectRun{{Driver: "mark", Key: "command", Argv: []string{"sh", "-c", "x"}}}},
	}
	var cli strings.Builder
	if err := r.WriteText(&cli); err != nil {
		t.Fatal(err)
	}
	got := probeText(r, []string{"check", "probe"})
	if want := cli.String() + "tools: check, probe"; got != want {
		t.Fatalf("probe text:\n%s\nwant:\n%s", got, want)
	}
	for _, want := range []string{
		"/r/.devbroker.toml is not trusted: none of it applies",
		"\n  mark: command sh -c x\n",
		"gopls v1 ",
		"not run before you trust the root; it would run: prettier --stdin-filepath {path}\n",
		"\nformat: unavailable\n",
		"\ncheck: go\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("probe text lacks %q:\n%s", want, got)
		}
	}
}

// A plan's answers read plainly in the text a model reads (the answer's
// one text form, wire.Answer.WriteText), each under its step when there
// are several, before the changes and what is left unwritten.
// A diagnostic's related places are lines of their own under it, indented
// by a tab, as the go compiler prints them, and as the command line does
// (engine.Diagnostic's String).
func TestDevResultTextShowsRelated(t *testing.T) {
	d := engine.Diagnostic{
		Path: "b.go", Line: 3, Column: 6, Severity: engine.SeverityError, Source: "gopls", Code: "DuplicateDecl", Message: "F redeclared in this block",
		Related: []engine.Related{{Path: "a.go", Line: 3, Column: 6, Message: "other declaration of F"}, {Path: "c.go", Line: 1, Column: 1}},
	}
	got := devResultText(wire.NewDevResult(&engine.Result{Diagnostics: []engine.Diagnostic{d}}, nil, wire.Options{}), true)
	want := "ok: false\nb.go:3:6: error: F redeclared in this block (gopls DuplicateDecl)\n\ta.go:3:6: other declaration of F\n\tc.go:1:1"
	if got != want || !strings.HasSuffix(got, d.String()) {
		t.Fatalf("text:\n%s\nwant:\n%s\nand to end with the command line's\n%s", got, want, d)
	}
}

func TestDevResultTextShowsAnswers(t *testing.T) {
	r := &engine.Result{OK: true, Answers: []engine.Answer{
		{Step: 1, Name: engine.StepDefinition, Locations: []engine.Location{{Path: "a.go", Line: 3, Column: 6, Text: "func Add(a, b int) int {"}}},
		{Step: 2, Name: engine.StepRename},
	}, Changes: []ws.Change{{Path: "a.go", Kind: ws.Modified, Added: 1, Removed: 1}}}
	got := devResultText(wire.NewDevResult(r, []string{"a.go"}, wire.Options{}), true)
	want := "ok: true\n--- step 1 (definition) ---\na.go:3:6: func Add(a, b int) int {\n--- step 2 (rename) ---\nrenamed in the workspace (written only by a write)\nchange: modified a.go (+1 -1)\nunwritten (in the workspace, not on disk): a.go"
	if got != want {
		t.Fatalf("text:\n%s\nwant:\n%s", got, want)
	}
	r.Answers = r.Answers[:1]
	if got := devResultText(wire.NewDevResult(r, nil, wire.Options{}), true); strings.Contains(got, "--- step") {
		t.Errorf("one answer has a step header:\n%s", got)
	}
}
