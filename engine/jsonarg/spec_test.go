package jsonarg

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
)

type pair struct {
	Find    *string `json:"find" jsonschema:"what to find"`
	Replace *string `json:"replace" jsonschema:"what replaces it"`
}

type base struct {
	Path string `json:"path" jsonschema:"the file"`
}

type stepArgs struct {
	base
	Start  *int            `json:"start" jsonschema:"the first line"`
	End    *int            `json:"end,omitempty" jsonschema:"the last line"`
	Mode   string          `json:"mode,omitempty" jsonschema:"how"`
	Fix    bool            `json:"fix,omitzero"`
	Paths  []string        `json:"paths,omitempty" jsonschema:"where"`
	Pairs  []pair          `json:"pairs,omitempty" jsonschema:"the pairs"`
	Range  []int           `json:"range,omitempty" jsonschema:"[start, end]"`
	Raw    json.RawMessage `json:"raw,omitempty"`
	Ratio  float64         `json:"ratio,omitempty"`
	Inner  *pair           `json:"inner,omitempty"`
	Counts map[string]int  `json:"counts,omitempty"`
	Skip   string          `json:"-"`
	//lint:ignore U1000 an unexported field is not an argument
	hidden int
}

func newSpec() *Spec {
	return For[stepArgs]().WithEnum("mode", "fast", "slow").WithLen("range", 2).WithHint("force", "force is only for write")
}

// The spec reads what the tags say: names in field order (an embedded
// struct's in its place), JSON types, required without omitempty or
// omitzero, descriptions, nested objects and array elements.
func TestSpecReadsTheTags(t *testing.T) {
	s := newSpec()
	if got, want := s.Names(), []string{"path", "start", "end", "mode", "fix", "paths", "pairs", "range", "raw", "ratio", "inner", "counts"}; !slices.Equal(got, want) {
		t.Fatalf("names %v, want %v", got, want)
	}
	if got := s.Required(); !slices.Equal(got, []string{"path", "start"}) {
		t.Errorf("required %v", got)
	}
	types := map[string]string{}
	for _, a := range s.Args {
		types[a.Name] = a.Type
	}
	want := map[string]string{"path": "string", "start": "integer", "end": "integer", "mode": "string", "fix": "boolean",
		"paths": "array", "pairs": "array", "range": "array", "raw": "", "ratio": "number", "inner": "object", "counts": "object"}
	if !reflect.DeepEqual(types, want) {
		t.Errorf("types %v, want %v", types, want)
	}
	if a := s.Arg("path"); a.Doc != "the file" {
		t.Errorf("path's doc %q", a.Doc)
	}
	if a := s.Arg("pairs"); a.Items == nil || a.Items.Type != "object" || len(a.Items.Fields) != 2 || !a.Items.Fields[1].Required || a.Items.Fields[1].Doc != "what replaces it" {
		t.Errorf("pairs %+v", a)
	}
	if a := s.Arg("mode"); !slices.Equal(a.Enum, []string{"fast", "slow"}) || a.Want() != "one of fast, slow" {
		t.Errorf("mode %+v", a)
	}
	if a := s.Arg("paths"); a.Want() != "an array of strings" {
		t.Errorf("paths wants %q", a.Want())
	}
	if s.Arg("Skip") != nil || s.Arg("hidden") != nil || s.Arg("base") != nil {
		t.Error("a skipped, unexported or embedded field is an argument")
	}
	if got := s.List(); got != "path (required), start (required), end, mode, fix, paths, pairs, range, raw, ratio, inner, counts" {
		t.Errorf("List() = %q", got)
	}
}

// The front end refuses each kind of bad argument with a message that
// names the argument and says what it needs, and accepts good ones.
func TestSpecDecode(t *testing.T) {
	s := newSpec()
	for _, tc := range []struct {
		name, json string
		want       string // the whole message; "" for success
		field      string
	}{
		{"ok", `{"path":"a","start":1,"mode":"fast","range":[1,2],"pairs":[{"find":"x","replace":""}]}`, "", ""},
		{"empty is {}", ``, "path is required (a string): the file", "path"},
		{"null is {}", `null`, "path is required (a string): the file", "path"},
		{"not an object", `[1]`, "the arguments must be a JSON object, got a JSON array; the arguments are: path (required), start (required), end, mode, fix, paths, pairs, range, raw, ratio, inner, counts", ""},
		{"a string", `"a"`, "the arguments must be a JSON object, got a JSON string; the arguments are: path (required), start (required), end, mode, fix, paths, pairs, range, raw, ratio, inner, counts", ""},
		{"syntax", `{"path" 1}`, "not valid JSON: invalid character '1' after object key (at byte 9)", ""},
		{"trailing", `{"path":"a","start":1} {}`, "unexpected data after the JSON value", ""},
		{"unknown", `{"path":"a","start":1,"stop":2}`, `unknown argument "stop"; the arguments are: path (required), start (required), end, mode, fix, paths, pairs, range, raw, ratio, inner, counts`, "stop"},
		{"unknowns", `{"b":1,"a":2}`, `unknown arguments "a", "b"; the arguments are: path (required), start (required), end, mode, fix, paths, pairs, range, raw, ratio, inner, counts`, "a"},
		{"hint", `{"path":"a","start":1,"force":true}`, `unknown argument "force": force is only for write; the arguments are: path (required), start (required), end, mode, fix, paths, pairs, range, raw, ratio, inner, counts`, "force"},
		{"case matters", `{"Path":"a","start":1}`, `unknown argument "Path"; the arguments are: path (required), start (required), end, mode, fix, paths, pairs, range, raw, ratio, inner, counts`, "Path"},
		{"unknown nested", `{"path":"a","start":1,"pairs":[{"find":"x","replace":"y"},{"find":"x","with":"y"}]}`, `unknown argument "with" in pairs[1]; its arguments are: find (required), replace (required)`, "with"},
		{"unknown in an object", `{"path":"a","start":1,"inner":{"x":1}}`, `unknown argument "x" in inner; its arguments are: find (required), replace (required)`, "x"},
		{"wrong type", `{"path":"a","start":"1"}`, "start must be an integer, got a JSON string", "start"},
		{"wrong element", `{"path":"a","start":1,"paths":["a",1]}`, "paths must be an array of strings, got an array holding a JSON number", "paths"},
		{"missing", `{"path":"a"}`, "start is required (an integer): the first line", "start"},
		{"null is missing", `{"path":"a","start":null}`, "start is required (an integer): the first line", "start"},
		{"empty string is missing", `{"path":"","start":1}`, "path is required (a string): the file", "path"},
		{"missing nested", `{"path":"a","start":1,"pairs":[{"find":"x"}]}`, "pairs[0].replace is required (a string): what replaces it", "pairs[0].replace"},
		{"enum", `{"path":"a","start":1,"mode":"slowest"}`, `mode must be one of fast, slow, got "slowest"`, "mode"},
		{"length", `{"path":"a","start":1,"range":[1,2,3]}`, "range must be an array of 2 integers, got 3: [start, end]", "range"},
		{"any JSON", `{"path":"a","start":1,"raw":[{"x":1}]}`, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var v stepArgs
			err := s.Decode([]byte(tc.json), &v)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Decode(%s) = %v", tc.json, err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Decode(%s) = %T %v, want an *Error", tc.json, err, err)
			}
			if e.Msg != tc.want || e.Field != tc.field {
				t.Errorf("Decode(%s):\n got %q (field %q)\nwant %q (field %q)", tc.json, e.Msg, e.Field, tc.want, tc.field)
			}
		})
	}
}

type call struct {
	Command string  `json:"command" jsonschema:"what to do"`
	File    string  `json:"file" jsonschema:"the file"`
	Range   []int   `json:"range,omitempty" jsonschema:"lines"`
	Old     *string `json:"old,omitempty" jsonschema:"old text"`
	New     *string `json:"new,omitempty" jsonschema:"new text"`
	DryRun  bool    `json:"dry_run,omitempty" jsonschema:"preview"`
}

func callSpec() *Spec {
	return For[call]().Select("command",
		Variant{Value: "view", Takes: []string{"range"}},
		Variant{Value: "replace", Takes: []string{"old", "new", "dry_run"}},
		Variant{Value: "insert", Takes: []string{"new", "dry_run"}},
	)
}

// A selector says which arguments a call takes: its values become its
// enum, an argument's description is headed by the values that take it
// (none when all do), and a call is refused an argument its value does
// not take, given as JSON (whatever its value) or set in Go.
func TestSpecSelect(t *testing.T) {
	s := callSpec()
	if s.Selector() != "command" || !slices.Equal(s.Arg("command").Enum, []string{"view", "replace", "insert"}) {
		t.Fatalf("selector %q, enum %v", s.Selector(), s.Arg("command").Enum)
	}
	for name, want := range map[string]string{"range": "view: lines", "new": "replace/insert: new text", "dry_run": "replace/insert: preview", "file": "the file", "command": "what to do"} {
		if got := s.Arg(name).Description(); got != want {
			t.Errorf("%s's description %q, want %q", name, got, want)
		}
	}
	if got := s.Takes("insert"); !slices.Equal(got, []string{"command", "file", "new", "dry_run"}) {
		t.Errorf("Takes(insert) = %v", got)
	}
	if s.Takes("nope") != nil {
		t.Error("Takes(nope) is not nil")
	}
	for _, tc := range []struct{ json, want string }{
		{`{"command":"view","file":"f","range":[1,2]}`, ""},
		{`{"command":"view","file":"f","dry_run":false}`, "view does not take dry_run; view takes: command (required), file (required), range"},
		{`{"command":"insert","file":"f","old":"x","range":[1]}`, "insert does not take old, range; insert takes: command (required), file (required), new, dry_run"},
		{`{"command":"drop","file":"f"}`, `command must be one of view, replace, insert, got "drop"`},
		{`{"file":"f","old":"x"}`, "command is required (one of view, replace, insert): what to do"},
	} {
		var v call
		err := s.Decode([]byte(tc.json), &v)
		if got := errText(err); got != tc.want {
			t.Errorf("Decode(%s):\n got %q\nwant %q", tc.json, got, tc.want)
		}
	}
	old := "x"
	for _, tc := range []struct {
		v    call
		want string
	}{
		{call{Command: "replace", File: "f", Old: &old, DryRun: true}, ""},
		{call{Command: "view", File: "f", DryRun: true}, "view does not take dry_run; view takes: command (required), file (required), range"},
		{call{Command: "view"}, "file is required (a string): the file"},
		{call{Command: "x", File: "f", Old: &old}, `command must be one of view, replace, insert, got "x"`},
	} {
		if got := errText(s.Check(&tc.v)); got != tc.want {
			t.Errorf("Check(%+v):\n got %q\nwant %q", tc.v, got, tc.want)
		}
	}
}

// A spec built wrong is a bug where it is built: it panics there.
func TestSpecPanicsOnABadBuild(t *testing.T) {
	for name, build := range map[string]func(){
		"unknown enum argument": func() { For[call]().WithEnum("nope", "a") },
		"hint for an argument":  func() { For[call]().WithHint("file", "a") },
		"unknown variant argument": func() {
			For[call]().Select("command", Variant{Value: "view", Takes: []string{"nope"}})
		},
		"argument no call takes": func() {
			For[call]().Select("command", Variant{Value: "view", Takes: []string{"range"}})
		},
		"not a struct":            func() { For[[]int]() },
		"a field JSON can't hold": func() { For[struct{ C chan int }]() },
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", name)
				}
			}()
			build()
		}()
	}
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// FuzzSpecDecode checks, for any input, that the front end does not panic;
// that a failure is an *Error with something to say; and that a success
// is a JSON object encoding/json decodes strictly, every required argument
// given, every enum and length respected.
func FuzzSpecDecode(f *testing.F) {
	for _, s := range []string{
		``, `null`, `{}`, `[1]`, `"x"`, `{"path":"a","start":1}`, `{"path":"a","start":1,"stop":2}`,
		`{"path":"a","start":1,"pairs":[{"find":"x","replace":"y"},{"zz":1}]}`, `{"path":"a","start":1,"pairs":[null,1]}`,
		`{"path":"a","start":1,"range":[1]}`, `{"path":"a","start":1,"mode":"x"}`, `{"path":"a","start":"1"}`,
		`{"command":"view","file":"f","old":"x"}`, `{"command":5}`, `{"path":"a","start":1} x`, `{"inner":{"find":null}}`,
	} {
		f.Add([]byte(s))
	}
	args, calls := newSpec(), callSpec()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, c := range []struct {
			s *Spec
			v func() any
		}{{args, func() any { return new(stepArgs) }}, {calls, func() any { return new(call) }}} {
			v := c.v()
			err := c.s.Decode(data, v)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || strings.TrimSpace(e.Msg) == "" {
					t.Fatalf("Decode(%q) = %T %v, want an *Error with a message", data, err, err)
				}
				continue
			}
			if err := c.s.Check(v); err != nil {
				t.Fatalf("Decode(%q) succeeded, but Check says %v", data, err)
			}
			if trimmed := strings.TrimSpace(string(data)); trimmed != "" && trimmed != "null" {
				w := c.v()
				if err := (Decoder{}).Decode(data, w); err != nil {
					t.Fatalf("Decode(%q) succeeded, but a strict decode fails: %v", data, err)
				}
			}
		}
	})
}
