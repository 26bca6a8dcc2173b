package wire_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/editfile"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/workspace"
)

// The wire's field names are frozen: both the MCP server and the editor
// endpoint send these encodings, and clients read them.

func TestDevResultEmpty(t *testing.T) {
	got := encode(t, wire.NewDevResult(&engine.Result{}, nil, wire.Options{}))
	const want = `{"ok":false,"reads":{},"changes":[],"written":[],"diagnostics":[],"unwritten":[]}`
	if got != want {
		t.Errorf("empty result\n got %s\nwant %s", got, want)
	}
}

func TestDevResult(t *testing.T) {
	r := &engine.Result{
		Reads:             map[string]string{"a.go": "x"},
		Changes:           []workspace.Change{{Path: "b.go", Kind: "renamed", From: "c.go", Added: 1}},
		Written:           []string{"a.go"},
		ChangedAfterWrite: []string{"a.go"},
		Diagnostics: []engine.Diagnostic{{
			Path: "a.go", Line: 1, Column: 2, EndLine: 1, EndColumn: 3, Severity: engine.SeverityError, Source: "gopls", Code: "E", Message: "bad",
			Fixes: []engine.Fix{{Title: "fix", Edits: []engine.FixEdit{{Path: "a.go", Line: 1, Column: 2, EndLine: 1, EndColumn: 3, New: "y"}}}},
		}},
		Drivers: []engine.DriverStatus{{Driver: "gopls", Status: "timeout", Message: "slow"}, {Driver: "pyright", Language: "python", Status: "unchecked", Message: "missing"}},
		Error:   &engine.StepError{Step: 2, Name: "write", Kind: "io", Message: "boom", Retryable: true, Written: []string{"a.go"}, Temp: "t~"},
	}
	const common = `{"ok":false,"reads":{"a.go":"x"},"changes":[{"path":"b.go","kind":"renamed","from":"c.go","added":1,"removed":0}],"written":["a.go"],"changed_after_write":["a.go"],` +
		`"diagnostics":[{"path":"a.go","line":1,"column":2,"end_line":1,"end_column":3,"severity":"error","source":"gopls","code":"E","message":"bad"%s}],` +
		`"drivers":[{"driver":"gopls","status":"timeout","message":"slow"},{"driver":"pyright","language":"python","status":"unchecked","message":"missing"}],"unwritten":["d.go"],` +
		`"error":{"step":2,"name":"write","kind":"io","message":"boom","retryable":true,"written":["a.go"],"temp":"t~"}}`
	for _, tc := range []struct {
		opts  wire.Options
		fixes string
	}{
		{wire.Options{}, `,"fixes":[{"title":"fix","edits":[{"path":"a.go","line":1,"column":2,"end_line":1,"end_column":3,"new":"y"}]}]`},
		{wire.Options{OmitFixes: true}, ``},
	} {
		got := encode(t, wire.NewDevResult(r, []string{"d.go"}, tc.opts))
		if want := fmt.Sprintf(common, tc.fixes); got != want {
			t.Errorf("%+v\n got %s\nwant %s", tc.opts, got, want)
		}
	}
}

// A diagnostic's related places go out as related (path, line, column,
// message; a file outside the root by its absolute path), and an answer
// that reached its server's limit as truncated and server_limit.
func TestDevResultRelatedAndTruncated(t *testing.T) {
	r := &engine.Result{
		Diagnostics: []engine.Diagnostic{{
			Path: "b.go", Line: 3, Column: 6, EndLine: 3, EndColumn: 7, Severity: engine.SeverityError, Source: "gopls", Message: "F redeclared in this block",
			Related: []engine.Related{{Path: "a.go", Line: 3, Column: 6, Message: "other declaration of F"}, {Path: "/usr/lib/go/src/x.go", Line: 9, Column: 2}},
		}},
		Answers: []engine.Answer{{Step: 1, Name: engine.StepSymbols, ServerLimit: 100}},
	}
	got := encode(t, wire.NewDevResult(r, nil, wire.Options{OmitFixes: true}))
	const want = `{"ok":false,"reads":{},"changes":[],"written":[],"diagnostics":[{"path":"b.go","line":3,"column":6,"end_line":3,"end_column":7,"severity":"error","source":"gopls","message":"F redeclared in this block",` +
		`"related":[{"path":"a.go","line":3,"column":6,"message":"other declaration of F"},{"path":"/usr/lib/go/src/x.go","line":9,"column":2,"message":""}]}],` +
		`"answers":[{"step":1,"name":"symbols","truncated":true,"server_limit":100}],"unwritten":[]}`
	if got != want {
		t.Errorf("\n got %s\nwant %s", got, want)
	}
}

func TestProbe(t *testing.T) {
	rep := &capabilities.Report{
		Drivers:   []capabilities.DriverReport{{Name: "x", Type: "external", Kinds: []engine.Kind{engine.Lint}, Probe: capabilities.Probe{State: "missing", Reason: "install it"}}},
		Available: map[engine.Kind][]string{engine.Check: {"go"}},
	}
	if got, want := encode(t, wire.DriverReports(rep)), `[{"name":"x","type":"external","kinds":["lint"],"state":"missing","reason":"install it"}]`; got != want {
		t.Errorf("drivers\n got %s\nwant %s", got, want)
	}
	if got, want := encode(t, wire.Available(rep)), `{"check":["go"],"format":[],"lint":[],"test":[]}`; got != want {
		t.Errorf("available\n got %s\nwant %s", got, want)
	}
	if got := encode(t, wire.DriverReports(&capabilities.Report{})); got != `[]` {
		t.Errorf("no drivers = %s, want []", got)
	}
}

func encode(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDevResultStale(t *testing.T) {
	r := &engine.Result{OK: true, Stale: []workspace.Stale{
		{Path: "a.go", Disk: workspace.DiskChanged, BaseRevision: "sha256:1", DiskRevision: "sha256:2"},
		{Path: "b.go", Disk: workspace.DiskDeleted, BaseRevision: "sha256:3"},
	}}
	const want = `{"ok":true,"reads":{},"changes":[],"written":[],"diagnostics":[],"unwritten":[],` +
		`"stale":[{"path":"a.go","disk":"changed","base_revision":"sha256:1","disk_revision":"sha256:2"},{"path":"b.go","disk":"deleted","base_revision":"sha256:3"}]}`
	if got := encode(t, wire.NewDevResult(r, nil, wire.Options{})); got != want {
		t.Errorf("stale\n got %s\nwant %s", got, want)
	}
}

func TestFileResultAndFailure(t *testing.T) {
	r := &editfile.Result{Path: "/r/a.go", Text: "1\tx\n", Revision: "sha256:1", Diff: "d", Changed: true, ChangedAfterWrite: true}
	const want = `{"path":"/r/a.go","text":"1\tx\n","revision":"sha256:1","diff":"d","changed":true,"changed_after_write":true}`
	if got := encode(t, wire.NewFileResult(r)); got != want {
		t.Errorf("file result\n got %s\nwant %s", got, want)
	}
	const view = `{"path":"/r/a.go","text":"","revision":"sha256:1","changed":false}`
	if got := encode(t, wire.NewFileResult(&editfile.Result{Path: "/r/a.go", Revision: "sha256:1"})); got != view {
		t.Errorf("view\n got %s\nwant %s", got, view)
	}
	err := fault.New(fault.IO, "disk full")
	const failure = `{"error":{"kind":"io","message":"disk full","retryable":true}}`
	if got := encode(t, &wire.Failure{Error: wire.NewError(err)}); got != failure {
		t.Errorf("failure\n got %s\nwant %s", got, failure)
	}
}

func TestProbeResult(t *testing.T) {
	rep := &capabilities.Report{
		Drivers:   []capabilities.DriverReport{{Name: "gopls", Type: "lsp", Kinds: []engine.Kind{engine.Check}, Doc: "a server", Probe: capabilities.Probe{State: "found", Version: "v1", Path: "/bin/gopls", Took: 5}}},
		Available: map[engine.Kind][]string{engine.Check: {"go"}},
		Project:   &capabilities.ProjectTrust{File: "/r/.devbroker.toml", Trusted: true},
	}
	const want = `{"drivers":[{"name":"gopls","type":"lsp","kinds":["check"],"doc":"a server","state":"found","version":"v1","path":"/bin/gopls"}],` +
		`"available":{"check":["go"],"format":[],"lint":[],"test":[]},"steps":["read_lines","check"],"project":{"file":"/r/.devbroker.toml","trusted":true}}`
	if got := encode(t, wire.NewProbeResult(rep, []string{"read_lines", "check"})); got != want {
		t.Errorf("probe\n got %s\nwant %s", got, want)
	}
}

// A diagnostic reads the same on every text surface: the wire's text is
// the engine's, code, other drivers and related places included.
func TestDiagnosticTextIsTheEngines(t *testing.T) {
	d := engine.Diagnostic{Path: "a.go", Line: 3, Column: 2, Severity: engine.SeverityError, Source: "gopls", Code: "compiler", Message: "x redeclared",
		AlsoFrom: []string{"go-build"}, Related: []engine.Related{{Path: "b.go", Line: 1, Column: 6, Message: "other declaration of x"}, {Path: "/abs/c.go", Line: 9, Column: 1}}}
	r := wire.NewDevResult(&engine.Result{Diagnostics: []engine.Diagnostic{d}}, nil, wire.Options{})
	const want = "a.go:3:2: error: x redeclared (gopls compiler; also go-build)\n\tb.go:1:6: other declaration of x\n\t/abs/c.go:9:1"
	if got := r.Diagnostics[0].String(); got != want || d.String() != want {
		t.Errorf("wire's text\n%s\nengine's\n%s\nwant\n%s", got, d.String(), want)
	}
}
