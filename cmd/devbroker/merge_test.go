package main

// A write whose files changed on disk since the session read them, through
// the real binary and the Go SDK's client: changes on other lines are
// merged (Go, Python and TypeScript files, one CRLF), the answer says so,
// and the next check sees the merged content; changes on the same lines,
// or a write with merge false, are conflicts that name the lines.

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/testtree"
)

// mergedResult is the part of a DevResult that says what was merged.
type mergedResult struct {
	OK      bool          `json:"ok"`
	Written []string      `json:"written"`
	Merged  []mergedEntry `json:"merged"`
	Stale   []struct {
		Path      string `json:"path"`
		NotMerged string `json:"not_merged"`
	} `json:"stale"`
	Diagnostics []struct {
		Path     string `json:"path"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
	} `json:"diagnostics"`
	Error *struct {
		Kind    string `json:"kind"`
		Message string `json:"message"`
	} `json:"error"`
}

// mergedEntry is one file of merged.
type mergedEntry struct {
	Path         string `json:"path"`
	BaseRevision string `json:"base_revision"`
	DiskRevision string `json:"disk_revision"`
	Revision     string `json:"revision"`
	Ours         []struct {
		BaseStart int `json:"base_start"`
		BaseEnd   int `json:"base_end"`
		Start     int `json:"start"`
		End       int `json:"end"`
	} `json:"ours"`
	Theirs []struct {
		BaseStart int `json:"base_start"`
		BaseEnd   int `json:"base_end"`
		Start     int `json:"start"`
		End       int `json:"end"`
	} `json:"theirs"`
}

// mergeFiles are a file of each language whose main calls added(), which
// only the change on disk defines: a check that saw only the session's
// change would find it undefined.
var mergeFiles = []struct {
	path, base, find, replace, theirs, merged string
}{
	{
		path: "main.go",
		base: "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n\nfunc other() int { return 1 }\n",
		find: "\tprintln(\"hi\")", replace: "\tprintln(added(), other())",
		theirs: "package main\n\nfunc main() {\n\tprintln(\"hi\")\n}\n\nfunc other() int { return 1 }\n\nfunc added() int { return 2 }\n",
		merged: "package main\n\nfunc main() {\n\tprintln(added(), other())\n}\n\nfunc other() int { return 1 }\n\nfunc added() int { return 2 }\n",
	},
	{
		path: "app.py",
		base: "def main():\r\n    print(\"hi\")\r\n\r\n\r\ndef other():\r\n    return 1\r\n",
		find: "    print(\"hi\")", replace: "    print(added(), other())",
		theirs: "def main():\r\n    print(\"hi\")\r\n\r\n\r\ndef other():\r\n    return 1\r\n\r\n\r\ndef added():\r\n    return 2\r\n",
		merged: "def main():\r\n    print(added(), other())\r\n\r\n\r\ndef other():\r\n    return 1\r\n\r\n\r\ndef added():\r\n    return 2\r\n",
	},
	{
		path: "app.ts",
		base: "export function main(): void {\n  console.log(\"hi\");\n}\n\nexport function other(): number {\n  return 1;\n}",
		find: "  console.log(\"hi\");", replace: "  console.log(added(), other());",
		theirs: "export function main(): void {\n  console.log(\"hi\");\n}\n\nexport function other(): number {\n  return 1;\n}\n\nexport function added(): number {\n  return 2;\n}",
		merged: "export function main(): void {\n  console.log(added(), other());\n}\n\nexport function other(): number {\n  return 1;\n}\n\nexport function added(): number {\n  return 2;\n}",
	},
}

func TestWriteMergesOutsideChange(t *testing.T) {
	for _, tool := range []string{"gopls", "pyright-langserver", "typescript-language-server"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("needs %s (make tools installs it): the check after the merge is Go's, Python's and TypeScript's", tool)
		}
	}
	files := map[string]string{"go.mod": goModule}
	var paths []string
	var edits []any
	for _, f := range mergeFiles {
		files[f.path] = f.base
		paths = append(paths, f.path)
		edits = append(edits, editOp(f.path, f.find, f.replace))
	}
	root := testtree.New(t, files)
	cs := connectStdio(t, root, "--trust") // typescript-language-server runs the project's code
	if res := callTool(t, cs, "dev_plan", map[string]any{"paths": paths, "ops": edits}); res.IsError {
		t.Fatalf("edits: %s", resultText(res))
	}
	for _, f := range mergeFiles {
		testtree.Put(t, root, f.path, f.theirs)
	}
	if err := os.Chmod(filepath.Join(root, "app.py"), 0o755); err != nil {
		t.Fatal(err)
	}

	res := callTool(t, cs, "dev_plan", map[string]any{"ops": []any{map[string]any{"step": "write"}}})
	dr := decodeStructured[mergedResult](t, res)
	if res.IsError || !dr.OK || len(dr.Written) != 3 || len(dr.Merged) != 3 {
		t.Fatalf("write over outside changes on other lines: %s", resultText(res))
	}
	for _, f := range mergeFiles {
		if got := readFile(t, root, f.path); got != f.merged {
			t.Errorf("%s on disk = %q, want %q", f.path, got, f.merged)
		}
		i := slices.IndexFunc(dr.Merged, func(m mergedEntry) bool { return m.Path == f.path })
		if i < 0 {
			t.Fatalf("%s not merged: %+v", f.path, dr.Merged)
		}
		m := dr.Merged[i]
		if len(m.Ours) != 1 || len(m.Theirs) != 1 || m.Ours[0].Start != 2 && m.Ours[0].Start != 4 || m.Theirs[0].Start <= m.Ours[0].End {
			t.Errorf("merged[%d] = %+v", i, m)
		}
		if !strings.Contains(resultText(res), "merged: "+f.path+" had changed on disk") {
			t.Errorf("the text does not say %s was merged:\n%s", f.path, resultText(res))
		}
	}
	if st, _ := os.Stat(filepath.Join(root, "app.py")); st.Mode().Perm() != 0o755 {
		t.Errorf("app.py's mode is %v after the merge, want 0755", st.Mode().Perm())
	}
	// The next check sees the merged content: added() is defined in
	// every file.
	res = callTool(t, cs, "check", map[string]any{})
	if dr := decodeStructured[mergedResult](t, res); res.IsError || !dr.OK {
		t.Fatalf("check after the merge: %s", resultText(res))
	}

	// Changes on the same line conflict, naming it; nothing is written.
	merged := mergeFiles[0].merged
	if res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"main.go"}, "ops": []any{editOp("main.go", "func other() int { return 1 }", "func other() int { return 3 }")}}); res.IsError {
		t.Fatalf("edit: %s", resultText(res))
	}
	outside := strings.Replace(merged, "return 1", "return 4", 1)
	testtree.Put(t, root, "main.go", outside)
	res = callTool(t, cs, "dev_plan", map[string]any{"ops": []any{map[string]any{"step": "write"}}})
	dr = decodeStructured[mergedResult](t, res)
	if !res.IsError || dr.Error == nil || dr.Error.Kind != "conflict" || len(dr.Written) != 0 || len(dr.Merged) != 0 {
		t.Fatalf("write over a change of the same line: %s", resultText(res))
	}
	const clash = "lines 7 (your change: lines 7; the change on disk: lines 7)"
	if len(dr.Stale) != 1 || !strings.Contains(dr.Stale[0].NotMerged, clash) || !strings.Contains(dr.Error.Message, clash) || !strings.Contains(resultText(res), clash) {
		t.Errorf("the conflict does not name line 7: %s", resultText(res))
	}
	if got := readFile(t, root, "main.go"); got != outside {
		t.Fatalf("the refused write changed the disk: %q", got)
	}

	// With merge false, a change on other lines is a conflict too.
	if res := callTool(t, cs, "discard", map[string]any{}); res.IsError {
		t.Fatal(resultText(res))
	}
	if res := callTool(t, cs, "dev_plan", map[string]any{"paths": []string{"main.go"}, "ops": []any{editOp("main.go", "func added() int { return 2 }", "func added() int { return 5 }")}}); res.IsError {
		t.Fatalf("edit: %s", resultText(res))
	}
	testtree.Put(t, root, "main.go", strings.Replace(outside, "package main", "package main // changed", 1))
	res = callTool(t, cs, "dev_plan", map[string]any{"ops": []any{map[string]any{"step": "write", "args": map[string]any{"merge": false}}}})
	dr = decodeStructured[mergedResult](t, res)
	if !res.IsError || dr.Error == nil || dr.Error.Kind != "conflict" || len(dr.Stale) != 1 || dr.Stale[0].NotMerged != "" {
		t.Fatalf("write with merge false: %s", resultText(res))
	}
	// The same write merging writes.
	res = callTool(t, cs, "dev_plan", map[string]any{"ops": []any{map[string]any{"step": "write"}}})
	if dr := decodeStructured[mergedResult](t, res); res.IsError || len(dr.Merged) != 1 {
		t.Fatalf("write merging: %s", resultText(res))
	}
	if got, want := readFile(t, root, "main.go"), strings.Replace(strings.Replace(outside, "package main", "package main // changed", 1), "return 2", "return 5", 1); got != want {
		t.Errorf("main.go = %q, want %q", got, want)
	}
}
