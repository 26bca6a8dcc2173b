package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/devbroker/devbroker/engine"
)

// TestSARIFValidAgainstSchema validates writeSARIF's output against the
// SARIF 2.1.0 schema, for diagnostics of every severity and shape.
func TestSARIFValidAgainstSchema(t *testing.T) {
	schema := sarifSchema(t)
	res := &engine.Result{Diagnostics: []engine.Diagnostic{
		{Path: "a.go", Line: 3, Column: 2, EndLine: 3, EndColumn: 9, Severity: engine.SeverityError, Source: "gopls", Code: "UndeclaredName", Message: "undefined: x"},
		{Path: "a.go", Line: 5, Column: 1, EndLine: 5, EndColumn: 1, Severity: engine.SeverityWarning, Source: "staticcheck", Code: "SA4006", Message: "this value of y is never used"},
		{Path: "dir/b.sh", Line: 1, Column: 1, Severity: engine.SeverityInfo, Source: "devbroker", Message: "no lint driver"},
		{Severity: engine.SeverityInfo, Source: "devbroker", Message: "3 more diagnostics were left out"},
	}}
	var buf bytes.Buffer
	if err := writeSARIF(&buf, res, nil); err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("SARIF output is not valid against the schema: %v\n%s", err, buf.String())
	}
	// And the content is what was asked for.
	var log sarifLog
	if err := json.Unmarshal(buf.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	if len(log.Runs) != 3 || log.Runs[1].Tool.Driver.Name != "gopls" || log.Runs[1].Results[0].Level != "error" {
		t.Errorf("runs = %+v", log.Runs)
	}
	// A broken log must fail validation, or the test proves nothing.
	broken := strings.Replace(buf.String(), `"level": "error"`, `"level": "fatal"`, 1)
	inst, _ = jsonschema.UnmarshalJSON(strings.NewReader(broken))
	if schema.Validate(inst) == nil {
		t.Error("the schema accepted an invalid level")
	}
}

// sarifSchema compiles the SARIF 2.1.0 schema.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open("testdata/sarif/sarif-2.1.0-rtm.5.json")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	const url = "sarif-2.1.0-rtm.5.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile(url)
	if err != nil {
		t.Fatal(err)
	}
	return schema
}

// A driver that failed (timed out, crashed) must not look clean in SARIF,
// even when it reported no diagnostics: its run says the execution did not
// succeed, and why.
func TestSARIFReportsFailedDrivers(t *testing.T) {
	schema := sarifSchema(t)
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
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema.Validate(inst); err != nil {
		t.Fatalf("SARIF output is not valid against the schema: %v\n%s", err, buf.String())
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
