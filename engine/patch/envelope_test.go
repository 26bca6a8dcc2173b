package patch

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

func TestParseEnvelope(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	tests := []struct {
		name  string
		patch string
		want  []FileOp
	}{
		{
			name: "the seed's example, with --- and +++ headers and a range header",
			patch: `*** Begin Patch
*** Update File: src/server.ts
--- src/server.ts
+++ src/server.ts
@@ -10,3 +10,3 @@
-const port = 3000
+const port = 8080
*** End Patch`,
			want: []FileOp{{Kind: Update, Path: "src/server.ts", Line: 2, Hunks: []Hunk{
				{Old: []string{"const port = 3000"}, New: ls("const port = 8080"), Line: 5},
			}}},
		},
		{
			name: "every kind of section",
			patch: `*** Begin Patch
*** Add File: a/new.go
+package a
+
+func New() {}
*** Delete File: old.txt
*** Update File: main.go
*** Move to: cmd/main.go
@@ func main() {
 	x := 1
-	y := 2
+	y := 3
@@
 }
+// end
*** End of File
*** End Patch
`,
			want: []FileOp{
				{Kind: Add, Path: "a/new.go", Line: 2, Lines: []text.Line{{Text: "package a", EOL: "\n"}, {Text: "", EOL: "\n"}, {Text: "func New() {}", EOL: "\n"}}},
				{Kind: Delete, Path: "old.txt", Line: 6},
				{Kind: Update, Path: "main.go", MoveTo: "cmd/main.go", Line: 7, Hunks: []Hunk{
					{Hint: "func main() {", Old: []string{"\tx := 1", "\ty := 2"}, New: ls("\tx := 1", "\ty := 3"), Line: 9},
					{Old: []string{"}"}, New: ls("}", "// end"), EOF: true, Line: 13},
				}},
			},
		},
		{
			name:  "a pure move; an empty added file",
			patch: "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Add File: c\n*** End Patch\n",
			want: []FileOp{
				{Kind: Update, Path: "a", MoveTo: "b", Line: 2},
				{Kind: Add, Path: "c", Line: 4, Lines: []text.Line{}},
			},
		},
		{
			name:  "a range header's section text is the hint",
			patch: "*** Begin Patch\n*** Update File: a\n@@ -1,2 +1,2 @@ func f() {\n-x\n+y\n*** End Patch",
			want:  []FileOp{{Kind: Update, Path: "a", Line: 2, Hunks: []Hunk{{Hint: "func f() {", Old: []string{"x"}, New: ls("y"), Line: 3}}}},
		},
		{
			name:  "an empty line inside a hunk is an empty context line",
			patch: "*** Begin Patch\n*** Update File: a\n@@\n a\n\n-b\n+c\n*** End Patch",
			want:  []FileOp{{Kind: Update, Path: "a", Line: 2, Hunks: []Hunk{{Old: []string{"a", "", "b"}, New: ls("a", "", "c"), Line: 3}}}},
		},
		{
			name:  "blank lines at the end of a hunk and around the envelope are separators",
			patch: "\n\n*** Begin Patch\n\n*** Update File: a\n\n@@\n-b\n+c\n\n\n@@\n-d\n\n*** Delete File: e\n\n*** End Patch\n\n \n",
			want: []FileOp{
				{Kind: Update, Path: "a", Line: 5, Hunks: []Hunk{{Old: []string{"b"}, New: ls("c"), Line: 7}, {Old: []string{"d"}, Line: 12}}},
				{Kind: Delete, Path: "e", Line: 15},
			},
		},
		{
			name:  "blank lines before End of File are context",
			patch: "*** Begin Patch\n*** Update File: a\n@@\n-b\n\n*** End of File\n*** End Patch",
			want:  []FileOp{{Kind: Update, Path: "a", Line: 2, Hunks: []Hunk{{Old: []string{"b", ""}, New: ls(""), EOF: true, Line: 3}}}},
		},
		{
			name:  "a first hunk without its @@ line",
			patch: "*** Begin Patch\n*** Update File: a\n-b\n+c\n@@ d\n-e\n*** End Patch",
			want:  []FileOp{{Kind: Update, Path: "a", Line: 2, Hunks: []Hunk{{Old: []string{"b"}, New: ls("c"), Line: 3}, {Hint: "d", Old: []string{"e"}, Line: 5}}}},
		},
		{
			name:  "a lone --- line is a removed line, not a header",
			patch: "*** Begin Patch\n*** Update File: a\n--- x\n+y\n*** End Patch",
			want:  []FileOp{{Kind: Update, Path: "a", Line: 2, Hunks: []Hunk{{Old: []string{"-- x"}, New: ls("y"), Line: 3}}}},
		},
		{
			name:  "CRLF patch text: markers work, lines carry CRLF",
			patch: crlf("*** Begin Patch\n*** Add File: n\n+x\n*** Update File: a\n@@ h\n c\n-b\n+B\n*** End of File\n*** End Patch\n"),
			want: []FileOp{
				{Kind: Add, Path: "n", Line: 2, Lines: []text.Line{{Text: "x", EOL: "\r\n"}}},
				{Kind: Update, Path: "a", Line: 4, Hunks: []Hunk{{Hint: "h", Old: []string{"c", "b"}, OldEOL: []string{"\r\n", "\r\n"}, New: []text.Line{{Text: "c", EOL: "\r\n"}, {Text: "B", EOL: "\r\n"}}, EOF: true, Line: 5}}},
			},
		},
		{
			name:  "a hunk with CRLF on its old side states every terminator",
			patch: "*** Begin Patch\n*** Update File: a\n@@\n c\r\n-b\r\n+b\n+B\r\n*** End Patch\n",
			want: []FileOp{{Kind: Update, Path: "a", Line: 2, Hunks: []Hunk{{Old: []string{"c", "b"}, OldEOL: []string{"\r\n", "\r\n"},
				New: []text.Line{{Text: "c", EOL: "\r\n"}, {Text: "b", EOL: "\n"}, {Text: "B", EOL: "\r\n"}}, Line: 3}}}},
		},
		{
			name:  "a hunk with LF on its old side leaves LF unstated",
			patch: "*** Begin Patch\n*** Update File: a\n@@\n c\n-b\n+b\r\n+B\n*** End Patch\n",
			want: []FileOp{{Kind: Update, Path: "a", Line: 2, Hunks: []Hunk{{Old: []string{"c", "b"},
				New: []text.Line{{Text: "c"}, {Text: "b", EOL: "\r\n"}, {Text: "B"}}, Line: 3}}}},
		},
		{
			name:  "markers tolerate trailing blanks; paths are trimmed",
			patch: "*** Begin Patch  \n*** Update File:   a b.go \t\n@@\n-x\n*** End Patch \t",
			want:  []FileOp{{Kind: Update, Path: "a b.go", Line: 2, Hunks: []Hunk{{Old: []string{"x"}, Line: 3}}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseEnvelope(tt.patch)
			if err != nil {
				t.Fatalf("ParseEnvelope: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("ParseEnvelope:\n got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestParseEnvelopeErrors(t *testing.T) {
	tests := []struct {
		name    string
		patch   string
		line    int
		text    string
		msg     string
		unified bool
	}{
		{name: "empty", patch: "", msg: "the patch is empty"},
		{name: "blank only", patch: "\n \n\t\n", msg: "the patch is empty"},
		{name: "no Begin Patch", patch: "*** Update File: a\n@@\n-x\n*** End Patch", line: 1, msg: `expected "*** Begin Patch" as the first line`},
		{name: "unified diff", patch: "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", line: 1, unified: true},
		{name: "git diff", patch: "\ndiff --git a/x b/x\n", line: 2, unified: true},
		{name: "svn diff", patch: "Index: x\n=====\n", line: 1, unified: true},
		{name: "bare hunk", patch: "@@ -1 +1 @@\n-a\n+b\n", line: 1, unified: true},
		{name: "no End Patch", patch: "*** Begin Patch\n*** Delete File: a\n", line: 2, msg: `the patch ends without "*** End Patch"`},
		{name: "no End Patch after a hunk", patch: "*** Begin Patch\n*** Update File: a\n@@\n-x\n\n", line: 4, text: "-x", msg: `the patch ends without "*** End Patch"`},
		{name: "no operations", patch: "*** Begin Patch\n*** End Patch", line: 2, msg: "the patch has no file operations"},
		{
			name:  "bad hunk line",
			patch: "*** Begin Patch\n*** Update File: a\n@@\nfoo\n*** End Patch",
			line:  4, text: "foo",
			msg: `expected a hunk line starting with ' ', '-' or '+' (or "@@", "*** End of File", a new "*** ... File:" header, or "*** End Patch")`,
		},
		{name: "no newline marker is not grammar", patch: "*** Begin Patch\n*** Update File: a\n@@\n-x\n\\ No newline at end of file\n*** End Patch", line: 5, msg: "expected a hunk line"},
		{name: "update with no hunks", patch: "*** Begin Patch\n*** Update File: a\n*** End Patch", line: 2, msg: `an updated file needs at least one "@@" hunk or a "*** Move to:" line`},
		{name: "update with blank lines only", patch: "*** Begin Patch\n*** Update File: a\n\n\n*** Delete File: b\n*** End Patch", line: 2, msg: "needs at least one"},
		{name: "empty hunk", patch: "*** Begin Patch\n*** Update File: a\n@@ x\n@@\n-y\n*** End Patch", line: 3, msg: "empty hunk"},
		{name: "empty hunk of blank lines", patch: "*** Begin Patch\n*** Update File: a\n@@\n\n\n*** End Patch", line: 3, msg: "empty hunk"},
		{name: "duplicate path", patch: "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** Delete File: a\n*** End Patch", line: 5, msg: `the path "a" is already the subject of the operation on line 2`},
		{name: "duplicate path after cleaning", patch: "*** Begin Patch\n*** Delete File: a/b\n*** Delete File: a//b\n*** End Patch", line: 3, msg: "already the subject of the operation on line 2"},
		{name: "move onto itself", patch: "*** Begin Patch\n*** Update File: a\n*** Move to: a\n*** End Patch", line: 3, msg: `the path "a" is moved onto itself`},
		{name: "move onto another operation's path", patch: "*** Begin Patch\n*** Add File: b\n+x\n*** Update File: a\n*** Move to: b\n*** End Patch", line: 5, msg: "already receives a file on line 2"},
		{name: "empty path", patch: "*** Begin Patch\n*** Add File:   \n+x\n*** End Patch", line: 2, msg: `"*** Add File:" needs a path`},
		{name: "empty move path", patch: "*** Begin Patch\n*** Update File: a\n*** Move to:\n*** End Patch", line: 3, msg: `"*** Move to:" needs a path`},
		{name: "move not after its update", patch: "*** Begin Patch\n*** Move to: b\n*** End Patch", line: 2, msg: `must come right after its "*** Update File:" line`},
		{name: "second move", patch: "*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** Move to: c\n*** End Patch", line: 4, msg: "once"},
		{name: "text after End Patch", patch: "*** Begin Patch\n*** Delete File: a\n*** End Patch\n\nthanks!\n", line: 5, msg: `unexpected text after "*** End Patch" (line 3)`},
		{name: "added line without +", patch: "*** Begin Patch\n*** Add File: a\n+x\ny\n*** End Patch", line: 4, msg: "starting with '+'"},
		{name: "blank line inside an added file", patch: "*** Begin Patch\n*** Add File: a\n+x\n\n+y\n*** End Patch", line: 4, msg: `an empty line is a lone "+"`},
		{name: "lines after a delete", patch: "*** Begin Patch\n*** Delete File: a\n-x\n*** End Patch", line: 3, msg: "a deleted file takes no lines"},
		{name: "unknown header", patch: "*** Begin Patch\n*** Rename File: a\n*** End Patch", line: 2, msg: "expected a file header"},
		{name: "hunk line after End of File", patch: "*** Begin Patch\n*** Update File: a\n@@\n-x\n*** End of File\n-y\n*** End Patch", line: 6, msg: `after "*** End of File"`},
		{name: "nested Begin Patch", patch: "*** Begin Patch\n*** Begin Patch\n*** End Patch", line: 2, msg: "expected a file header"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := ParseEnvelope(tt.patch)
			if err == nil {
				t.Fatalf("ParseEnvelope = %+v, want an error", ops)
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %T %v is not a *ParseError", err, err)
			}
			if ops != nil {
				t.Errorf("ops returned with the error")
			}
			if pe.Line != tt.line {
				t.Errorf("Line = %d, want %d (%v)", pe.Line, tt.line, err)
			}
			if tt.text != "" && pe.Text != tt.text {
				t.Errorf("Text = %q, want %q", pe.Text, tt.text)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("message lacks %q: %v", tt.msg, err)
			}
			if got := errors.Is(err, ErrUnifiedDiff); got != tt.unified {
				t.Errorf("errors.Is(err, ErrUnifiedDiff) = %v, want %v", got, tt.unified)
			}
		})
	}
}

func TestParseErrorText(t *testing.T) {
	_, err := ParseEnvelope("*** Begin Patch\n*** Update File: a\n@@\nfoo\n*** End Patch")
	want := `line 4: "foo": expected a hunk line starting with ' ', '-' or '+' (or "@@", "*** End of File", a new "*** ... File:" header, or "*** End Patch")`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
	_, err = ParseEnvelope("--- a/x\n+++ b/x\n")
	want = `line 1: "--- a/x": apply_patch takes the "*** Begin Patch" envelope only; this looks like a unified diff: use the edit step (find/replace whole lines) or edit_file's patch command`
	if err == nil || err.Error() != want {
		t.Fatalf("got  %v\nwant %s", err, want)
	}
}

// TestEnvelopeApply runs a parsed envelope through the matcher: the CRLF
// file stays CRLF and the hint narrows.
func TestEnvelopeApply(t *testing.T) {
	ops, err := ParseEnvelope("*** Begin Patch\n*** Update File: a.go\n@@ func b() {\n-\treturn 1\n+\treturn 2\n+\t// two\n*** End Patch\n")
	if err != nil {
		t.Fatal(err)
	}
	doc := text.FromString(strings.ReplaceAll("func a() {\n\treturn 1\n}\nfunc b() {\n\treturn 1\n}", "\n", "\r\n"))
	got, err := Apply(doc, ops[0].Hunks)
	if err != nil {
		t.Fatal(err)
	}
	want := "func a() {\r\n\treturn 1\r\n}\r\nfunc b() {\r\n\treturn 2\r\n\t// two\r\n}"
	if got.String() != want {
		t.Fatalf("got %q\nwant %q", got.String(), want)
	}
}

// TestEnvelopeSwapThroughThirdName: operations apply in order, so a swap
// written as a→c, b→a, c→b names a, b and c twice each, legitimately.
func TestEnvelopeSwapThroughThirdName(t *testing.T) {
	ops, err := ParseEnvelope("*** Begin Patch\n*** Update File: a\n*** Move to: c\n*** Update File: b\n*** Move to: a\n*** Update File: c\n*** Move to: b\n*** End Patch")
	if err != nil {
		t.Fatal(err)
	}
	if len(ops) != 3 || ops[2].Path != "c" || ops[2].MoveTo != "b" {
		t.Fatalf("ops = %+v", ops)
	}
}

// A patch line that is not text (a NUL byte, invalid UTF-8) is refused at
// its line, wrapping the text model's sentinel.
func TestParseEnvelopeRefusesNonText(t *testing.T) {
	for _, tc := range []struct {
		patch string
		line  int
		want  error
	}{
		{"*** Begin Patch\n*** Add File: a\n+x\x00y\n*** End Patch", 3, text.ErrBinary},
		{"*** Begin Patch\n*** Update File: a\n@@\n-x\n+\xff\n*** End Patch", 5, text.ErrNotUTF8},
		{"*** Begin Patch\n*** Update File: a\n@@\n \x00\n*** End Patch", 4, text.ErrBinary},
	} {
		_, err := ParseEnvelope(tc.patch)
		var pe *ParseError
		if !errors.As(err, &pe) || pe.Line != tc.line || !errors.Is(err, tc.want) {
			t.Errorf("ParseEnvelope(%q) = %v, want a ParseError at line %d wrapping %v", tc.patch, err, tc.line, tc.want)
			continue
		}
		if !strings.Contains(err.Error(), "a file is text") {
			t.Errorf("error %q does not say why", err)
		}
	}
}
