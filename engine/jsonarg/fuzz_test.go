package jsonarg

import (
	"errors"
	"strings"
	"testing"
)

// FuzzDecode checks, for any input and every wording, that Decode does not
// panic, that a failure is an *Error with something to say, and that a
// success means encoding/json saw exactly one well-formed value.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		``, ` `, `{}`, `null`, `[1]`, `"x"`, `{} {}`, `{"path":`, `{"path" 1}`,
		`{"path":"a","start":1,"stop":2}`, `{"start":"1"}`, `{"start":1.5}`,
		`{"paths":["a",5]}`, `{"grid":[[1],["x"]]}`, `{"counts":{"a":"b"}}`,
		`{"ops":[{"step":5}]}`, `{"ops":[{"zz":1}]}`, `{"emb":"x"}`, `{"when":5}`,
		`{"raw":{"a":[1,{}]}}`, `{"command":"view","view_range":[1,"x"]}`,
		`{"insert_line":1e400}`, `{"Path":"case"}`, "{\"path\":\"\xff\"}",
	} {
		f.Add([]byte(s))
	}
	decoders := []Decoder{{}, {Noun: "argument"}}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, d := range decoders {
			for _, v := range []any{&args{}, &flat{}, &[]int{}, &map[string]flat{}} {
				err := d.Decode(data, v)
				if err == nil {
					continue
				}
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("Decode(%q) = %T %v, want an *Error", data, err, err)
				}
				if strings.TrimSpace(err.Error()) == "" {
					t.Fatalf("Decode(%q) failed with an empty message", data)
				}
				if strings.HasPrefix(err.Error(), "json: ") {
					t.Errorf("Decode(%q) = %q: encoding/json's wording leaked", data, err)
				}
			}
		}
	})
}
