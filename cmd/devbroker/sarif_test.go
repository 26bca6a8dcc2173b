package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/fault"
)

// TestSARIFValidAgainstSchema validates writeSARIF's output against the
// SARIF 2.1.0 schema, for diagnostics of every severity and shape and for
// an answer's notes: every result has a ruleId (its code, or its driver's
// name), the notes are devbroker's tool execution notifications and no
// result, and each tool carries its version and informationUri.
func TestSARIFValidAgainstSchema(t *testing.T) {
	res := &engine.Result{
		Diagnostics: []engine.Diagnostic{
			{Path: "a.go", Line: 3, Column: 2, EndLine: 3, EndColumn: 9, Severity: engine.SeverityError, Source: "gopls", Code: "UndeclaredName", Message: "undefined: x"},
			{Path: "a.go", Line: 4, Column: 2, EndLine: 4, EndColumn: 3, Severity: engine.SeverityError, Source: "gopls", Message: "missing return"},
			{Path: "a.go", Line: 5, Column: 1, EndLine: 5, EndColumn: 1, Severity: engine.SeverityWarning, Source: "staticcheck", Code: "SA4006", Message: "this value of y is never used"},
			{Path: "dir/b.sh", Line: 1, Column: 1, Severity: engine.SeverityInfo, Source: "shellcheck", Code: "SC2148", Message: "add a shebang"},
		},
		Drivers: []engine.DriverStatus{{Driver: "gopls", Status: engine.StatusOK}, {Driver: "staticcheck", Status: engine.StatusOK}, {Driver: "shellcheck", Status: engine.StatusOK}},
		Coverage: []engine.Note{
			{Kind: engine.NoteMissing, Language: "yaml", Driver: "yamllint", Files: 1, Paths: []string{"ci.yml"}, Message: "1 yaml file not linted by yamllint (ci.yml): yamllint is missing"},
			{Kind: engine.NoteNotConfigured, Language: "markdown", Files: 1, Paths: []string{"README.md"}, Message: "1 markdown file not linted (README.md): markdown lists no linter"},
			{Kind: engine.NoteOmitted, Message: "3 more diagnostics were left out"},
		},
	}
	tools := map[string]sarifToolInfo{"gopls": {Version: "0.23.0", URI: "https://go.dev/gopls/"}, "devbroker": {Version: "1.2.3", URI: devbrokerURI}}
	var buf bytes.Buffer
	if err := writeSARIF(&buf, res, tools); err != nil {
		t.Fatal(err)
	}
	mt, err := validSARIF(buf.Bytes())
	if err != nil {
		t.Fatalf("SARIF output is not valid: %v\n%s", err, buf.String())
	}
	t.Logf("checked by the SARIF Multitool too: %v", mt)
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct {
					Name, Version, InformationURI string
					Rules                         []struct{ ID string }
				}
			}
			Results []struct {
				RuleID string
				Level  string
			}
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct {
					Level   string
					Message struct{ Text string }
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	byName := map[string]int{}
	for i, r := range log.Runs {
		byName[r.Tool.Driver.Name] = i
	}
	if len(log.Runs) != 4 {
		t.Fatalf("runs = %+v, want devbroker, gopls, shellcheck and staticcheck", log.Runs)
	}
	gopls := log.Runs[byName["gopls"]]
	if d := gopls.Tool.Driver; d.Version != "0.23.0" || d.InformationURI != "https://go.dev/gopls/" {
		t.Errorf("gopls's tool = %+v, want its version and address", d)
	}
	if len(gopls.Results) != 2 || gopls.Results[0].RuleID != "UndeclaredName" || gopls.Results[1].RuleID != "gopls" || gopls.Results[0].Level != "error" {
		t.Errorf("gopls's results = %+v, want ruleIds UndeclaredName and gopls (no code: the driver's name)", gopls.Results)
	}
	if r := gopls.Tool.Driver.Rules; len(r) != 2 || r[0].ID != "UndeclaredName" || r[1].ID != "gopls" {
		t.Errorf("gopls's rules = %+v, want one per ruleId", r)
	}
	own := log.Runs[byName["devbroker"]]
	if len(own.Results) != 0 {
		t.Errorf("devbroker's results = %+v, want none: notes are not findings", own.Results)
	}
	if d := own.Tool.Driver; d.Version != "1.2.3" || d.InformationURI != devbrokerURI {
		t.Errorf("devbroker's tool = %+v", d)
	}
	if inv := own.Invocations; len(inv) != 1 || !inv[0].ExecutionSuccessful || len(inv[0].ToolExecutionNotifications) != 3 ||
		inv[0].ToolExecutionNotifications[0].Level != "warning" || !strings.Contains(inv[0].ToolExecutionNotifications[0].Message.Text, "yamllint is missing") ||
		inv[0].ToolExecutionNotifications[1].Level != "note" {
		t.Errorf("devbroker's invocations = %+v, want one successful execution with the three notes", inv)
	}
	// A broken log must fail validation, or the test proves nothing:
	// an invalid level, and a result without a ruleId.
	for _, broken := range []string{
		strings.Replace(buf.String(), `"level": "error"`, `"level": "fatal"`, 1),
		strings.Replace(buf.String(), `"ruleId": "UndeclaredName",`, ``, 1),
	} {
		if broken == buf.String() {
			t.Fatal("the log was not broken")
		}
		if _, err := validSARIF([]byte(broken)); err == nil {
			t.Errorf("an invalid log passed validation:\n%s", broken)
		}
	}
}

// An answer that looked at no file is no successful execution in SARIF:
// devbroker's own run says it failed, and why.
func TestSARIFLookedAtNothing(t *testing.T) {
	res := &engine.Result{
		Error:    &engine.StepError{Step: 1, Name: "lint", Kind: fault.Unchecked, Message: "lint looked at no file: ..."},
		Coverage: []engine.Note{{Kind: engine.NoteMissing, Language: "yaml", Driver: "yamllint", Files: 1, Message: "1 yaml file not linted by yamllint (ci.yml): yamllint is missing"}},
	}
	var buf bytes.Buffer
	if err := writeSARIF(&buf, res, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := validSARIF(buf.Bytes()); err != nil {
		t.Fatalf("%v\n%s", err, buf.String())
	}
	if !strings.Contains(buf.String(), `"executionSuccessful": false`) || !strings.Contains(buf.String(), "unchecked: lint looked at no file") {
		t.Errorf("devbroker's run does not fail, saying why:\n%s", buf.String())
	}
}

// The version a SARIF tool carries starts with a number.
func TestSARIFVersion(t *testing.T) {
	for in, want := range map[string]string{
		"2026.2.1 (v0.8.1)":                "2026.2.1 (v0.8.1)",
		"go version go1.26.8 linux/amd64":  "1.26.8",
		"golang.org/x/tools/gopls v0.23.0": "0.23.0",
		"v1.2.3":                           "1.2.3",
		"ShellCheck\nversion: 0.9.0":       "0.9.0",
		"devel":                            "",
		"":                                 "",
	} {
		if got := sarifVersion(in); got != want {
			t.Errorf("sarifVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

// A driver that failed (timed out, crashed) must not look clean in SARIF,
// even when it reported no diagnostics: its run says the execution did not
// succeed, and why.
func TestSARIFReportsFailedDrivers(t *testing.T) {
	res := &engine.Result{
		Diagnostics: []engine.Diagnostic{
			{Path: "a.go", Line: 1, Column: 1, Severity: engine.SeverityWarning, Source: "staticcheck", Code: "SA4006", Message: "unused"},
		},
		Drivers: []engine.DriverStatus{
			{Driver: "staticcheck", Status: engine.StatusOK},
			{Driver: "go-vet", Status: engine.StatusTimeout, Message: "go-vet timed out after 2m0s and was killed"},
		},
	}
	var buf bytes.Buffer
	if err := writeSARIF(&buf, res, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := validSARIF(buf.Bytes()); err != nil {
		t.Fatalf("SARIF output is not valid: %v\n%s", err, buf.String())
	}
	var log struct {
		Runs []struct {
			Tool struct {
				Driver struct{ Name string }
			}
			Results     []json.RawMessage
			Invocations []struct {
				ExecutionSuccessful        bool
				ToolExecutionNotifications []struct {
					Level   string
					Message struct{ Text string }
				}
			}
		}
	}
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for i, r := range log.Runs {
		got[r.Tool.Driver.Name] = i
	}
	vet, ok := got["go-vet"]
	if !ok {
		t.Fatalf("no run for the driver that timed out:\n%s", buf.String())
	}
	inv := log.Runs[vet].Invocations
	if len(inv) != 1 || inv[0].ExecutionSuccessful || len(inv[0].ToolExecutionNotifications) != 1 ||
		inv[0].ToolExecutionNotifications[0].Level != "error" ||
		!strings.Contains(inv[0].ToolExecutionNotifications[0].Message.Text, "timeout") ||
		!strings.Contains(inv[0].ToolExecutionNotifications[0].Message.Text, "timed out after 2m0s") {
		t.Errorf("go-vet's invocations = %+v, want one unsuccessful execution naming the timeout", inv)
	}
	sc := log.Runs[got["staticcheck"]]
	if len(sc.Results) != 1 || len(sc.Invocations) != 1 || !sc.Invocations[0].ExecutionSuccessful {
		t.Errorf("staticcheck's run = %+v, want its result and one successful execution", sc)
	}
}

func TestSARIFURIsAreEncoded(t *testing.T) {
	for p, want := range map[string]string{
		"a.go":           "a.go",
		"dir/my file.go": "dir/my%20file.go",
		"100%/x#1.go":    "100%25/x%231.go",
		"ünï/código.go":  "%C3%BCn%C3%AF/c%C3%B3digo.go",
	} {
		if got := relativeURI(p); got != want {
			t.Errorf("relativeURI(%q) = %q, want %q", p, got, want)
		}
	}
}

// TestSARIFRelatedLocationsValidate: a diagnostic's related places (one in
// the root, one outside it by absolute path) make a valid SARIF log.
func TestSARIFRelatedLocationsValidate(t *testing.T) {
	res := &engine.Result{
		Diagnostics: []engine.Diagnostic{
			{Path: "a.go", Line: 7, Column: 6, EndLine: 7, EndColumn: 7, Severity: engine.SeverityError, Source: "gopls", Code: "DuplicateDecl", Message: "F redeclared in this block", Related: []engine.Related{
				{Path: "dir/my b.go", Line: 3, Column: 6, Message: "other declaration of F"},
				{Path: "/usr/lib/go/src/fmt/print.go", Line: 9, Column: 2},
			}},
		},
		Drivers: []engine.DriverStatus{{Driver: "gopls", Status: engine.StatusOK}},
	}
	var buf bytes.Buffer
	if err := writeSARIF(&buf, res, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := validSARIF(buf.Bytes()); err != nil {
		t.Fatalf("SARIF output is not valid: %v\n%s", err, buf.String())
	}
	if !strings.Contains(buf.String(), `"relatedLocations"`) || !strings.Contains(buf.String(), "file:///usr/lib/go/src/fmt/print.go") {
		t.Errorf("no related locations:\n%s", buf.String())
	}
}
