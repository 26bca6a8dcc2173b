package patch

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

// TestTerminatorChanges: a patch that writes a line's terminator differently
// on its "-" and "+" sides changes that terminator; a patch that does not
// say leaves every kept line's terminator alone.
func TestTerminatorChanges(t *testing.T) {
	crlf := func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	tests := []struct {
		name, file, hunks, want string
	}{
		{"LF to CRLF, whole file", "a\nb\n", "-a\n-b\n+a\r\n+b\r\n", "a\r\nb\r\n"},
		{"CRLF to LF, whole file", "a\r\nb\r\n", "-a\r\n-b\r\n+a\n+b\n", "a\nb\n"},
		{"LF to CRLF with a changed line", "a\nb\nc\n", "-a\n-b\n-c\n+a\r\n+B\r\n+c\r\n", "a\r\nB\r\nc\r\n"},
		{"CRLF to LF with a changed and a new line", "a\r\nb\r\nc\r\n", "-a\r\n-b\r\n-c\r\n+a\n+B\n+B2\n+c\n", "a\nB\nB2\nc\n"},
		{"one line of a mixed file", "a\r\nb\nc\r\n", " a\r\n-b\n+b\r\n c\r\n", "a\r\nb\r\nc\r\n"},
		{"LF to CRLF on a file without a final newline", "a\nb", "-a\n-b\n+a\r\n+b\r\n", "a\r\nb"},
		{"a hunk with a CR on its old side adds LF lines as LF", "a\r\nb\r\nc\n", " b\r\n+x\n c\n", "a\r\nb\r\nx\nc\n"},
		// A patch that does not say which terminator it means.
		{"LF patch on a CRLF file", "a\r\nb\r\nc\r\n", " a\n-b\n+B\n+B2\n c\n", "a\r\nB\r\nB2\r\nc\r\n"},
		{"CRLF patch on an LF file keeps its context lines", "a\nb\nc\n", crlf(" a\n-b\n+B\n c\n"), "a\nB\r\nc\n"},
		{"no-op LF patch on a CRLF file", "a\r\nb\r\n", "-a\n+a\n", "a\r\nb\r\n"},
		{"no-op CRLF patch on an LF file", "a\nb\n", "-a\r\n+a\r\n", "a\nb\n"},
		{"a moved line that keeps its terminator", "a\r\nb\r\n", "-a\r\n b\r\n+a\r\n", "b\r\na\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ops, err := ParseEnvelope("*** Begin Patch\n*** Update File: f\n@@\n" + tt.hunks + "*** End Patch\n")
			if err != nil {
				t.Fatal(err)
			}
			got, err := Apply(text.FromString(tt.file), ops[0].Hunks)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Fatalf("got %q, want %q", got.String(), tt.want)
			}
		})
	}
}

// TestTerminatorChangesByEdit: the edit step's find and replace follow the
// same rule as a patch's "-" and "+" lines.
func TestTerminatorChangesByEdit(t *testing.T) {
	tests := []struct {
		name, file, find, replace, want string
	}{
		{"LF to CRLF", "a\nb\n", "a\nb\n", "a\r\nb\r\n", "a\r\nb\r\n"},
		{"CRLF to LF", "a\r\nb\r\n", "a\r\nb\r\n", "a\nb\n", "a\nb\n"},
		{"one line to CRLF", "a\nb\nc\n", "b\n", "b\r\n", "a\nb\r\nc\n"},
		{"CRLF to LF with a new line", "a\r\nb\r\n", "a\r\nb\r\n", "a\nx\nb\n", "a\nx\nb\n"},
		// A last line without a terminator says nothing about one.
		{"unterminated last lines keep the file's", "a\r\nb\r\n", "a\r\nb", "a\r\nB", "a\r\nB\r\n"},
		{"LF edit on a CRLF file", "a\r\nb\r\n", "a\nb\n", "A\nb\n", "A\r\nb\r\n"},
		{"no-op LF edit on a CRLF file", "a\r\nb\r\n", "a\n", "a\n", "a\r\nb\r\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Apply(text.FromString(tt.file), []Hunk{FromFindReplace(tt.find, tt.replace)})
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Fatalf("got %q, want %q", got.String(), tt.want)
			}
		})
	}
}
