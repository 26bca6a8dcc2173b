package jsonarg

// This file defines how Go types are described in JSON terms ("an array
// of integers") and how encoding/json's field paths map back onto them.

import (
	"encoding"
	"encoding/json"
	"iter"
	"reflect"
	"strings"
)

var (
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// custom reports whether values of t decode themselves.
func custom(t reflect.Type) bool {
	p := reflect.PointerTo(t)
	return p.Implements(jsonUnmarshaler) || p.Implements(textUnmarshaler)
}

// describeType says, with an article, what JSON a value of type t needs.
func describeType(t reflect.Type) string {
	t = deref(t)
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return "a string" // as encoding/json decodes it
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		if deref(t.Elem()).Kind() == reflect.Interface {
			return "an array"
		}
		return "an array of " + plural(t.Elem())
	case reflect.Map:
		if deref(t.Elem()).Kind() == reflect.Interface {
			return "an object"
		}
		return "an object of " + plural(t.Elem())
	case reflect.Struct:
		return "an object"
	case reflect.Interface:
		return "a JSON value"
	}
	return "a " + t.String()
}

// plural says what JSON values of type t need, as a plural noun phrase:
// "integers", "arrays of strings".
func plural(t reflect.Type) string {
	d := describeType(t)
	if d == "true or false" {
		return "booleans (true or false)"
	}
	d = strings.TrimPrefix(strings.TrimPrefix(d, "an "), "a ")
	if head, rest, ok := strings.Cut(d, " of "); ok {
		return head + "s of " + rest
	}
	return d + "s"
}

// container names the JSON kind of a field of type t that holds other values.
func container(t reflect.Type) string {
	if deref(t).Kind() == reflect.Map {
		return "an object"
	}
	return "an array"
}

// holds reports whether t is an array or object type whose elements, at
// some depth, are of type elem, rather than being of type elem itself.
func holds(t, elem reflect.Type) bool {
	t, elem = deref(t), deref(elem)
	for t != elem && !custom(t) {
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map:
			t = deref(t.Elem())
			if t == elem {
				return true
			}
		default:
			return false
		}
	}
	return false
}

// resolve follows encoding/json's field path (dot-separated, embedded
// structs named by their Go type) from root, returning the path as JSON
// names and the field's type. It returns field and nil when the path does
// not resolve.
func resolve(root reflect.Type, field string) (string, reflect.Type) {
	t := deref(root)
	if field == "" {
		return "", t
	}
	var path []string
	for seg := range strings.SplitSeq(field, ".") {
		t = structOf(t)
		if t == nil {
			return field, nil
		}
		f, ok := fieldNamed(t, seg)
		if !ok {
			return field, nil
		}
		if !f.Anonymous || jsonName(f) != "" {
			path = append(path, seg)
		}
		t = f.Type
	}
	return strings.Join(path, "."), t
}

// structOf returns the struct type that t is, points to or holds, or nil.
func structOf(t reflect.Type) reflect.Type {
	for {
		t = deref(t)
		switch t.Kind() {
		case reflect.Struct:
			return t
		case reflect.Slice, reflect.Array, reflect.Map:
			t = t.Elem()
		default:
			return nil
		}
	}
}

// fieldNamed finds the field of struct t named seg in encoding/json's path:
// by JSON name, or else an embedded struct by its Go name.
func fieldNamed(t reflect.Type, seg string) (reflect.StructField, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.IsExported() || f.Anonymous {
			if name := jsonName(f); name == seg || (name == "" && !f.Anonymous && f.Name == seg) {
				return f, true
			}
		}
	}
	for i := range t.NumField() {
		if f := t.Field(i); f.Anonymous && jsonName(f) == "" && f.Name == seg {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// jsonName is the name in f's json tag ("" when there is none; "-" when
// the field is skipped).
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	return name
}

// fields yields the fields of struct t that encoding/json decodes into,
// by JSON name (the Go name when the tag gives none), those of embedded
// structs in their place.
func fields(t reflect.Type) iter.Seq2[string, reflect.StructField] {
	return func(yield func(string, reflect.StructField) bool) {
		walkFields(t, yield)
	}
}

func walkFields(t reflect.Type, yield func(string, reflect.StructField) bool) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		name := jsonName(f)
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			if et := deref(f.Type); et.Kind() == reflect.Struct {
				if !walkFields(et, yield) {
					return false
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if !yield(name, f) {
			return false
		}
	}
	return true
}
