package unidiff

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		name string
		diff string
		want []Hunk
	}{
		{
			name: "git headers",
			diff: "diff --git a/x b/y\nsimilarity index 90%\nrename from x\nrename to y\nindex 1..2 100644\n--- a/x\n+++ b/y\n" +
				"@@ -1,2 +1,2 @@ func f() {\n a\n-b\n+c\n",
			want: []Hunk{{Index: 1, Header: "@@ -1,2 +1,2 @@ func f() {", Line: 8, Old: []string{"a", "b"}, New: []string{"a", "c"}}},
		},
		{
			name: "new file",
			diff: "diff --git a/n b/n\nnew file mode 100644\nindex 0000000..1\n--- /dev/null\n+++ b/n\n@@ -0,0 +1 @@\n+x\n",
			want: []Hunk{{Index: 1, Header: "@@ -0,0 +1 @@", Line: 6, New: []string{"x"}}},
		},
		{
			name: "header counts wrong: the body decides",
			diff: "@@ -1,1 +1,1 @@\n a\n-b\n-c\n+d\n e\n@@ -50 +50 @@\n-z\n+y\n",
			want: []Hunk{
				{Index: 1, Header: "@@ -1,1 +1,1 @@", Line: 1, Old: []string{"a", "b", "c", "e"}, New: []string{"a", "d", "e"}},
				{Index: 2, Header: "@@ -50 +50 @@", Line: 7, Old: []string{"z"}, New: []string{"y"}},
			},
		},
		{
			name: "header without numbers",
			diff: "@@\n-a\n+b\n\n",
			want: []Hunk{{Index: 1, Header: "@@", Line: 1, Old: []string{"a"}, New: []string{"b"}}},
		},
		{
			name: "no newline markers",
			diff: "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n\\ No newline at end of file\n",
			want: []Hunk{{Index: 1, Header: "@@ -1 +1 @@", Line: 1, Old: []string{"a"}, New: []string{"b"}, OldNoEOL: true, NewNoEOL: true}},
		},
		{
			name: "empty context lines inside and at the end",
			diff: "@@ -1,3 +1,3 @@\n\n-a\n+b\n\n",
			want: []Hunk{{Index: 1, Header: "@@ -1,3 +1,3 @@", Line: 1, Old: []string{"", "a", ""}, New: []string{"", "b", ""}}},
		},
		{
			name: "blank line between hunks is a separator",
			diff: "@@ -1,2 +1,2 @@\n x\n-a\n+b\n\n@@ -9 +9 @@\n-c\n+d\n",
			want: []Hunk{
				{Index: 1, Header: "@@ -1,2 +1,2 @@", Line: 1, Old: []string{"x", "a"}, New: []string{"x", "b"}},
				{Index: 2, Header: "@@ -9 +9 @@", Line: 6, Old: []string{"c"}, New: []string{"d"}},
			},
		},
		{
			name: "removed line that looks like a file header, per counts",
			diff: "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n--- x\n+++ y\n a\n",
			want: []Hunk{{Index: 1, Header: "@@ -1,2 +1,2 @@", Line: 3, Old: []string{"-- x", "a"}, New: []string{"++ y", "a"}}},
		},
		{
			name: "CRLF diff keeps \\r as content",
			diff: "--- a/f\r\n+++ b/f\r\n@@ -1 +1 @@\r\n-a\r\n+b\r\n\\ No newline at end of file\r\n",
			want: []Hunk{{Index: 1, Header: "@@ -1 +1 @@", Line: 3, Old: []string{"a\r"}, New: []string{"b\r"}, NewNoEOL: true}},
		},
		{
			name: "fenced",
			diff: "\n```diff\n@@ -1 +1 @@\n-a\n+b\n```\n\n",
			want: []Hunk{{Index: 1, Header: "@@ -1 +1 @@", Line: 3, Old: []string{"a"}, New: []string{"b"}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse(tt.diff)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Parse =\n%#v\nwant\n%#v", got, tt.want)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		diff string
		line int
		msg  string
	}{
		{"empty", "", 0, "no @@ hunk"},
		{"headers only", "--- a/f\n+++ b/f\n", 0, "no @@ hunk"},
		{"binary", "diff --git a/f b/f\nBinary files a/f and b/f differ\n", 0, "binary change"},
		{"two files, second ---/+++", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n", 6, "patch one file per call"},
		{"two files, diff --git", "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\ndiff --git a/g b/g\n", 7, "patch one file per call"},
		{"two files before any hunk", "--- a/f\n+++ b/f\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-a\n+b\n", 3, "patch one file per call"},
		{"garbage between hunks", "@@ -1 +1 @@\n-a\n+b\nthen this\n@@ -5 +5 @@\n-c\n+d\n", 4, "unexpected line in hunk 1 (@@ -1 +1 @@)"},
		{"garbage before the first hunk", "Here is the diff:\n@@ -1 +1 @@\n-a\n+b\n", 1, "before the first hunk"},
		{"unclosed fence", "```diff\n@@ -1 +1 @@\n-a\n+b\n", 1, "Markdown fence"},
		{"empty hunk", "@@ -1 +1 @@\n@@ -2 +2 @@\n-a\n+b\n", 1, "hunk 1 has no lines"},
		{"marker first", "@@ -1 +1 @@\n\\ No newline at end of file\n-a\n", 2, "must follow the line"},
		{"line after old marker", "@@ -1,2 +1 @@\n-a\n\\ No newline at end of file\n-b\n", 4, "after \"\\ No newline"},
		{"combined diff", "@@@ -1 -1 +1 @@@\n", 1, "combined diffs"},
		{"git binary patch", "diff --git a/f b/f\nGIT binary patch\nliteral 3\n", 2, "binary patches"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hunks, err := Parse(tt.diff)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("Parse = %v, %v; want a *ParseError", hunks, err)
			}
			if pe.Line != tt.line || !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("error = %+v\nwant line %d, message containing %q", pe, tt.line, tt.msg)
			}
			if pe.Line > 0 && pe.Text != strings.Split(tt.diff, "\n")[pe.Line-1] {
				t.Errorf("error text %q is not line %d", pe.Text, pe.Line)
			}
		})
	}
}
