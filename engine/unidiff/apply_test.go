package unidiff

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestApply(t *testing.T) {
	const ten = "l1\nl2\nl3\nl4\nl5\nl6\nl7\nl8\nl9\nl10\n"
	tests := []struct {
		name    string
		content string
		diff    string
		want    string
		ranges  []Range
		kind    fault.Kind // expected HunkError kind, "" for success
		lines   []int      // expected HunkError lines
		msg     string     // substring of the error message
	}{
		{
			name:    "git headers skipped",
			content: ten,
			diff: "diff --git a/f.txt b/f.txt\nindex 83db48f..bf269f4 100644\nold mode 100644\nnew mode 100755\n" +
				"--- a/f.txt\n+++ b/f.txt\n@@ -2,3 +2,3 @@ section\n l2\n-l3\n+L3\n l4\n",
			want:   strings.Replace(ten, "l3\n", "L3\n", 1),
			ranges: []Range{{2, 4}},
		},
		{
			name:    "header counts and positions wrong, body right",
			content: ten,
			diff:    "@@ -90,1 +1,17 @@\n l7\n-l8\n+x\n+y\n l9\n",
			want:    "l1\nl2\nl3\nl4\nl5\nl6\nl7\nx\ny\nl9\nl10\n",
			ranges:  []Range{{7, 10}},
		},
		{
			name:    "multiple hunks, given out of order",
			content: ten,
			diff:    "@@ -8 +8 @@\n-l8\n+L8\n@@ -1,2 +1 @@\n-l1\n l2\n@@ -5 +5,2 @@\n l5\n+new\n",
			want:    "l2\nl3\nl4\nl5\nnew\nl6\nl7\nL8\nl9\nl10\n",
			ranges:  []Range{{8, 8}, {1, 1}, {4, 5}},
		},
		{
			name:    "pure deletion range",
			content: ten,
			diff:    "@@ -3,2 +3 @@\n l3\n-l4\n@@ -6 +6,0 @@\n-l6\n",
			want:    "l1\nl2\nl3\nl5\nl7\nl8\nl9\nl10\n",
			ranges:  []Range{{3, 3}, {5, 4}},
		},
		{
			name:    "ambiguous lists lines",
			content: "a\nx\nb\nx\nc\nx\n",
			diff:    "@@ -2 +2 @@\n-x\n+y\n",
			kind:    KindAmbiguous,
			lines:   []int{2, 4, 6},
			msg:     "hunk 1 (@@ -2 +2 @@) matches 3 places (lines 2, 4, 6): add context lines",
		},
		{
			name:    "no match names closest line",
			content: ten,
			diff:    "@@ -1,2 +1,2 @@\n l1\n-l2\n+x\n@@ -10,3 +10,4 @@\n l4\n l5\n-l 6\n+x\n l7\n",
			kind:    KindNoMatch,
			lines:   []int{4},
			msg: `hunk 2 (@@ -10,3 +10,4 @@) does not match the file: its old side (context and "-" lines) must appear byte-for-byte; ` +
				`the closest place is line 4: 3 of its 4 old lines are equal there; line 6 of the file is "l6" where the hunk has "l 6"`,
		},
		{
			name:    "no match, nothing close",
			content: ten,
			diff:    "@@ -1 +1 @@\n-zzz\n+y\n",
			kind:    KindNoMatch,
			msg:     "none of its lines is in the file",
		},
		{
			name:    "whitespace is not fuzzed",
			content: "\tx\n",
			diff:    "@@ -1 +1 @@\n-    x\n+y\n",
			kind:    KindNoMatch,
		},
		{
			name:    "carriage return is content",
			content: "a\r\nb\r\n",
			diff:    "@@ -1 +1 @@\n-a\n+c\n",
			kind:    KindNoMatch,
		},
		{
			name:    "CRLF diff on CRLF content",
			content: "a\r\nb\r\n",
			diff:    "@@ -1 +1 @@\r\n-a\r\n+c\r\n",
			want:    "c\r\nb\r\n",
			ranges:  []Range{{1, 1}},
		},
		{
			name:    "overlapping hunks",
			content: ten,
			diff:    "@@ -2,3 +2,3 @@\n l2\n-l3\n+x\n l4\n@@ -4,2 +4,2 @@\n l4\n-l5\n+y\n",
			kind:    KindOverlap,
			lines:   []int{4},
			msg:     "hunks 1 and 2 overlap at line 4",
		},
		{
			name:    "adjacent hunks do not overlap",
			content: ten,
			diff:    "@@ -2,2 +2,2 @@\n l2\n-l3\n+x\n@@ -4,2 +4,2 @@\n l4\n-l5\n+y\n",
			want:    "l1\nl2\nx\nl4\ny\nl6\nl7\nl8\nl9\nl10\n",
			ranges:  []Range{{2, 3}, {4, 5}},
		},
		{
			name:    "pure addition appends at EOF",
			content: "a\nb\n",
			diff:    "--- /dev/null\n+++ b/f\n@@ -0,0 +1,2 @@\n+c\n+d\n",
			want:    "a\nb\nc\nd\n",
			ranges:  []Range{{3, 4}},
		},
		{
			name:    "pure addition to a file without final newline",
			content: "a\nb",
			diff:    "@@ -2,0 +3 @@\n+c\n",
			want:    "a\nb\nc\n",
			ranges:  []Range{{3, 3}},
		},
		{
			name:    "pure addition marked no newline",
			content: "a\nb",
			diff:    "@@ -2,0 +3 @@\n+c\n\\ No newline at end of file\n",
			want:    "a\nb\nc",
		},
		{
			name:    "pure addition to the empty file",
			content: "",
			diff:    "@@ -0,0 +1 @@\n+c\n",
			want:    "c\n",
			ranges:  []Range{{1, 1}},
		},
		{
			name:    "pure addition whose header puts it mid-file",
			content: ten,
			diff:    "@@ -4,0 +5 @@\n+c\n",
			kind:    KindNoMatch,
			lines:   []int{4},
			msg:     "can only append at the end of the file",
		},
		{
			name:    "old side no newline: result gains one",
			content: "a\nb",
			diff:    "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n",
			want:    "a\nc\n",
		},
		{
			name:    "old side no newline, but the file has one",
			content: "a\nb\n",
			diff:    "@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n",
			kind:    KindNoMatch,
			lines:   []int{1},
			msg:     "the file ends with a newline",
		},
		{
			name:    "old side no newline, but not the last line",
			content: "a\nb\nc",
			diff:    "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+x\n",
			kind:    KindNoMatch,
			msg:     "the file goes on to line 3",
		},
		{
			name:    "new side no newline",
			content: "a\nb\n",
			diff:    "@@ -2 +2 @@\n-b\n+c\n\\ No newline at end of file\n",
			want:    "a\nc",
		},
		{
			name:    "new side no newline must end the file",
			content: "a\nb\n",
			diff:    "@@ -1 +1 @@\n-a\n+c\n\\ No newline at end of file\n",
			kind:    KindNoMatch,
		},
		{
			name:    "both sides no newline",
			content: "a\nb",
			diff:    "@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n",
			want:    "a\nc",
		},
		{
			name:    "context line marked no newline",
			content: "a\nb",
			diff:    "@@ -1,2 +1,3 @@\n a\n+x\n b\n\\ No newline at end of file\n",
			want:    "a\nx\nb",
		},
		{
			name:    "unmarked hunk keeps a missing final newline",
			content: "a\nb",
			diff:    "@@ -2 +2 @@\n-b\n+c\n",
			want:    "a\nc",
		},
		{
			name:    "unmarked hunk keeps a final newline",
			content: "a\nb\n",
			diff:    "@@ -2 +2 @@\n-b\n+c\n",
			want:    "a\nc\n",
		},
		{
			name:    "delete every line",
			content: "a\nb\n",
			diff:    "--- a/f\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n",
			want:    "",
			ranges:  []Range{{1, 0}},
		},
		{
			name:    "delete every line of a file without final newline",
			content: "a\nb",
			diff:    "@@ -1,2 +0,0 @@\n-a\n-b\n\\ No newline at end of file\n",
			want:    "",
		},
		{
			name:    "empty context lines (stripped spaces)",
			content: "a\n\nb\n\nc\n",
			diff:    "@@ -2,3 +2,3 @@\n\n-b\n+B\n\n",
			want:    "a\n\nB\n\nc\n",
			ranges:  []Range{{2, 4}},
		},
		{
			name:    "trailing blank separator beyond counts is dropped",
			content: "a\nb\nc\n",
			diff:    "@@ -1,2 +1,2 @@\n a\n-b\n+B\n\n\n",
			want:    "a\nB\nc\n",
		},
		{
			name:    "markdown fence",
			content: "a\n",
			diff:    "```diff\n@@ -1 +1 @@\n-a\n+b\n```\n",
			want:    "b\n",
		},
		{
			name:    "append after a hunk that ends the file",
			content: "a\nb",
			diff:    "@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+B\n@@ -2,0 +3 @@\n+c\n",
			want:    "a\nB\nc\n",
			ranges:  []Range{{2, 2}, {3, 3}},
		},
		{
			name:    "append after a hunk that ends without newline",
			content: "a\nb\n",
			diff:    "@@ -2 +2 @@\n-b\n+B\n\\ No newline at end of file\n@@ -2,0 +3 @@\n+c\n",
			kind:    KindOverlap,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hunks, err := Parse(tt.diff)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got, ranges, err := Apply(tt.content, hunks)
			if tt.kind != "" {
				var he *HunkError
				if !errors.As(err, &he) {
					t.Fatalf("Apply = %q, %v; want a *HunkError", got, err)
				}
				if got != "" || ranges != nil {
					t.Errorf("Apply failed but returned %q, %v", got, ranges)
				}
				if he.Kind != tt.kind || tt.lines != nil && !slices.Equal(he.Lines, tt.lines) || !strings.Contains(he.Msg, tt.msg) {
					t.Errorf("error = %+v\nwant kind %s, lines %v, message containing %q", he, tt.kind, tt.lines, tt.msg)
				}
				return
			}
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			if got != tt.want {
				t.Errorf("Apply = %q, want %q", got, tt.want)
			}
			if tt.ranges != nil && !slices.Equal(ranges, tt.ranges) {
				t.Errorf("ranges = %v, want %v", ranges, tt.ranges)
			}
		})
	}
}

// TestApplyAmbiguousCap checks that a hunk matching everywhere stops counting
// and says so.
func TestApplyAmbiguousCap(t *testing.T) {
	content := strings.Repeat("x\n", 1000)
	_, _, err := Apply(content, []Hunk{{Index: 1, Header: "@@ -1 +1 @@", Old: []string{"x"}, New: []string{"y"}}})
	var he *HunkError
	if !errors.As(err, &he) || he.Kind != KindAmbiguous || len(he.Lines) != maxMatches ||
		!strings.Contains(he.Msg, "at least 50 places (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ... 40 more)") {
		t.Fatalf("err = %v", err)
	}
}

// TestSearchPath: hunks whose old lines occur once, as whole lines, are
// applied by searching the content, with the line matcher's result and
// ranges; a hunk that matches twice, or inside a line, is left to it.
func TestSearchPath(t *testing.T) {
	content := "a\nb\nc\nxb\nd\ne\nf\n"
	hunks, err := Parse("@@ -1,3 +1,2 @@\n a\n-b\n c\n@@ -6,2 +5,3 @@\n e\n+E\n f\n")
	if err != nil {
		t.Fatal(err)
	}
	got, ranges, ok := applySearch(content, hunks)
	want, wantRanges, err := applyLines(content, hunks)
	if !ok || err != nil || got != want || !reflect.DeepEqual(ranges, wantRanges) {
		t.Fatalf("search: %q %v %v; lines: %q %v %v", got, ranges, ok, want, wantRanges, err)
	}
	for _, d := range []string{
		"@@ -2 +2 @@\n-b\n+B\n",         // "b" also ends "xb": only one whole line
		"@@ -1,2 +1,2 @@\n a\n-b\n+B\n", // fine
	} {
		hunks, err := Parse(d)
		if err != nil {
			t.Fatal(err)
		}
		if _, _, ok := applySearch(content, hunks); !ok {
			t.Errorf("%q: not applied by search", d)
		}
	}
	twice, err := Parse("@@ -1 +1 @@\n-a\n+A\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := applySearch(content+"a\n", twice); ok {
		t.Error("a hunk matching twice was applied by search")
	}
	if _, _, err := Apply(content+"a\n", twice); err == nil {
		t.Error("a hunk matching twice was applied")
	}
}
