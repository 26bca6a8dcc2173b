package mcp

// This file defines how a tool's arguments become its input schema and
// how they are decoded: both from the one description of the arguments
// (a jsonarg.Spec: the engine's step's, editfile's, or a tool's own), and
// strictly, through that spec's front end, with messages a model can act
// on (an unknown argument lists the valid ones; a wrong type or a missing
// argument names it and what it needs).

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/devbroker/devbroker/broker/wire"
	"github.com/devbroker/devbroker/engine"
	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/jsonarg"
)

// schemaFor infers the output schema of T from its json and jsonschema
// tags.
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

// inputSchema is the input schema of a tool whose arguments spec
// describes: made from the one description of the engine's step, of
// edit_file and its siblings, or of a tool's own parameters, never
// written by hand. Each property has its type, its description, its enum
// and its length; the object admits no other property.
func inputSchema(spec *jsonarg.Spec) *jsonschema.Schema { return objectSchema(spec.Args) }

func objectSchema(args []jsonarg.Arg) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	for i := range args {
		a := &args[i]
		if s.Properties == nil {
			s.Properties = map[string]*jsonschema.Schema{}
		}
		p := argSchema(a)
		p.Description = a.Description()
		s.Properties[a.Name] = p
		s.PropertyOrder = append(s.PropertyOrder, a.Name)
		if a.Required {
			s.Required = append(s.Required, a.Name)
		}
	}
	return s
}

// argSchema is the schema of one argument's values.
func argSchema(a *jsonarg.Arg) *jsonschema.Schema {
	if a.Fields != nil {
		return objectSchema(a.Fields)
	}
	p := &jsonschema.Schema{Type: a.Type}
	for _, v := range a.Enum {
		p.Enum = append(p.Enum, v)
	}
	if a.Items != nil {
		p.Items = argSchema(a.Items)
	}
	if a.Len > 0 {
		p.MinItems, p.MaxItems = ptr(a.Len), ptr(a.Len)
	}
	return p
}

// testHookDecodeArgs, set by the tests before any server runs, is called
// by every decodeArgs and decodeCall; nil otherwise.
var testHookDecodeArgs func()

// decodeArgs decodes a tool's arguments into v through the front end of
// spec, the one every surface's arguments go through: its error, a
// bad_argument fault, names the argument and says what it needs.
func decodeArgs(raw json.RawMessage, spec *jsonarg.Spec, v any) error {
	if testHookDecodeArgs != nil {
		testHookDecodeArgs()
	}
	if err := spec.Decode(raw, v); err != nil {
		return fault.Wrap(fault.BadArgument, err, "")
	}
	return nil
}

// decodeCall decodes the arguments of a step called on its own by its
// tool, through the step's front end: the step's arguments and the files
// to read in first.
func decodeCall(st *engine.Step, raw json.RawMessage) (engine.Args, []string, error) {
	if testHookDecodeArgs != nil {
		testHookDecodeArgs()
	}
	return st.DecodeCall(raw)
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
