package editor

import (
	"encoding/json"
	"testing"
)

// FuzzWorkDoneToken: a token is taken out of the params whatever it is;
// one that is accepted is an integer or a string, and goes back out as
// sent.
func FuzzWorkDoneToken(f *testing.F) {
	for _, s := range []string{`"p1"`, `7`, `1.5`, `[1]`, `null`, `{"a":1}`, `-0`, `1e3`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if !json.Valid([]byte(tok)) {
			return
		}
		raw := map[string]json.RawMessage{"workDoneToken": json.RawMessage(tok), "ops": json.RawMessage(`[]`)}
		got, err := workDoneToken("devbroker/plan", raw)
		if _, left := raw["workDoneToken"]; left {
			t.Fatal("the token stayed in the params")
		}
		if err != nil {
			return
		}
		var v any
		_ = json.Unmarshal(got, &v)
		switch v.(type) {
		case string, float64:
		default:
			t.Fatalf("accepted %s", tok)
		}
		if string(got) != tok {
			t.Fatalf("sent back %s for %s", got, tok)
		}
	})
}
