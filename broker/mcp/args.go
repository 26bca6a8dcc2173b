package mcp

// This file defines how a tool's parameters become its input schema and
// how its arguments are decoded: strictly, with messages a model can act
// on (an unknown parameter lists the valid ones; a wrong type names the
// parameter and the type it needs).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// schemaFor infers the input or output schema of T from its json and
// jsonschema tags.
func schemaFor[T any]() *jsonschema.Schema {
	s, err := jsonschema.For[T](nil)
	if err != nil {
		panic(fmt.Sprintf("schema of %T: %v", *new(T), err)) // a bug in a parameter struct
	}
	dropNull(s)
	return s
}

// resultOrFailure is the output schema of a tool that answers a T, or on
// failure a wire.Failure ({"error": {kind, message, retryable}}) with
// isError: T's properties, none of them required (a failure has none),
// beside error, the failure's. Both shapes validate against it: clients
// validate a tool error's structured content against the output schema
// too (the TypeScript SDK's does, and shows its schema error in place of
// the message when that fails). dev_plan and the step tools need no such
// schema: their failure is a DevResult, with its error.
func resultOrFailure[T any]() *jsonschema.Schema {
	s := schemaFor[T]()
	if _, clash := s.Properties["error"]; clash {
		panic(fmt.Sprintf("%T has a property error, which the failure's would hide", *new(T)))
	}
	e := schemaFor[wire.Failure]().Properties["error"]
	e.Description = "only on failure (isError), and then alone: " + e.Description
	s.Properties["error"] = e
	s.PropertyOrder = append(s.PropertyOrder, "error")
	s.Required = nil
	return s
}

// dropNull turns the ["null", T] types that pointers and slices infer into
// plain T: an omitted parameter is how a model leaves one out.
func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		for _, t := range s.Types {
			if t != "null" {
				s.Type, s.Types = t, nil
			}
		}
	}
	for _, p := range s.Properties {
		dropNull(p)
	}
	dropNull(s.Items)
}

// argsJSON decodes a tool's arguments once decodeArgs has checked their
// names against the schema: what it still catches is a value of the wrong
// type, which it names.
var argsJSON = jsonarg.Decoder{Noun: "parameter"}

// testHookDecodeArgs, set by the tests before any server runs, is called
// by every decodeArgs; nil otherwise.
var testHookDecodeArgs func()

// decodeArgs decodes a tool's arguments into v, checking them against
// schema: an object, no unknown parameter, every required one present,
// enums respected, and Go types matching.
func decodeArgs(raw json.RawMessage, schema *jsonschema.Schema, v any) error {
	if testHookDecodeArgs != nil {
		testHookDecodeArgs()
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		raw = []byte("{}")
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		return fault.New(fault.BadArgument, "the arguments must be a JSON object of named parameters; the parameters are: %s", paramList(schema))
	}
	var unknown []string
	for name := range fields {
		if _, ok := schema.Properties[name]; !ok {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return fault.New(fault.BadArgument, "unknown parameter %s; the parameters are: %s", quoteAll(unknown), paramList(schema))
	}
	for _, name := range schema.Required {
		if _, ok := fields[name]; !ok {
			return fault.New(fault.BadArgument, "missing required parameter %q; the parameters are: %s", name, paramList(schema))
		}
	}
	if err := argsJSON.Decode(raw, v); err != nil {
		return fault.Wrap(fault.BadArgument, err, "bad arguments")
	}
	for name, p := range schema.Properties {
		if len(p.Enum) == 0 {
			continue
		}
		f, ok := fields[name]
		if !ok {
			continue
		}
		var val any
		_ = json.Unmarshal(f, &val)
		if !slices.ContainsFunc(p.Enum, func(e any) bool { return reflect.DeepEqual(e, val) }) {
			return fault.New(fault.BadArgument, "%s must be one of %s, got %s", name, enumList(p.Enum), f)
		}
	}
	return nil
}

func paramList(s *jsonschema.Schema) string {
	names := slices.Clone(s.PropertyOrder)
	if len(names) == 0 {
		for n := range s.Properties {
			names = append(names, n)
		}
		slices.Sort(names)
	}
	if len(names) == 0 {
		return "(none)"
	}
	for i, n := range names {
		if slices.Contains(s.Required, n) {
			names[i] = n + " (required)"
		}
	}
	return strings.Join(names, ", ")
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

func enumList(vals []any) string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = fmt.Sprint(v)
	}
	return strings.Join(out, " | ")
}

// setEnum sets the allowed values of a string property.
func setEnum(s *jsonschema.Schema, prop string, vals []string) {
	p := s.Properties[prop]
	if p == nil {
		panic("no property " + prop)
	}
	p.Enum = make([]any, len(vals))
	for i, v := range vals {
		p.Enum[i] = v
	}
}
