package lsp

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// tsserverNoProject is a tsserver error as typescript-language-server
// 4.4.1 relays it from TypeScript 5.9.
const tsserverNoProject = "<semantic> TypeScript Server Error (5.9.3)\nNo Project.\nError: No Project.\n    at Object.ThrowNoProject (/usr/lib/node_modules/typescript/lib/typescript.js:186170:11)\n    at IpcIOSession.getProjects (typescript.js:195722:23)"

func TestTSError(t *testing.T) {
	if got := tsError(tsserverNoProject); got != "<semantic> TypeScript Server Error (5.9.3): No Project." {
		t.Errorf("tsError = %q", got)
	}
}

// FuzzTSError shortens any message to one line without its stack frames.
func FuzzTSError(f *testing.F) {
	f.Add(tsserverNoProject)
	f.Add("")
	f.Add("\n\n   at x\nError: y")
	f.Fuzz(func(t *testing.T, s string) {
		got := tsError(s)
		if strings.Contains(got, "\n") || len(got) > len(s)+2*strings.Count(s, "\n") {
			t.Fatalf("tsError(%q) = %q", s, got)
		}
	})
}

// tsserverFileReferences is tsserver's answer to fileReferences as
// typescript-language-server 4.4.1 relays it from TypeScript 5.9.
const tsserverFileReferences = `{"seq":0,"type":"response","command":"fileReferences","request_seq":3,"success":true,"body":{"refs":[{"file":"/r/src/c.ts","start":{"line":1,"offset":20},"end":{"line":1,"offset":23}},{"file":"/r/src/b.ts","start":{"line":1,"offset":20},"end":{"line":1,"offset":23}},{"file":"/r/src/b.ts","start":{"line":4,"offset":20},"end":{"line":4,"offset":23}}],"symbolName":"\"/r/src/a.ts\""}}`

// FuzzTSFileReferences parses any answer without panicking, and lists
// each importing file once, sorted, never the file asked about.
func FuzzTSFileReferences(f *testing.F) {
	f.Add([]byte(tsserverFileReferences), "/r/src/a.ts")
	f.Add([]byte(`{"success":true,"body":{"refs":[{"file":"file:///r/a.ts"},{"file":"/r/a.ts"},{"file":""}]}}`), "/r/a.ts")
	f.Fuzz(func(t *testing.T, data []byte, self string) {
		var r tsFileReferences
		if json.Unmarshal(data, &r) != nil {
			return
		}
		got := r.files(self)
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) || slices.Contains(got, self) || slices.Contains(got, "") {
			t.Fatalf("files(%q) = %q", self, got)
		}
	})
}

func TestTSFileReferences(t *testing.T) {
	var r tsFileReferences
	if err := json.Unmarshal([]byte(tsserverFileReferences), &r); err != nil {
		t.Fatal(err)
	}
	if got := r.files("/r/src/a.ts"); !slices.Equal(got, []string{"/r/src/b.ts", "/r/src/c.ts"}) {
		t.Errorf("files = %q", got)
	}
}
