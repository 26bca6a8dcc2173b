package jsonarg

import (
	"encoding/json"
	"errors"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"
)

type inner struct {
	Step string `json:"step"`
	N    []int  `json:"n,omitempty"`
}

type Embedded struct {
	Emb int `json:"emb,omitempty"`
}

type args struct {
	Path   string            `json:"path"`
	Start  *int              `json:"start"`
	Paths  []string          `json:"paths,omitempty"`
	Fix    bool              `json:"fix,omitempty"`
	Ratio  float64           `json:"ratio,omitempty"`
	Counts map[string]int    `json:"counts,omitempty"`
	Extra  map[string]any    `json:"extra,omitempty"`
	Ops    []inner           `json:"ops,omitempty"`
	Raw    json.RawMessage   `json:"raw,omitempty"`
	When   time.Time         `json:"when,omitzero"`
	Addr   netip.Addr        `json:"addr,omitzero"`
	Grid   [][]int           `json:"grid,omitempty"`
	Skip   string            `json:"-"`
	NoTag  string            // decoded by its Go name
	Labels map[string]string `json:"labels,omitempty"`
	Embedded
	//lint:ignore U1000 an unexported field is not a parameter
	hidden int
}

// flat is a struct an unknown field can only have been meant for.
type flat struct {
	Command  string  `json:"command"`
	FilePath string  `json:"file_path"`
	Line     *int    `json:"insert_line,omitempty"`
	Range    []int   `json:"view_range,omitempty"`
	Anchor   *string `json:"anchor,omitempty"`
	Embedded
}

func TestDecode(t *testing.T) {
	var (
		plain  = Decoder{}
		arg    = Decoder{Noun: "argument"}
		params = Decoder{Noun: "parameter"}
	)
	for _, tc := range []struct {
		name  string
		d     Decoder
		v     any
		json  string
		want  string // the whole message
		field string
	}{
		{"unknown", arg, &args{}, `{"path":"a","stop":2}`, `unknown argument "stop"`, "stop"},
		{"unexported is unknown", arg, &args{}, `{"hidden":1}`, `unknown argument "hidden"`, "hidden"},
		{"unknown default noun", plain, &args{}, `{"stop":2}`, `unknown field "stop"`, "stop"},
		{"unknown nested", arg, &args{}, `{"ops":[{"stp":"x"}]}`, `unknown argument "stp" in ops[0]`, "stp"},
		{"unknown nested, where", arg, &args{}, `{"ops":[{"step":"a"},{"step":"b","zz":1}],"path":"x"}`, `unknown argument "zz" in ops[1]`, "zz"},
		{"unknown after a skipped value", arg, &args{}, `{"raw":{"zz":[1,{"zz":2}]},"extra":{"zz":1},"ops":[{"zz":1}]}`, `unknown argument "zz" in ops[0]`, "zz"},
		{"unknown in an embedded struct's place", arg, &args{}, `{"EMB":1,"ops":[{"Step":"s","q":1}]}`, `unknown argument "q" in ops[0]`, "q"},
		{"string for int", arg, &args{}, `{"start":"1"}`, "start must be an integer, got a JSON string", "start"},
		{"fraction for int", arg, &args{}, `{"start":1.5}`, "start must be an integer, got a JSON number 1.5", "start"},
		{"number for string", params, &args{}, `{"path":5}`, "path must be a string, got a JSON number", "path"},
		{"string for bool", arg, &args{}, `{"fix":"yes"}`, "fix must be true or false, got a JSON string", "fix"},
		{"string for float", arg, &args{}, `{"ratio":"x"}`, "ratio must be a number, got a JSON string", "ratio"},
		{"string for array", params, &args{}, `{"ops":"nope"}`, "ops must be an array of objects, got a JSON string", "ops"},
		{"bad element", arg, &args{}, `{"paths":["a",5]}`, "paths must be an array of strings, got an array holding a JSON number", "paths"},
		{"bad nested element", arg, &args{}, `{"grid":[[1],["x"]]}`, "grid must be an array of arrays of integers, got an array holding a JSON string", "grid"},
		{"bad map value", arg, &args{}, `{"counts":{"a":"b"}}`, "counts must be an object of integers, got an object holding a JSON string", "counts"},
		{"array for map", arg, &args{}, `{"extra":[1]}`, "extra must be an object, got a JSON array", "extra"},
		{"nested field", arg, &args{}, `{"ops":[{"step":5}]}`, "ops.step must be a string, got a JSON number", "ops.step"},
		{"embedded field", arg, &args{}, `{"emb":"x"}`, "emb must be an integer, got a JSON string", "emb"},
		{"untagged field", arg, &args{}, `{"NoTag":1}`, "NoTag must be a string, got a JSON number", "NoTag"},
		{"text unmarshaler", arg, &args{}, `{"addr":5}`, "addr must be a string, got a JSON number", "addr"},
		{"own error", arg, &args{}, `{"when":5}`, "Time.UnmarshalJSON: input is not a JSON string", ""},
		{"not an object", arg, &args{}, `[1]`, "the value must be an object, got a JSON array", ""},
		{"top-level array element", arg, &[]int{}, `[1,"x"]`, "the value must be an array of integers, got an array holding a JSON string", ""},
		{"trailing value", arg, &args{}, `{} {}`, "unexpected data after the JSON value", ""},
		{"trailing garbage", params, &flat{}, `{"command":"view"} x`, "unexpected data after the JSON value", ""},
		{"trailing close", params, &flat{}, `{"command":"view"} }`, "unexpected data after the JSON value", ""},
		{"empty", arg, &args{}, ``, "no JSON value: the input is empty", ""},
		{"white space", arg, &args{}, " \n\t", "no JSON value: the input is empty", ""},
		{"truncated", arg, &args{}, `{"path":`, "not valid JSON: the input ends inside the value", ""},
		{"syntax", arg, &args{}, `{"path" 1}`, "not valid JSON: invalid character '1' after object key (at byte 9)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.d.Decode([]byte(tc.json), tc.v)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode(%s) = %v, want an *Error", tc.json, err)
			}
			if e.Msg != tc.want || err.Error() != tc.want {
				t.Errorf("Decode(%s) =\n  %q\nwant\n  %q", tc.json, err, tc.want)
			}
			if e.Field != tc.field {
				t.Errorf("Decode(%s): Field = %q, want %q", tc.json, e.Field, tc.field)
			}
		})
	}
}

func TestDecodeAccepts(t *testing.T) {
	var a args
	err := Decoder{}.Decode([]byte(` {"path":"a","start":2,"paths":["x"],"raw":{"any":[1]},"extra":{"k":{"n":1}},"emb":3,"NoTag":"t"}`+"\n"), &a)
	if err != nil {
		t.Fatal(err)
	}
	if a.Path != "a" || *a.Start != 2 || a.Emb != 3 || a.NoTag != "t" || string(a.Raw) != `{"any":[1]}` {
		t.Errorf("decoded %+v", a)
	}
}

// TestErrorChain checks that an error keeps encoding/json's error as its
// cause, for callers that look for it.
func TestErrorChain(t *testing.T) {
	err := Decoder{}.Decode([]byte(`{"start":"x"}`), &args{})
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) || te.Field != "start" {
		t.Errorf("%v does not wrap the *json.UnmarshalTypeError", err)
	}
	// A misuse is reported, not reworded into nonsense.
	err = Decoder{}.Decode([]byte(`{}`), args{})
	var ie *json.InvalidUnmarshalError
	if !errors.As(err, &ie) || strings.HasPrefix(err.Error(), "json: ") || err.Error() == "" {
		t.Errorf("non-pointer: %v", err)
	}
}

func TestDescribeType(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
	}{
		{"", "a string"},
		{uint8(0), "an integer"},
		{new(*int), "an integer"},
		{float32(0), "a number"},
		{false, "true or false"},
		{[]bool{}, "an array of booleans (true or false)"},
		{[]byte{}, "a base64 string"},
		{[][]byte{}, "an array of base64 strings"},
		{[2]string{}, "an array of strings"},
		{[]any{}, "an array"},
		{map[string]any{}, "an object"},
		{map[string][]int{}, "an object of arrays of integers"},
		{[]map[string]int{}, "an array of objects of integers"},
		{struct{}{}, "an object"},
		{json.Number(""), "a string"},
		{time.Time{}, "a string"},
		{netip.Addr{}, "a string"},
		{complex64(0), "a complex64"},
	} {
		if got := describeType(reflect.TypeOf(tc.v)); got != tc.want {
			t.Errorf("describeType(%T) = %q, want %q", tc.v, got, tc.want)
		}
	}
}
