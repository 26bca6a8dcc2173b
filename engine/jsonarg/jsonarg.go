// Package jsonarg describes and decodes the JSON arguments of a tool or a
// step, strictly, with errors worded for a model.
//
// A [Spec] is the one description of a struct's arguments, read from its
// tags (the json tag's name and omitempty, the jsonschema tag's one-line
// description: the tags the MCP SDK infers a schema from): each
// argument's name, type, whether it is required, its values and length,
// and which calls take it. [Spec.Decode] is the strict front end every
// surface's arguments go through: it refuses an unknown, missing or
// mistyped argument, naming it and saying what it needs.
//
// [Decoder.Decode] accepts exactly one JSON value: it refuses a field the
// target struct does not have and data after the value. Its errors are
// [*Error]s whose message names the field at fault and says what it needs
// ("start must be an integer, got a JSON string"), so that a model can
// correct its call. A [Decoder]'s Noun is what its messages call a field;
// a [Spec]'s front end lists the valid arguments itself.
package jsonarg

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"
)

// Decoder decodes JSON strictly and words its errors in its caller's terms.
// The zero Decoder calls a field a "field" and words a type error
// "x must be an integer, got a JSON string".
type Decoder struct {
	// Noun is what messages call a field, e.g. "argument" or "parameter":
	// `unknown argument "stop"`. Empty means "field".
	Noun string
}

// Error is a decoding error worded for a model.
type Error struct {
	// Field is the JSON path of the field at fault, its names joined by
	// dots ("ops.step"); it is empty for the whole value, for trailing
	// data and for malformed JSON.
	Field string
	// Msg is the whole message.
	Msg string
	// Err is encoding/json's error, if there was one.
	Err error
}

func (e *Error) Error() string { return e.Msg }

func (e *Error) Unwrap() error { return e.Err }

// Decode decodes exactly one JSON value from data into v, a non-nil
// pointer. It refuses unknown object fields (at any depth) and anything
// but white space after the value. Every error it returns is an [*Error]
// with a non-empty message; v may be partly filled when it fails.
func (d Decoder) Decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return d.describe(err, reflect.TypeOf(v), data)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &Error{Msg: "unexpected data after the JSON value"}
	}
	return nil
}

// describe rewords err, returned by decoding into a value of type root.
func (d Decoder) describe(err error, root reflect.Type, data []byte) *Error {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		return d.typeError(te, root)
	case errors.As(err, &se):
		return &Error{Msg: fmt.Sprintf("not valid JSON: %s (at byte %d)", se, se.Offset), Err: err}
	case errors.Is(err, io.EOF):
		return &Error{Msg: "no JSON value: the input is empty", Err: err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &Error{Msg: "not valid JSON: the input ends inside the value", Err: err}
	}
	msg := err.Error()
	if quoted, ok := strings.CutPrefix(msg, "json: unknown field "); ok {
		name, uerr := strconv.Unquote(quoted)
		if uerr != nil {
			name = quoted
		}
		msg = fmt.Sprintf("unknown %s %s", d.noun(), quoted)
		if where := locate(data, root); where != "" {
			msg += " in " + where
		}
		return &Error{Field: name, Msg: msg, Err: err}
	}
	// An error from a type's own UnmarshalJSON, or a misuse of Decode
	// (v not a pointer): nothing to reword.
	if msg = strings.TrimPrefix(msg, "json: "); msg == "" {
		msg = "not valid JSON"
	}
	return &Error{Msg: msg, Err: err}
}

// typeError words a value of the wrong JSON type.
func (d Decoder) typeError(te *json.UnmarshalTypeError, root reflect.Type) *Error {
	path, ft := resolve(root, te.Field)
	got := "a JSON " + te.Value
	var want string
	if ft != nil && holds(ft, te.Type) {
		// The wrong value is inside the field's array or object: say what
		// the field is, not only what one element should be.
		want = describeType(ft)
		got = container(ft) + " holding a JSON " + te.Value
	} else {
		want = describeType(te.Type)
	}
	subject := path
	if subject == "" {
		subject = "the value"
	}
	return &Error{Field: path, Msg: fmt.Sprintf("%s must be %s, got %s", subject, want, got), Err: te}
}

func (d Decoder) noun() string {
	if d.Noun == "" {
		return "field"
	}
	return d.Noun
}
