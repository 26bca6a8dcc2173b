package jsonarg

// This file finds where an unknown field is: encoding/json names the
// field, not the object that holds it, and in a plan's
// {"edits": [{"find", "replace", "bogus"}]} the name alone does not say
// which edit.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// locate returns the path (edits[0], ops[2].args) of the object in data
// that holds the first field that type root has no place for, "" when it
// is the top-level object or cannot be told.
func locate(data []byte, root reflect.Type) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	path, found := walk(dec, root, "")
	if !found {
		return ""
	}
	return path
}

// walk reads one value from dec, matched against t (nil: any value), and
// reports the path of the object holding the first unknown field, if the
// value has one. A value it cannot read ends the walk, not found.
func walk(dec *json.Decoder, t reflect.Type, path string) (string, bool) {
	tok, err := dec.Token()
	if err != nil {
		return "", false
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return "", false
	}
	if t != nil {
		t = deref(t)
		if custom(t) || t.Kind() == reflect.Interface {
			t = nil
		}
	}
	switch d {
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i := 0; dec.More(); i++ {
			if p, found := walk(dec, elem, fmt.Sprintf("%s[%d]", path, i)); found {
				return p, true
			}
		}
	case '{':
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return "", false
			}
			key, _ := kt.(string)
			var vt reflect.Type
			switch {
			case t == nil:
			case t.Kind() == reflect.Map:
				vt = t.Elem()
			case t.Kind() == reflect.Struct:
				ft, known := jsonField(t, key)
				if !known {
					return path, true
				}
				vt = ft
			}
			if p, found := walk(dec, vt, join(path, key)); found {
				return p, true
			}
		}
	}
	_, _ = dec.Token() // the closing delimiter
	return "", false
}

// jsonField returns the type of struct t's field that encoding/json
// decodes key into (its fields and those of embedded structs; names
// matched as encoding/json matches them, exactly or else ignoring case).
func jsonField(t reflect.Type, key string) (reflect.Type, bool) {
	var fold reflect.Type
	folded := false
	for name, f := range fields(t) {
		if name == key {
			return f.Type, true
		}
		if !folded && strings.EqualFold(name, key) {
			fold, folded = f.Type, true
		}
	}
	return fold, folded
}

// join appends a key to a path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
