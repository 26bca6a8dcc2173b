package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/devbroker/devbroker/engine"
)

// failureCase is one way every tool's call can fail before or outside its
// work; prepare readies the harness, after the client has listed the
// tools.
type failureCase struct {
	name    string
	prepare func(h *harness)
	args    map[string]any
	kind    string
}

// TestEveryFailureValidatesAgainstItsOutputSchema calls every tool in
// every way a call fails outside its work (an unknown argument, a server
// that is shutting down, a session that cannot open, a panic inside the
// tool), in every profile, and validates each answer's structured content
// against the tool's declared output schema, as the TypeScript SDK's
// client does: an answer the schema does not admit reaches its user as a
// -32602 schema error instead of the message. A tool that declares none
// (the default and lean profiles') must answer an object. Each answer is
// a tool error whose text holds the error's whole message.
func TestEveryFailureValidatesAgainstItsOutputSchema(t *testing.T) {
	cases := []failureCase{
		{name: "unknown argument", args: map[string]any{"bogus_argument": 1}, kind: "bad_argument"},
		{name: "shutting down", prepare: func(h *harness) { h.srv.Drain(0) }, kind: "unavailable"},
		{name: "server closed", prepare: func(h *harness) { h.srv.Close() }, kind: "unavailable"},
	}
	for _, p := range profiles {
		for _, c := range cases {
			t.Run(string(p)+"/"+c.name, func(t *testing.T) { checkFailures(t, p, c) })
		}
	}
}

// checkFailures calls every tool of profile p the failing way c says.
func checkFailures(t *testing.T, p Profile, c failureCase) {
	t.Helper()
	h := newHarnessWith(t, p, &fakeDrivers{has: kindSet(allKinds())}, map[string]string{"a.txt": "one\n"})
	cs := h.connect(nil)
	tools := listedTools(t, cs)
	if len(tools) != len(p.Tools()) {
		t.Fatalf("listed %d tools, want %d", len(tools), len(p.Tools()))
	}
	if c.prepare != nil {
		c.prepare(h)
	}
	for _, tool := range tools {
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool.Name, Arguments: c.args})
		if err != nil {
			t.Errorf("%s: protocol error: %v", tool.Name, err)
			continue
		}
		checkFailure(t, tool, res, c.kind)
	}
}

// TestPanicAnswerValidates: a panic inside a tool is an internal tool
// error, whose structured content the tool's output schema admits.
func TestPanicAnswerValidates(t *testing.T) {
	h := newHarness(t, &fakeDrivers{has: kindSet(allKinds()), panics: true}, map[string]string{"a.go": "package a\n"})
	cs := h.connect(nil)
	tools := listedTools(t, cs)
	for _, name := range []string{"check", "dev_plan"} {
		args := map[string]any{"paths": []string{"a.go"}}
		if name == "dev_plan" {
			args["ops"] = []any{map[string]any{"step": "check"}}
		}
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: protocol error: %v", name, err)
		}
		checkFailure(t, toolByName(t, tools, name), res, "internal")
		if !strings.Contains(text(res), "a bug; please report it") {
			t.Errorf("%s: %s", name, text(res))
		}
	}
}

func kindSet(kinds []engine.Kind) map[engine.Kind]bool {
	m := map[engine.Kind]bool{}
	for _, k := range kinds {
		m[k] = true
	}
	return m
}

func listedTools(t *testing.T, cs *sdk.ClientSession) []*sdk.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Tools
}

func toolByName(t *testing.T, tools []*sdk.Tool, name string) *sdk.Tool {
	t.Helper()
	for _, tl := range tools {
		if tl.Name == name {
			return tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

// checkFailure reports how res differs from a tool error of kind whose
// structured content validates against tool's output schema and whose
// text holds the error's whole message.
func checkFailure(t *testing.T, tool *sdk.Tool, res *sdk.CallToolResult, kind string) {
	t.Helper()
	if !res.IsError {
		t.Errorf("%s: not a tool error: %s", tool.Name, text(res))
	}
	if res.StructuredContent == nil {
		return // admitted: a tool error needs no structured content
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var instance any
	if err := json.Unmarshal(b, &instance); err != nil {
		t.Fatal(err)
	}
	if _, ok := instance.(map[string]any); !ok {
		// The one shape a client admits without an output schema
		// (the TypeScript SDK's: an object, validated no further).
		t.Errorf("%s: structured content is not a JSON object: %s", tool.Name, b)
	}
	// Without an output schema, any object is admitted.
	if err := validateAgainst(tool.OutputSchema, instance); tool.OutputSchema != nil && err != nil {
		t.Errorf("%s: structured content does not match the output schema: %v\n%s", tool.Name, err, b)
	}
	var sc struct {
		Error *struct {
			Kind    string `json:"kind"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &sc); err != nil || sc.Error == nil {
		t.Errorf("%s: no error in the structured content: %s", tool.Name, b)
		return
	}
	if sc.Error.Kind != kind {
		t.Errorf("%s: error kind %s, want %s: %s", tool.Name, sc.Error.Kind, kind, sc.Error.Message)
	}
	if !strings.Contains(text(res), sc.Error.Message) {
		t.Errorf("%s: the text lacks the error's message %q:\n%s", tool.Name, sc.Error.Message, text(res))
	}
}

// validateAgainst validates instance against schema, as the client
// received it (a JSON value of any shape).
func validateAgainst(schema any, instance any) error {
	b, err := json.Marshal(schema)
	if err != nil {
		return err
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	return rs.Validate(instance)
}
