package editor_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// The published diagnostics carry, in LSP's data field, whether the
// change introduced them (docs/editor-protocol.md): over an unsaved
// buffer, {"introduced": true} for a finding the disk's content does not
// have and false for one it has, in the changed file and in a file
// nobody changed; over content that did not change, no data (the answer
// was not compared). Under fail_on "introduced", the pre-existing
// findings, which the result lists apart, are pushed all the same.
func TestPublishedDiagnosticsCarryIntroduced(t *testing.T) {
	root := testtree.New(t, map[string]string{"a.txt": "BAD old\nfine\n", "b.txt": "BAD there\n"})
	c := start(t, root, true)
	c.init(map[string]any{"publishDiagnostics": true})
	plan := func(failOn string) planResult {
		t.Helper()
		p := map[string]any{"paths": []string{"a.txt", "b.txt"}, "ops": []any{map[string]any{"step": "check"}}}
		if failOn != "" {
			p["fail_on"] = failOn
		}
		var r planResult
		c.must("devbroker/plan", p, &r)
		return r
	}
	// pushed waits for the n-th to (n+1)-th pushes (one per file) and
	// lists their findings as "FILE:LINE introduced" ("-" without data).
	seen := 0
	pushed := func() []string {
		t.Helper()
		notes := c.notesOf("textDocument/publishDiagnostics", func(n []note) bool { return len(n) >= seen+2 })
		var out []string
		for _, n := range notes[seen : seen+2] {
			var p struct {
				URI         string `json:"uri"`
				Diagnostics []struct {
					Range struct {
						Start struct{ Line int } `json:"start"`
					} `json:"range"`
					Data map[string]any `json:"data"`
				} `json:"diagnostics"`
			}
			if err := json.Unmarshal(n.Params, &p); err != nil {
				t.Fatal(err)
			}
			for _, d := range p.Diagnostics {
				mark := "-"
				if v, ok := d.Data["introduced"]; ok {
					mark = fmt.Sprint(v)
				} else if d.Data != nil {
					t.Errorf("data %v without introduced", d.Data)
				}
				out = append(out, fmt.Sprintf("%s:%d %s", c.pathOfURI(p.URI), d.Range.Start.Line+1, mark))
			}
		}
		seen += 2
		slices.Sort(out)
		return out
	}

	if r := plan(""); r.OK || len(r.Diagnostics) != 2 || r.Baseline != nil {
		t.Fatalf("check over unchanged content: %+v", r.DevResult)
	}
	if got, want := pushed(), []string{"a.txt:1 -", "b.txt:1 -"}; !slices.Equal(got, want) {
		t.Errorf("over unchanged content, pushed %v, want %v: nothing compared", got, want)
	}

	c.open("a.txt", "BAD old\nfine\nBAD new\n", 2)
	r := plan("")
	if r.OK || r.Baseline == nil || r.Baseline.Introduced != 1 || r.Baseline.PreExisting != 2 {
		t.Fatalf("check over the buffer: %+v", r.DevResult)
	}
	want := []string{"a.txt:1 false", "a.txt:3 true", "b.txt:1 false"}
	if got := pushed(); !slices.Equal(got, want) {
		t.Errorf("over the buffer, pushed %v, want %v", got, want)
	}

	// fail_on introduced: the introduced error still fails the plan; the
	// pre-existing ones are apart in the result, and pushed.
	r = plan("introduced")
	if r.OK || len(r.Diagnostics) != 1 || len(r.PreExisting) != 2 || r.Error == nil || !strings.Contains(r.Error.Message, "1 introduced by the change") {
		t.Fatalf("fail_on introduced: %+v", r.DevResult)
	}
	if got := pushed(); !slices.Equal(got, want) {
		t.Errorf("fail_on introduced, pushed %v, want %v", got, want)
	}

	// The buffer's new error fixed: ok under fail_on introduced, the old
	// findings still pushed as pre-existing.
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": c.uri("a.txt"), "version": 3}, "contentChanges": []any{map[string]any{"text": "BAD old\nfine\nnew\n"}}})
	r = plan("introduced")
	if !r.OK || len(r.Diagnostics) != 0 || len(r.PreExisting) != 2 {
		t.Fatalf("fail_on introduced, nothing introduced: %+v", r.DevResult)
	}
	if got, want := pushed(), []string{"a.txt:1 false", "b.txt:1 false"}; !slices.Equal(got, want) {
		t.Errorf("nothing introduced, pushed %v, want %v", got, want)
	}
}
