package mcp

// Every argument is described once, by the engine (a step's typed
// arguments, engine/editfile's parameters, the plan): these tests fail
// when a tool's input schema, as a client lists it, and that description
// disagree, when a tool refuses arguments other than as the engine's
// front end does, and when edit_file takes a parameter for a command its
// schema does not say takes it (or refuses one it says it takes).

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/editfile"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// described returns the engine's description of the arguments of the
// tool name: for a step tool, the step's called on its own; for dev_plan,
// the plan's, with the steps available (availableSteps) as its ops' step
// enum and an op's args an object. ok is false for a tool with none.
func described(name string, availableSteps []string) (args []jsonarg.Arg, ok bool) {
	if st, step := engine.LookupStep(engine.StepName(name)); step {
		return st.CallSpec().Args, true
	}
	switch name {
	case "edit_file":
		return editfile.ParamsSpec().Args, true
	case "read_file":
		return editfile.ReadFileSpec().Args, true
	case "write_file":
		return editfile.WriteFileSpec().Args, true
	case "discard":
		return jsonarg.For[DiscardParams]().Args, true
	case "probe":
		return jsonarg.For[ProbeParams]().Args, true
	case "dev_plan":
		// What the schema adds to the plan's description depends on
		// the root: the steps available now.
		args = copyArgs(jsonarg.For[engine.PlanJSON]().Args)
		op := argNamed(args, "ops").Items
		argNamed(op.Fields, "step").Enum = availableSteps
		argNamed(op.Fields, "args").Type = "object"
		return args, true
	}
	return nil, false
}

func argNamed(args []jsonarg.Arg, name string) *jsonarg.Arg {
	for i := range args {
		if args[i].Name == name {
			return &args[i]
		}
	}
	panic("no argument " + name)
}

func copyArgs(args []jsonarg.Arg) []jsonarg.Arg {
	out := slices.Clone(args)
	for i := range out {
		out[i].Fields = copyArgs(out[i].Fields)
		if out[i].Items != nil {
			items := *out[i].Items
			items.Fields = copyArgs(items.Fields)
			out[i].Items = &items
		}
	}
	return out
}

// TestInputSchemasAreTheEnginesDescription compares every tool's input
// schema, as the Go SDK's client lists it, with the engine's description
// of its arguments: the same properties, each with the engine's type,
// description (headed by the edit_file commands that take it), enum and
// length, in arrays and nested objects too; the same required ones; no
// other property admitted.
func TestInputSchemasAreTheEnginesDescription(t *testing.T) {
	tools, _ := listTools(t, allKinds()...)
	if len(tools) != len(ToolNames()) {
		t.Fatalf("%d tools listed, want all %d", len(tools), len(ToolNames()))
	}
	steps := engine.AvailableSteps(&fakeDrivers{has: kindSet(allKinds())})
	for _, tl := range tools {
		args, ok := described(tl.Name, steps)
		if !ok {
			t.Errorf("%s: no description of its arguments to compare its schema with", tl.Name)
			continue
		}
		var got map[string]any
		b, _ := json.Marshal(tl.InputSchema)
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		compareObject(t, tl.Name, got, args)
	}
}

// compareObject reports how the object schema got, at where, differs
// from args.
func compareObject(t *testing.T, where string, got map[string]any, args []jsonarg.Arg) {
	t.Helper()
	if got["type"] != "object" || got["additionalProperties"] != false {
		t.Errorf("%s: type %v, additionalProperties %v; want an object that admits no other property", where, got["type"], got["additionalProperties"])
	}
	props, _ := got["properties"].(map[string]any)
	var names, required []string
	for _, a := range args {
		names = append(names, a.Name)
		if a.Required {
			required = append(required, a.Name)
		}
	}
	var listed []string
	for name := range props {
		listed = append(listed, name)
	}
	slices.Sort(listed)
	if sorted := slices.Sorted(slices.Values(names)); !slices.Equal(listed, sorted) {
		t.Errorf("%s: the schema's properties are %v, the engine's arguments %v", where, listed, sorted)
	}
	var gotRequired []string
	for _, r := range asList(got["required"]) {
		gotRequired = append(gotRequired, r.(string))
	}
	if !slices.Equal(gotRequired, required) {
		t.Errorf("%s: the schema requires %v, the engine %v", where, gotRequired, required)
	}
	for i := range args {
		a := &args[i]
		p, ok := props[a.Name].(map[string]any)
		if !ok {
			continue
		}
		at := where + "." + a.Name
		if d, _ := p["description"].(string); d != a.Description() {
			t.Errorf("%s: the schema describes it %q, the engine %q", at, d, a.Description())
		}
		compareValue(t, at, p, a)
	}
}

// compareValue reports how the schema p of one argument's values differs
// from a.
func compareValue(t *testing.T, at string, p map[string]any, a *jsonarg.Arg) {
	t.Helper()
	if a.Fields != nil {
		compareObject(t, at, p, a.Fields)
		return
	}
	if typ, _ := p["type"].(string); typ != a.Type {
		t.Errorf("%s: the schema's type is %q, the engine's %q", at, typ, a.Type)
	}
	var enum []string
	for _, e := range asList(p["enum"]) {
		enum = append(enum, fmt.Sprint(e))
	}
	if !slices.Equal(enum, a.Enum) {
		t.Errorf("%s: the schema's enum is %v, the engine's %v", at, enum, a.Enum)
	}
	for _, k := range []string{"minItems", "maxItems"} {
		n, _ := p[k].(float64)
		if int(n) != a.Len {
			t.Errorf("%s: the schema's %s is %v, the engine's length %d", at, k, p[k], a.Len)
		}
	}
	items, _ := p["items"].(map[string]any)
	switch {
	case a.Items == nil && items != nil:
		t.Errorf("%s: the schema has items, the engine's argument is not an array", at)
	case a.Items != nil && items == nil:
		t.Errorf("%s: the schema has no items, the engine's argument is an array", at)
	case a.Items != nil:
		compareValue(t, at+"[]", items, a.Items)
	}
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// The tags the engine's descriptions are read from mean to the engine
// what they mean to the MCP SDK's schema inference (jsonschema.For): the
// same properties, types, required ones and descriptions, for every
// step's arguments and edit_file's siblings' (edit_file's descriptions
// are headed by the commands that take each, so only their names, types
// and required ones are compared).
func TestDescriptionsReadTheTagsAsTheSDKDoes(t *testing.T) {
	types := map[engine.StepName]any{
		engine.StepReadLines: engine.ReadLinesArgs{}, engine.StepEdit: engine.EditArgs{}, engine.StepApplyPatch: engine.ApplyPatchArgs{},
		engine.StepWrite: engine.WriteArgs{}, engine.StepSearch: engine.SearchArgs{}, engine.StepFormat: engine.FormatArgs{},
		engine.StepLint: engine.LintArgs{}, engine.StepCheck: engine.CheckArgs{}, engine.StepDefinition: engine.DefinitionArgs{},
		engine.StepReferences: engine.ReferencesArgs{}, engine.StepHover: engine.HoverArgs{}, engine.StepSymbols: engine.SymbolsArgs{},
		engine.StepRename: engine.RenameArgs{}, engine.StepCodeActions: engine.CodeActionsArgs{},
		engine.StepTest: engine.TestArgs{},
	}
	if len(types) != len(engine.Steps()) {
		t.Fatalf("the test knows %d steps' argument types, the engine has %d steps: add the new one", len(types), len(engine.Steps()))
	}
	type pair struct {
		name     string
		v        any
		spec     *jsonarg.Spec
		describe bool
	}
	var pairs []pair
	for _, st := range engine.Steps() {
		pairs = append(pairs, pair{string(st.Name), types[st.Name], st.Spec(), true})
	}
	pairs = append(pairs,
		pair{"edit_file", editfile.Params{}, editfile.ParamsSpec(), false},
		pair{"read_file", editfile.ReadFileParams{}, editfile.ReadFileSpec(), true},
		pair{"write_file", editfile.WriteFileParams{}, editfile.WriteFileSpec(), true},
		pair{"dev_plan", engine.PlanJSON{}, jsonarg.For[engine.PlanJSON](), true},
	)
	for _, p := range pairs {
		inferred, err := jsonschema.ForType(reflect.TypeOf(p.v), nil)
		if err != nil {
			t.Fatalf("%s: %v", p.name, err)
		}
		dropNull(inferred)
		sameShape(t, p.name, inferred, inputSchema(p.spec), p.describe)
	}
}

// sameShape reports how the object schemas sdk (inferred by the SDK's
// jsonschema) and ours differ: properties, types, required, descriptions
// (when describe), down through arrays and nested objects.
func sameShape(t *testing.T, where string, sdk, ours *jsonschema.Schema, describe bool) {
	t.Helper()
	if !slices.Equal(sdk.PropertyOrder, ours.PropertyOrder) || !slices.Equal(sdk.Required, ours.Required) {
		t.Errorf("%s: the SDK infers properties %v (required %v), the engine describes %v (required %v)", where, sdk.PropertyOrder, sdk.Required, ours.PropertyOrder, ours.Required)
		return
	}
	for _, name := range sdk.PropertyOrder {
		s, o := sdk.Properties[name], ours.Properties[name]
		at := where + "." + name
		if describe && s.Description != o.Description {
			t.Errorf("%s: the SDK reads the description %q, the engine %q", at, s.Description, o.Description)
		}
		for s != nil && o != nil {
			typ := o.Type
			if typ == "" && name == "args" {
				typ = "array" // a json.RawMessage is bytes to the SDK, any JSON value to the engine
				o = nil
			}
			if s.Type != typ {
				t.Errorf("%s: the SDK infers type %q, the engine %q", at, s.Type, typ)
			}
			if o == nil || len(s.Properties) > 0 || len(o.Properties) > 0 {
				if o != nil {
					sameShape(t, at, s, o, describe)
				}
				break
			}
			s, o = s.Items, o.Items
			at += "[]"
		}
	}
}

// Every step tool refuses bad arguments as the engine's front end does,
// word for word as the same arguments in a dev_plan step: an unknown one
// listing those the step takes, a missing required one naming it and
// what it needs, a value of the wrong type naming it.
func TestStepToolsRefuseAsTheEngineDoes(t *testing.T) {
	h := newHarness(t, &fakeDrivers{has: kindSet(allKinds())}, map[string]string{"a.txt": "one\n"})
	cs := h.connect(nil)
	for _, st := range engine.Steps() {
		name := string(st.Name)
		cases := []struct {
			args map[string]any
			want string
		}{{map[string]any{"zz_unknown": 1}, `unknown argument "zz_unknown"; the arguments are: ` + st.CallSpec().List()}}
		if req := st.Spec().Required(); len(req) > 0 {
			a := st.Spec().Arg(req[0])
			cases = append(cases, struct {
				args map[string]any
				want string
			}{map[string]any{}, fmt.Sprintf("%s is required (%s): %s", a.Name, a.Want(), a.Doc)})
		}
		if len(st.Spec().Args) > 0 {
			a := st.Spec().Args[0]
			bad := any("text")
			if a.Type == "string" {
				bad = 5
			}
			cases = append(cases, struct {
				args map[string]any
				want string
			}{map[string]any{a.Name: bad}, a.Name + " must be "})
		}
		for _, c := range cases {
			res := call(t, cs, name, c.args)
			if !res.IsError || !strings.Contains(text(res), c.want) {
				t.Errorf("%s %v: %q, want it to say %q", name, c.args, text(res), c.want)
			}
			if strings.HasPrefix(c.want, "unknown") && name == string(engine.StepCheck) {
				continue // check in a plan takes no paths: its list differs
			}
			plan := call(t, cs, "dev_plan", map[string]any{"ops": []any{map[string]any{"step": name, "args": c.args}}})
			if want := fmt.Sprintf("step 1 (%s): %s", name, c.want); !plan.IsError || !strings.Contains(text(plan), want) {
				t.Errorf("dev_plan with %s %v: %q, want it to say %q", name, c.args, text(plan), want)
			}
		}
	}
	if h.read("a.txt") != "one\n" {
		t.Fatal("a refused call changed the disk")
	}
}

// commandsOf are the edit_file commands a parameter's description says
// take it: those heading it ("view/replace_symbol: ..."), or all.
func commandsOf(description string, commands []string) []string {
	m := regexp.MustCompile(`^([a-z_]+(?:/[a-z_]+)*): `).FindStringSubmatch(description)
	if m == nil {
		return commands
	}
	named := strings.Split(m[1], "/")
	for _, c := range named {
		if !slices.Contains(commands, c) {
			return commands // a description that happens to start so
		}
	}
	return named
}

// Each edit_file command takes exactly the parameters its schema says:
// a call of a command with a parameter whose description does not name
// it is refused with "does not take", through the MCP client; one whose
// description names it is not.
func TestEditFileCommandsTakeWhatTheSchemaSays(t *testing.T) {
	h := newHarness(t, nil, map[string]string{"a.txt": "one\ntwo\n"})
	cs := h.connect(nil)
	tools, _ := listTools(t)
	var schema map[string]any
	b, _ := json.Marshal(toolNamed(tools, "edit_file").InputSchema)
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	props := schema["properties"].(map[string]any)
	var commands []string
	for _, c := range asList(props["command"].(map[string]any)["enum"]) {
		commands = append(commands, c.(string))
	}
	if !slices.Equal(commands, editfile.Commands) {
		t.Fatalf("the schema's commands %v, editfile's %v", commands, editfile.Commands)
	}
	samples := map[string]any{"string": "zz-absent", "integer": 1, "boolean": true, "array": []int{1, 1}}
	abs := filepath.Join(h.root, "a.txt")
	n := 0
	for name, p := range props {
		if name == "command" || name == "file_path" {
			continue
		}
		pm := p.(map[string]any)
		takers := commandsOf(pm["description"].(string), commands)
		for _, c := range commands {
			res := call(t, cs, "edit_file", map[string]any{"command": c, "file_path": abs, name: samples[pm["type"].(string)]})
			refused := strings.Contains(text(res), "does not take "+name)
			if takes := slices.Contains(takers, c); refused == takes {
				t.Errorf("edit_file %s with %s: the schema says it takes it: %v; the call: %q", c, name, takes, text(res))
			}
			n++
		}
	}
	if n < 100 {
		t.Fatalf("only %d calls made: is the schema whole?", n)
	}
	if h.read("a.txt") != "one\ntwo\n" {
		t.Errorf("a.txt changed: %q", h.read("a.txt"))
	}
}
