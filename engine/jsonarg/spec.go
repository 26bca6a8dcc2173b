package jsonarg

// This file defines [Spec], the one description of a tool's or a step's
// arguments, read from the tags of the Go struct they decode into, and
// the one strict front end that checks JSON arguments (and typed ones
// made in Go) against it.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Arg describes one argument: its name, its JSON type, whether it is
// required, the values it may take and its one-line description.
type Arg struct {
	// Name is the argument's JSON name.
	Name string
	// Type is its JSON type: "string", "integer", "number", "boolean",
	// "array" or "object"; "" for any JSON value.
	Type string
	// Items describes an array's elements (with no name of their own).
	Items *Arg
	// Fields are the arguments of an object of known fields (a struct).
	Fields []Arg
	// Required reports that the argument must be given: its field's json
	// tag has neither omitempty nor omitzero, as the MCP SDK's schema
	// inference reads it. A required argument that is not a pointer must
	// not be its type's zero value either ("" is no path).
	Required bool
	// Enum lists the values a string argument may take; nil for any.
	Enum []string
	// Len is the number of elements an array must hold; 0 for any.
	Len int
	// Doc is the one-line description: the field's jsonschema tag.
	Doc string
	// Only lists the values of the spec's selector whose calls take the
	// argument (see [Spec.Select]); nil when every call takes it.
	Only []string

	index []int // the field's index in its struct (reflect's FieldByIndex)
}

// Description is the argument's description as a schema gives it: Doc,
// preceded by the selector values whose calls take it ("view/insert: ")
// when not every call does.
func (a *Arg) Description() string {
	if len(a.Only) == 0 {
		return a.Doc
	}
	return strings.Join(a.Only, "/") + ": " + a.Doc
}

// Want says, with an article, what the argument needs: "an integer",
// "an array of strings", "one of view, insert".
func (a *Arg) Want() string {
	if len(a.Enum) > 0 {
		return "one of " + strings.Join(a.Enum, ", ")
	}
	switch a.Type {
	case "string":
		return "a string"
	case "integer":
		return "an integer"
	case "number":
		return "a number"
	case "boolean":
		return "true or false"
	case "object":
		return "an object"
	case "array":
		switch {
		case a.Items == nil || a.Items.Type == "":
			return "an array"
		case len(a.Items.Enum) > 0:
			return "an array of strings, each " + a.Items.Want()
		case a.Items.Type == "boolean":
			return "an array of booleans (true or false)"
		}
		return "an array of " + pluralOf(a.Items.Want())
	}
	return "a JSON value"
}

// pluralOf turns "an integer" into "integers", "an array of strings" into
// "arrays of strings".
func pluralOf(want string) string {
	w := strings.TrimPrefix(strings.TrimPrefix(want, "an "), "a ")
	if head, rest, ok := strings.Cut(w, " of "); ok {
		return head + "s of " + rest
	}
	return w + "s"
}

// Variant is one value of a spec's selector and the optional arguments a
// call with that value takes (see [Spec.Select]).
type Variant struct {
	Value string
	Takes []string
}

// Spec describes the arguments of one struct type: the one description
// from which a tool's input schema, a command's flags and the strict
// decoding of its JSON arguments are made. It is read from the struct's
// tags, those the MCP SDK infers a schema from: the json tag's name (and
// omitempty or omitzero for an optional argument), and the jsonschema tag,
// the one-line description. A Spec is built once, when a package
// initializes, and not changed after.
type Spec struct {
	// Args are the arguments, in the struct's field order (an embedded
	// struct's in its place).
	Args []Arg

	typ      reflect.Type
	sel      string            // the selector argument, "" for none
	variants []Variant         // sel's values
	hints    map[string]string // what to say of an unknown argument, by name
}

// For describes the arguments of the struct type T.
func For[T any]() *Spec { return ForType(reflect.TypeFor[T]()) }

// ForType describes the arguments of the struct type t (or t points to).
// It panics on a type that is not a struct or has a field JSON cannot
// hold: a bug in an argument struct.
func ForType(t reflect.Type) *Spec {
	t = deref(t)
	if t.Kind() != reflect.Struct {
		panic(fmt.Sprintf("jsonarg: %v is not a struct", t))
	}
	return &Spec{Args: structArgs(t, 0), typ: t}
}

var specs sync.Map // reflect.Type -> *Spec, for SpecOf

// SpecOf describes the arguments of v's struct type, once per type.
func SpecOf(v any) *Spec {
	t := deref(reflect.TypeOf(v))
	if s, ok := specs.Load(t); ok {
		return s.(*Spec)
	}
	s, _ := specs.LoadOrStore(t, ForType(t))
	return s.(*Spec)
}

// structArgs describes the fields of struct t, as encoding/json decodes
// them.
func structArgs(t reflect.Type, depth int) []Arg {
	if depth > 8 {
		panic(fmt.Sprintf("jsonarg: %v nests too deep (a recursive type?)", t))
	}
	var out []Arg
	for _, f := range reflect.VisibleFields(t) {
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-" && opts == "":
			continue
		case f.Anonymous && name == "" && deref(f.Type).Kind() == reflect.Struct:
			continue // its fields follow, promoted
		case !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		if i := slices.IndexFunc(out, func(a Arg) bool { return a.Name == name }); i >= 0 {
			out = slices.Delete(out, i, i+1) // the shallower field wins, as in encoding/json
		}
		a := argOf(f.Type, depth)
		a.Name, a.Doc, a.index = name, f.Tag.Get("jsonschema"), f.Index
		a.Required = !hasOpt(opts, "omitempty") && !hasOpt(opts, "omitzero")
		if e := f.Tag.Get("enum"); e != "" && f.Type.Kind() == reflect.String {
			a.Enum = strings.Split(e, ",") // a string's choices, in the struct itself
		}
		out = append(out, a)
	}
	return out
}

func hasOpt(opts, opt string) bool {
	return slices.Contains(strings.Split(opts, ","), opt)
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// argOf describes a value of type t.
func argOf(t reflect.Type, depth int) Arg {
	t = deref(t)
	switch {
	case t == rawMessage || reflect.PointerTo(t).Implements(jsonUnmarshaler):
		return Arg{} // any JSON value
	case reflect.PointerTo(t).Implements(textUnmarshaler):
		return Arg{Type: "string"}
	}
	switch t.Kind() {
	case reflect.String:
		return Arg{Type: "string"}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return Arg{Type: "integer"}
	case reflect.Float32, reflect.Float64:
		return Arg{Type: "number"}
	case reflect.Bool:
		return Arg{Type: "boolean"}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return Arg{Type: "string"} // base64
		}
		items := argOf(t.Elem(), depth+1)
		a := Arg{Type: "array", Items: &items}
		if t.Kind() == reflect.Array {
			a.Len = t.Len()
		}
		return a
	case reflect.Map:
		return Arg{Type: "object"}
	case reflect.Struct:
		return Arg{Type: "object", Fields: structArgs(t, depth+1)}
	case reflect.Interface:
		return Arg{}
	}
	panic(fmt.Sprintf("jsonarg: JSON cannot hold a %v", t))
}

// Arg returns the argument named name, nil when there is none.
func (s *Spec) Arg(name string) *Arg {
	for i := range s.Args {
		if s.Args[i].Name == name {
			return &s.Args[i]
		}
	}
	return nil
}

// Names lists the arguments' names, in order.
func (s *Spec) Names() []string {
	out := make([]string, len(s.Args))
	for i, a := range s.Args {
		out[i] = a.Name
	}
	return out
}

// Required lists the required arguments' names, in order.
func (s *Spec) Required() []string {
	var out []string
	for _, a := range s.Args {
		if a.Required {
			out = append(out, a.Name)
		}
	}
	return out
}

// must returns the argument named name, and panics when there is none: a
// spec is built when its package initializes, so this is a bug there.
func (s *Spec) must(name string) *Arg {
	a := s.Arg(name)
	if a == nil {
		panic(fmt.Sprintf("jsonarg: %v has no argument %q", s.typ, name))
	}
	return a
}

// WithEnum sets the values the string argument name may take, and
// returns s.
func (s *Spec) WithEnum(name string, values ...string) *Spec {
	s.must(name).Enum = slices.Clone(values)
	return s
}

// WithLen makes the array argument name hold exactly n elements, and
// returns s.
func (s *Spec) WithLen(name string, n int) *Spec {
	s.must(name).Len = n
	return s
}

// WithHint makes the refusal of name, an argument the spec does not
// take, say hint too (whose argument it is, what to give instead), and
// returns s.
func (s *Spec) WithHint(name, hint string) *Spec {
	if s.Arg(name) != nil {
		panic(fmt.Sprintf("jsonarg: %v takes %s: no hint for it", s.typ, name))
	}
	if s.hints == nil {
		s.hints = map[string]string{}
	}
	s.hints[name] = hint
	return s
}

// Select makes the string argument sel select which optional arguments a
// call takes: its values are the variants', in order, and a call with a
// value takes the required arguments and the variant's Takes, nothing
// else. It returns s. Every optional argument must be taken by some
// variant.
func (s *Spec) Select(sel string, variants ...Variant) *Spec {
	s.sel = sel
	s.variants = variants
	values := make([]string, len(variants))
	for i, v := range variants {
		values[i] = v.Value
		for _, name := range v.Takes {
			s.must(name)
		}
	}
	s.must(sel).Enum = values
	for i := range s.Args {
		a := &s.Args[i]
		if a.Required || a.Name == sel {
			continue
		}
		a.Only = nil
		for _, v := range variants {
			if slices.Contains(v.Takes, a.Name) {
				a.Only = append(a.Only, v.Value)
			}
		}
		switch len(a.Only) {
		case 0:
			panic(fmt.Sprintf("jsonarg: no %s of %v takes %s", sel, s.typ, a.Name))
		case len(variants):
			a.Only = nil
		}
	}
	return s
}

// Selector is the argument that selects which others a call takes (see
// [Spec.Select]), "" for none.
func (s *Spec) Selector() string { return s.sel }

// Takes lists, in order, the arguments a call whose selector is value
// takes; nil when value is not one of the selector's, or the spec has no
// selector.
func (s *Spec) Takes(value string) []string {
	i := slices.IndexFunc(s.variants, func(v Variant) bool { return v.Value == value })
	if i < 0 {
		return nil
	}
	var out []string
	for _, a := range s.Args {
		if a.Required || a.Name == s.sel || slices.Contains(s.variants[i].Takes, a.Name) {
			out = append(out, a.Name)
		}
	}
	return out
}

// List lists the arguments for a message: "path (required), start
// (required), end".
func (s *Spec) List() string { return listArgs(s.Args, nil) }

// listArgs lists args (only those named in names, when not nil).
func listArgs(args []Arg, names []string) string {
	var out []string
	for _, a := range args {
		if names != nil && !slices.Contains(names, a.Name) {
			continue
		}
		if a.Required {
			out = append(out, a.Name+" (required)")
		} else {
			out = append(out, a.Name)
		}
	}
	if len(out) == 0 {
		return "(none)"
	}
	return strings.Join(out, ", ")
}

// argsJSON decodes arguments once their names are checked: what it still
// finds is a value of the wrong type, which it names.
var argsJSON = Decoder{Noun: "argument"}

// Decode is the strict front end of JSON arguments: it decodes data, a
// JSON object (empty or null stands for {}), into v, a pointer to the
// spec's struct, and refuses, naming the argument and what it needs,
// anything but an object, an unknown argument (at any depth), an argument
// the call's selector value does not take, a value of the wrong type, a
// required argument left out, a value not among its enum and an array of
// the wrong length. Every error is an [*Error]; v may be partly filled
// when it fails.
func (s *Spec) Decode(data []byte, v any) error {
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		data = []byte("{}")
	}
	if !json.Valid(data) {
		if err := argsJSON.Decode(data, v); err != nil {
			return err
		}
		return &Error{Msg: "not valid JSON"}
	}
	if data[0] != '{' {
		return &Error{Msg: fmt.Sprintf("the arguments must be a JSON object, got %s; the arguments are: %s", jsonKind(data[0]), s.List())}
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return &Error{Msg: "not valid JSON: " + strings.TrimPrefix(err.Error(), "json: "), Err: err}
	}
	if err := checkNames(raw, s.Args, "", s.hints); err != nil {
		return err
	}
	if err := s.checkTaken(raw); err != nil {
		return err
	}
	if err := argsJSON.Decode(data, v); err != nil {
		return err
	}
	return s.Check(v)
}

// jsonKind names the kind of JSON value that starts with c.
func jsonKind(c byte) string {
	switch {
	case c == '"':
		return "a JSON string"
	case c == '[':
		return "a JSON array"
	case c == 't' || c == 'f':
		return "a JSON boolean"
	case c == 'n':
		return "null"
	}
	return "a JSON number"
}

// checkNames refuses an argument of raw, the object at where, that args
// do not describe, and does so in the objects args describe inside it;
// hints say more of an unknown top-level argument.
func checkNames(raw map[string]json.RawMessage, args []Arg, where string, hints map[string]string) error {
	var unknown []string
	for k := range raw {
		if !slices.ContainsFunc(args, func(a Arg) bool { return a.Name == k }) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		quoted := make([]string, len(unknown))
		for i, u := range unknown {
			quoted[i] = fmt.Sprintf("%q", u)
		}
		msg := "unknown argument " + quoted[0]
		if len(unknown) > 1 {
			msg = "unknown arguments " + strings.Join(quoted, ", ")
		}
		for _, u := range unknown {
			if h := hints[u]; h != "" {
				msg += ": " + h
			}
		}
		if where == "" {
			msg += "; the arguments are: " + listArgs(args, nil)
		} else {
			msg += " in " + where + "; its arguments are: " + listArgs(args, nil)
		}
		return &Error{Field: unknown[0], Msg: msg}
	}
	for _, a := range args {
		r, ok := raw[a.Name]
		if !ok {
			continue
		}
		at := join(where, a.Name)
		switch {
		case a.Fields != nil:
			var m map[string]json.RawMessage
			if json.Unmarshal(r, &m) == nil && m != nil {
				if err := checkNames(m, a.Fields, at, nil); err != nil {
					return err
				}
			}
		case a.Items != nil && a.Items.Fields != nil:
			var elems []json.RawMessage
			if json.Unmarshal(r, &elems) != nil {
				continue
			}
			for i, e := range elems {
				var m map[string]json.RawMessage
				if json.Unmarshal(e, &m) == nil && m != nil {
					if err := checkNames(m, a.Items.Fields, fmt.Sprintf("%s[%d]", at, i), nil); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

// checkTaken refuses an argument given (whatever its value) that the
// call's selector value does not take.
func (s *Spec) checkTaken(raw map[string]json.RawMessage) error {
	if s.sel == "" {
		return nil
	}
	var value string
	if json.Unmarshal(raw[s.sel], &value) != nil {
		return nil // missing or mistyped: Check says so
	}
	takes := s.Takes(value)
	if takes == nil {
		return nil // not a value: Check says so
	}
	var bad []string
	for k := range raw {
		if !slices.Contains(takes, k) {
			bad = append(bad, k)
		}
	}
	return s.notTaken(value, bad)
}

func (s *Spec) notTaken(value string, bad []string) error {
	if len(bad) == 0 {
		return nil
	}
	slices.Sort(bad)
	return &Error{Field: bad[0], Msg: fmt.Sprintf("%s does not take %s; %s takes: %s", value, strings.Join(bad, ", "), value, listArgs(s.Args, s.Takes(value)))}
}

// Check checks typed arguments, decoded or made in Go, against the
// spec: v is a pointer to the spec's struct. A required argument must be
// given (a pointer not nil, any other field not its zero value), a string
// among its enum, an array of its length; and with a selector, an
// argument the selector's value does not take must be left zero. Every
// error is an [*Error].
func (s *Spec) Check(v any) error {
	rv := reflect.ValueOf(v)
	for rv.Kind() == reflect.Pointer && !rv.IsNil() {
		rv = rv.Elem()
	}
	if rv.Type() != s.typ {
		panic(fmt.Sprintf("jsonarg: %v checked against the spec of %v", reflect.TypeOf(v), s.typ))
	}
	if err := checkValues(rv, s.Args, ""); err != nil {
		return err
	}
	if s.sel == "" {
		return nil
	}
	sv := rv.FieldByIndex(s.must(s.sel).index)
	for sv.Kind() == reflect.Pointer && !sv.IsNil() {
		sv = sv.Elem()
	}
	if sv.Kind() != reflect.String {
		return nil // not given: checkValues said so if it is required
	}
	value := sv.String()
	takes := s.Takes(value)
	if takes == nil {
		return nil
	}
	var bad []string
	for _, a := range s.Args {
		if !slices.Contains(takes, a.Name) && !rv.FieldByIndex(a.index).IsZero() {
			bad = append(bad, a.Name)
		}
	}
	return s.notTaken(value, bad)
}

// checkValues checks the struct value rv, the object at where, against
// args.
func checkValues(rv reflect.Value, args []Arg, where string) error {
	for i := range args {
		a := &args[i]
		at := join(where, a.Name)
		f := rv.FieldByIndex(a.index)
		if f.IsZero() {
			if a.Required {
				return &Error{Field: at, Msg: missing(at, a)}
			}
			continue
		}
		for f.Kind() == reflect.Pointer {
			f = f.Elem()
		}
		if err := checkValue(f, a, at); err != nil {
			return err
		}
	}
	return nil
}

// checkValue checks f, the value of a at where, its enum, length and
// what it holds.
func checkValue(f reflect.Value, a *Arg, at string) error {
	switch {
	case len(a.Enum) > 0 && f.Kind() == reflect.String && !slices.Contains(a.Enum, f.String()):
		return &Error{Field: at, Msg: fmt.Sprintf("%s must be one of %s, got %q", at, strings.Join(a.Enum, ", "), f.String())}
	case a.Len > 0 && (f.Kind() == reflect.Slice || f.Kind() == reflect.Array) && f.Len() != a.Len:
		msg := fmt.Sprintf("%s must be an array of %d %s, got %d", at, a.Len, pluralOf(a.Items.Want()), f.Len())
		if a.Doc != "" {
			msg += ": " + a.Doc
		}
		return &Error{Field: at, Msg: msg}
	case a.Fields != nil && f.Kind() == reflect.Struct:
		return checkValues(f, a.Fields, at)
	case a.Items != nil && (f.Kind() == reflect.Slice || f.Kind() == reflect.Array):
		for i := range f.Len() {
			e := f.Index(i)
			for e.Kind() == reflect.Pointer && !e.IsNil() {
				e = e.Elem()
			}
			if e.Kind() == reflect.Pointer {
				continue // null in an array of pointers: nothing to check in it
			}
			if err := checkValue(e, a.Items, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// missing is the message for the required argument a, at where, left out.
func missing(at string, a *Arg) string {
	msg := fmt.Sprintf("%s is required (%s)", at, a.Want())
	if a.Doc != "" {
		msg += ": " + a.Doc
	}
	return msg
}
