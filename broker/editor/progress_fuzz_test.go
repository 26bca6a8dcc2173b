package editor

import (
	"encoding/json"
	"testing"
)

// FuzzWorkDoneToken: a token that is accepted is an integer or a string,
// and goes back out as sent; null is no token.
func FuzzWorkDoneToken(f *testing.F) {
	for _, s := range []string{`"p1"`, `7`, `1.5`, `[1]`, `null`, `{"a":1}`, `-0`, `1e3`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, tok string) {
		if !json.Valid([]byte(tok)) {
			return
		}
		got, err := workDoneToken("devbroker/plan", json.RawMessage(tok))
		if err != nil || got == nil {
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
