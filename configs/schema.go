package configs

// This file describes the schema by reflection over the Go types, for
// error messages: the keys a table accepts and the type a key wants.

import (
	"reflect"
	"sort"
	"strings"
	"time"
)

// schemaAt returns the Go type that the TOML path parts decode into, and
// whether the schema has that path. Map keys (language and driver names,
// settings keys) match any name.
func schemaAt(parts []string) (reflect.Type, bool) {
	t := reflect.TypeFor[Config]()
	for _, p := range parts {
		t = deref(t)
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByKey(t, p)
			if !ok {
				return nil, false
			}
			t = f.Type
		case reflect.Interface:
			return t, true // settings: anything goes
		default:
			return nil, false
		}
	}
	return t, true
}

// fieldByKey finds the struct field whose toml tag is key.
func fieldByKey(t reflect.Type, key string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if tomlKey(f) == key {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// tomlKey is a field's TOML key: its tag, without options.
func tomlKey(f reflect.StructField) string {
	k, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
	return k
}

// keysOf lists the keys a table of type t accepts, sorted.
func keysOf(t reflect.Type) []string {
	t = deref(t)
	if t.Kind() != reflect.Struct {
		return nil
	}
	var keys []string
	for i := 0; i < t.NumField(); i++ {
		if k := tomlKey(t.Field(i)); k != "" && k != "-" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

var durationType = reflect.TypeFor[Duration]()

// tomlType names what a value of Go type t is written as in TOML.
func tomlType(t reflect.Type) string {
	t = deref(t)
	switch {
	case t == durationType:
		return `a duration string like "30s"`
	case t == reflect.TypeFor[time.Duration]():
		return "a duration"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "an integer"
	case reflect.Slice:
		return "an array of " + plural(tomlType(t.Elem()))
	case reflect.Map, reflect.Struct:
		return "a table"
	}
	return "a value"
}

// plural turns "a string" into "strings", "an integer" into "integers".
func plural(s string) string {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "an "), "a ")
	if strings.HasPrefix(s, "array") {
		return "arrays"
	}
	if s == "true or false" {
		return "booleans"
	}
	return s + "s"
}
