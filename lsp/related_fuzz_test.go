package lsp

import (
	"encoding/json"
	"testing"
)

// TestRelatedLenient: a diagnostic's related information is read entry
// by entry: the entries that can be read are kept, the others left out,
// and the diagnostic itself is read whatever its related information is.
func TestRelatedLenient(t *testing.T) {
	const ok = `{"location":{"uri":"file:///r/a.go","range":{"start":{"line":2,"character":5},"end":{"line":2,"character":6}}},"message":"other declaration of F"}`
	for _, tc := range []struct {
		related string
		want    int
	}{
		{`[` + ok + `]`, 1},
		{`[` + ok + `,{"location":{"uri":7}},{"message":"no place"},{"location":{"uri":"file:///r/b.go","range":{"start":{"line":"x"}}}},` + ok + `]`, 2},
		{`{"not":"a list"}`, 0},
		{`null`, 0},
		{`"text"`, 0},
	} {
		var d Diagnostic
		msg := `{"range":{"start":{"line":0,"character":0},"end":{"line":0,"character":1}},"message":"F redeclared","relatedInformation":` + tc.related + `}`
		if err := json.Unmarshal([]byte(msg), &d); err != nil {
			t.Fatalf("%s: the diagnostic is lost: %v", tc.related, err)
		}
		if d.Message != "F redeclared" || len(d.Related) != tc.want {
			t.Fatalf("%s: %+v, want %d related", tc.related, d, tc.want)
		}
		for _, r := range d.Related {
			if r.Location.URI != "file:///r/a.go" || r.Location.Range.Start != (Position{Line: 2, Character: 5}) || r.Message != "other declaration of F" {
				t.Fatalf("%s: related %+v", tc.related, r)
			}
		}
	}
}

// FuzzRelated feeds arbitrary JSON to a diagnostic's related information:
// nothing panics, the decoder never fails, every entry kept has a URI,
// and what it keeps encodes and decodes to itself (it goes back to the
// server in codeAction).
func FuzzRelated(f *testing.F) {
	f.Add(`[{"location":{"uri":"file:///r/a.go","range":{"start":{"line":2,"character":5},"end":{"line":2,"character":6}}},"message":"other declaration of F"}]`)
	f.Add(`[{"location":{"uri":"file:///r/a.go"}},{"location":null},{}]`)
	f.Add(`[1,"x",null,[]]`)
	f.Add(`{}`)
	f.Fuzz(func(t *testing.T, s string) {
		var r Related
		if err := r.UnmarshalJSON([]byte(s)); err != nil {
			t.Fatalf("the decoder failed: %v", err)
		}
		for _, ri := range r {
			if ri.Location.URI == "" {
				t.Fatalf("an entry without a URI: %+v", ri)
			}
		}
		if len(r) == 0 {
			return
		}
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var again Related
		if err := json.Unmarshal(b, &again); err != nil || len(again) != len(r) {
			t.Fatalf("%s decodes to %+v (%v), want %+v", b, again, err, r)
		}
		for i := range r {
			if again[i] != r[i] {
				t.Fatalf("%s decodes to %+v, want %+v", b, again, r)
			}
		}
	})
}
