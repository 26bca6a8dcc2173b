package lsp

import (
	"encoding/json"
	"strings"
	"testing"
)

// FuzzProgressEvent feeds $/progress params, one JSON value a line, to an
// instance's record: nothing panics, percentages stay within -1..100, an
// ended piece of work is no longer open, and what is open never says done.
func FuzzProgressEvent(f *testing.F) {
	f.Add(`{"token":"a","value":{"kind":"begin","title":"Loading","percentage":150}}
{"token":"a","value":{"kind":"report","message":"half","percentage":-3}}
{"token":"a","value":{"kind":"end"}}`)
	f.Add(`{"token":1,"value":{"kind":"report"}}
{"token":[1],"value":5}
{"token":"devbroker-1","value":{"kind":"begin","title":"Diagnose files"}}`)
	f.Fuzz(func(t *testing.T, lines string) {
		in := &instance{cfg: &Config{Name: "fuzz"}, progress: map[string]Progress{}}
		for _, line := range strings.Split(lines, "\n") {
			var p progressParams
			if json.Unmarshal([]byte(line), &p) != nil || len(p.Token) == 0 {
				continue
			}
			ev, ok := in.progressEvent(&p)
			if !ok {
				continue
			}
			if ev.Percentage < -1 || ev.Percentage > 100 {
				t.Fatalf("percentage %d from %s", ev.Percentage, line)
			}
			if _, open := in.progress[ev.Token]; open == ev.Done {
				t.Fatalf("event %+v: open %v", ev, open)
			}
		}
		for _, p := range in.openProgress() {
			if p.Done {
				t.Fatalf("open work says done: %+v", p)
			}
		}
		_, _ = in.indexing()
	})
}
