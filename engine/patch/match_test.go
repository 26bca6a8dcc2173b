package patch

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
	"github.com/devbroker/devbroker/engine/text"
)

// ls is shorthand for New lines that take the file's dominant terminator.
func ls(texts ...string) []text.Line {
	out := make([]text.Line, len(texts))
	for i, t := range texts {
		out[i] = text.Line{Text: t}
	}
	return out
}

const funcs = "func a() {\n\treturn 1\n}\nfunc b() {\n\treturn 1\n}\nfunc c() {\n\treturn 1\n}\n"

func TestApply(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		hunks []Hunk
		want  string // the result, when no error is expected
		kind  fault.Kind
		lines []int    // MatchError.Lines
		msg   []string // substrings of the error message
	}{
		{
			name:  "replace one line",
			file:  "a\nb\nc\n",
			hunks: []Hunk{{Old: []string{"b"}, New: ls("B")}},
			want:  "a\nB\nc\n",
		},
		{
			name:  "delete",
			file:  "a\nb\nc\n",
			hunks: []Hunk{{Old: []string{"a", "b"}, New: ls("a")}},
			want:  "a\nc\n",
		},
		{
			name:  "forward cursor picks the occurrence after the previous match",
			file:  "a\nx\nb\nx\n",
			hunks: []Hunk{{Old: []string{"a", "x"}, New: ls("a", "y")}, {Old: []string{"x"}, New: ls("z")}},
			want:  "a\ny\nb\nz\n",
		},
		{
			name:  "forward cursor: a later hunk cannot match before an earlier one",
			file:  "a\nb\nc\nd\n",
			hunks: []Hunk{{Old: []string{"c"}, New: ls("C")}, {Old: []string{"a"}, New: ls("A")}},
			kind:  NoMatch,
			lines: []int{1},
			msg:   []string{"hunk 2 ", `(the line "a")`, "matches nowhere from line 4 on", "it matches at line 1, but the previous match ends at line 3"},
		},
		{
			name:  "forward cursor: hunks may not overlap",
			file:  "a\nb\nc\n",
			hunks: []Hunk{{Old: []string{"a", "b"}, New: ls("a", "B")}, {Old: []string{"b", "c"}, New: ls("b")}},
			kind:  NoMatch,
			lines: []int{2},
		},
		{
			name:  "ambiguous lists every candidate",
			file:  "x\ny\nx\ny\nx\n",
			hunks: []Hunk{{Old: []string{"x"}, New: ls("z")}},
			kind:  Ambiguous,
			lines: []int{1, 3, 5},
			msg:   []string{"hunk 1 ", "matches at lines 1, 3 and 5", "add surrounding lines"},
		},
		{
			name:  "ambiguous after the cursor counts only candidates after it",
			file:  "s\nx\nk\nx\nk\nx\n",
			hunks: []Hunk{{Old: []string{"s", "x"}, New: ls("s", "x")}, {Old: []string{"x"}, New: ls("z")}},
			kind:  Ambiguous,
			lines: []int{4, 6},
			msg:   []string{"hunk 2 ", "matches at lines 4 and 6 (searching from line 3, after the previous match)"},
		},
		{
			name:  "hint narrows an ambiguous match",
			file:  "func a() {\n\treturn 1\n}\nfunc b() {\n\treturn 1\n}\n",
			hunks: []Hunk{{Hint: "func b() {", Old: []string{"\treturn 1"}, New: ls("\treturn 2"), Line: 3}},
			want:  "func a() {\n\treturn 1\n}\nfunc b() {\n\treturn 2\n}\n",
		},
		{
			name:  "hint compares trimmed text",
			file:  funcs,
			hunks: []Hunk{{Hint: "  func c() {  ", Old: []string{"\treturn 1"}, New: ls("\treturn 3")}},
			want:  strings.Replace(funcs, "func c() {\n\treturn 1", "func c() {\n\treturn 3", 1),
		},
		{
			name:  "hint that matches no line is ignored",
			file:  funcs,
			hunks: []Hunk{{Hint: "func z() {", Old: []string{"\treturn 1"}, New: ls("\treturn 2"), Line: 3}},
			kind:  Ambiguous,
			lines: []int{2, 5, 8},
			msg:   []string{`its @@ hint "func z() {" matches no line, so it was ignored`, `after "@@ "`},
		},
		{
			name:  "hint that leaves several candidates",
			file:  funcs,
			hunks: []Hunk{{Hint: "func a() {", Old: []string{"\treturn 1"}, New: ls("\treturn 2")}},
			kind:  Ambiguous,
			lines: []int{2, 5, 8},
			msg:   []string{`its @@ hint "func a() {" (line 1) leaves 3 of them`},
		},
		{
			name:  "hint after every candidate leaves none",
			file:  funcs + "// end\n",
			hunks: []Hunk{{Hint: "// end", Old: []string{"\treturn 1"}, New: ls("\treturn 2")}},
			kind:  Ambiguous,
			lines: []int{2, 5, 8},
			msg:   []string{"leaves none of them after it"},
		},
		{
			name:  "hint keeps only the candidates that start after its line",
			file:  "x\ny\nx\ny\n",
			hunks: []Hunk{{Hint: "x", Old: []string{"x"}, New: ls("z")}},
			want:  "x\ny\nz\ny\n",
		},
		{
			name:  "hint does not move a unique match",
			file:  "func a() {\n\treturn 7\n}\nfunc b() {\n\treturn 1\n}\n",
			hunks: []Hunk{{Hint: "func b() {", Old: []string{"\treturn 7"}, New: ls("\treturn 8")}},
			want:  "func a() {\n\treturn 8\n}\nfunc b() {\n\treturn 1\n}\n",
		},
		{
			name:  "hint is searched from the cursor",
			file:  funcs,
			hunks: []Hunk{{Old: []string{"func b() {"}, New: ls("func b() {")}, {Hint: "func a() {", Old: []string{"\treturn 1"}, New: ls("\treturn 2")}},
			kind:  Ambiguous,
			lines: []int{5, 8},
			msg:   []string{"hunk 2 ", "matches no line, so it was ignored"},
		},
		{
			name:  "End of File anchors at the last line",
			file:  "x\ny\nx\n",
			hunks: []Hunk{{Old: []string{"x"}, New: ls("z"), EOF: true}},
			want:  "x\ny\nz\n",
		},
		{
			name:  "End of File without it is ambiguous",
			file:  "x\ny\nx\n",
			hunks: []Hunk{{Old: []string{"x"}, New: ls("z")}},
			kind:  Ambiguous,
			lines: []int{1, 3},
		},
		{
			name:  "End of File that is not at the end",
			file:  "x\ny\n",
			hunks: []Hunk{{Old: []string{"x"}, New: ls("z"), EOF: true}},
			kind:  NoMatch,
			lines: []int{1},
			msg:   []string{`does not match at the end of the file ("*** End of File")`, `it matches at line 1, but "*** End of File" requires it to end at the last line (2)`},
		},
		{
			name:  "End of File on a file without a final newline",
			file:  "a\nb",
			hunks: []Hunk{{Old: []string{"b"}, New: ls("b", "c"), EOF: true}},
			want:  "a\nb\nc",
		},
		{
			name:  "pure addition appends",
			file:  "a\nb\n",
			hunks: []Hunk{{New: ls("c", "d")}},
			want:  "a\nb\nc\nd\n",
		},
		{
			name:  "pure addition appends after everything and does not move the cursor",
			file:  "a\nb\n",
			hunks: []Hunk{{New: ls("z")}, {Old: []string{"a"}, New: ls("A")}, {Old: []string{"b"}, New: ls("b", "B")}},
			want:  "A\nb\nB\nz\n",
		},
		{
			name:  "pure addition to a file without a final newline keeps that state",
			file:  "a\nb",
			hunks: []Hunk{{New: ls("c")}},
			want:  "a\nb\nc",
		},
		{
			name:  "pure addition to an empty file",
			file:  "",
			hunks: []Hunk{{New: ls("c")}},
			want:  "c\n",
		},
		{
			name:  "pure addition to a CRLF file",
			file:  "a\r\n",
			hunks: []Hunk{{New: ls("b")}},
			want:  "a\r\nb\r\n",
		},
		{
			name:  "CRLF file and LF patch keep CRLF everywhere",
			file:  "a\r\nb\r\nc\r\n",
			hunks: []Hunk{{Old: []string{"a", "b"}, New: ls("a", "B", "B2")}},
			want:  "a\r\nB\r\nB2\r\nc\r\n",
		},
		{
			name:  "CRLF patch matches an LF file",
			file:  "a\nb\nc\n",
			hunks: []Hunk{{Old: []string{"b\r"}, New: ls("B")}},
			want:  "a\nB\nc\n",
		},
		{
			name:  "a new line carrying CRLF keeps it",
			file:  "a\nb\nc\n",
			hunks: []Hunk{{Old: []string{"b"}, New: []text.Line{{Text: "X", EOL: text.CRLF}}}},
			want:  "a\nX\r\nc\n",
		},
		{
			name:  "no final newline: replace the last line",
			file:  "a\nb",
			hunks: []Hunk{{Old: []string{"b"}, New: ls("B")}},
			want:  "a\nB",
		},
		{
			name:  "no final newline: delete the last line",
			file:  "a\nb",
			hunks: []Hunk{{Old: []string{"b"}}},
			want:  "a",
		},
		{
			name:  "context lines keep their own terminators in a mixed file",
			file:  "a\r\nb\nc\r\nd\n",
			hunks: []Hunk{{Old: []string{"a", "b", "c", "d"}, New: ls("a", "B", "c", "D")}},
			// B and D take the ending of the kept lines around them (a
			// and c, c alone): CRLF.
			want: "a\r\nB\r\nc\r\nD\r\n",
		},
		{
			name:  "a file line ending in CR matches and is kept",
			file:  "x\r\r\ny\n",
			hunks: []Hunk{{Old: []string{"x", "y"}, New: ls("x", "Y")}},
			// Y takes the ending of the kept line before it: CRLF.
			want: "x\r\r\nY\r\n",
		},
		{
			name:  "BOM is kept",
			file:  text.BOM + "a\nb\n",
			hunks: []Hunk{{Old: []string{"a"}, New: ls("A")}},
			want:  text.BOM + "A\nb\n",
		},
		{
			name:  "whole lines only",
			file:  "foo bar\n",
			hunks: []Hunk{{Old: []string{"foo"}, New: ls("baz")}},
			kind:  NoMatch,
			msg:   []string{"matches nowhere in the file; no line equals its first line"},
		},
		{
			name:  "no whitespace fuzz, but the near miss is named",
			file:  "x\n\ty\nz\n",
			hunks: []Hunk{{Old: []string{"x", "    y"}, New: ls("x")}},
			kind:  NoMatch,
			lines: []int{1},
			msg:   []string{`lines 1-2 match if leading and trailing whitespace is ignored: line 2 is "\ty" where the patch has "    y"`},
		},
		{
			name:  "no Unicode fuzz",
			file:  "café\n",
			hunks: []Hunk{{Old: []string{"cafe\u0301"}, New: ls("tea")}},
			kind:  NoMatch,
		},
		{
			name:  "near miss: the longest run of first lines",
			file:  "a\nb\nc\n",
			hunks: []Hunk{{Old: []string{"a", "b", "X"}, New: ls("a")}},
			kind:  NoMatch,
			lines: []int{1},
			msg:   []string{`3 lines starting "a", "b"`, `the closest is line 1, where its first 2 line(s) match; then line 3 is "c" where the patch has "X"`},
		},
		{
			name:  "near miss at the end of the file",
			file:  "a\nb\n",
			hunks: []Hunk{{Old: []string{"b", "c"}, New: ls("a")}},
			kind:  NoMatch,
			lines: []int{2},
			msg:   []string{"the closest is line 2, where its first 1 line(s) match before the file ends"},
		},
		{
			name:  "empty file",
			file:  "",
			hunks: []Hunk{{Old: []string{"a"}, New: ls("b")}},
			kind:  NoMatch,
			msg:   []string{"matches nowhere: the file is empty"},
		},
		{
			name:  "patch line is named",
			file:  "a\n",
			hunks: []Hunk{{Old: []string{"q"}, Line: 12}},
			kind:  NoMatch,
			msg:   []string{`hunk 1 (patch line 12; the line "q") matches nowhere`},
		},
		{
			name:  "a later failure applies nothing",
			file:  "a\nb\n",
			hunks: []Hunk{{Old: []string{"a"}, New: ls("A")}, {Old: []string{"q"}}},
			kind:  NoMatch,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc := text.FromString(tt.file)
			got, err := Apply(doc, tt.hunks)
			if doc.String() != tt.file {
				t.Fatalf("the input Doc changed: %q", doc.String())
			}
			if tt.kind == "" {
				if err != nil {
					t.Fatalf("Apply: %v", err)
				}
				if got.String() != tt.want {
					t.Fatalf("Apply = %q, want %q", got.String(), tt.want)
				}
				return
			}
			var me *MatchError
			if !errors.As(err, &me) {
				t.Fatalf("Apply = %q, %v; want a *MatchError", got, err)
			}
			if got != nil {
				t.Errorf("Apply returned a Doc with its error")
			}
			if me.Kind != tt.kind {
				t.Errorf("Kind = %v, want %v (%s)", me.Kind, tt.kind, me)
			}
			seed := ErrNoMatch
			if tt.kind == Ambiguous {
				seed = ErrAmbiguous
			}
			if !strings.HasPrefix(me.Error(), seed.Error()+": ") || !errors.Is(err, seed) {
				t.Errorf("message does not begin with %q: %s", seed, me)
			}
			if tt.lines != nil && !reflect.DeepEqual(me.Lines, tt.lines) {
				t.Errorf("Lines = %v, want %v", me.Lines, tt.lines)
			}
			for _, m := range tt.msg {
				if !strings.Contains(me.Error(), m) {
					t.Errorf("message lacks %q:\n%s", m, me)
				}
			}
		})
	}
}

func TestMatchKeepsContext(t *testing.T) {
	lines := []string{"a", "b", "c", "d", "e"}
	reps, err := Match(lines, []Hunk{{Old: []string{"b", "c", "d"}, New: ls("b", "C", "d", "d2")}})
	if err != nil {
		t.Fatal(err)
	}
	want := []text.LineReplacement{{Start: 2, End: 3, Lines: ls("C")}, {Start: 4, End: 4, Lines: ls("d2")}}
	if !reflect.DeepEqual(reps, want) {
		t.Fatalf("Match = %+v, want %+v", reps, want)
	}
	reps, err = Match(lines, []Hunk{{Old: []string{"b"}, New: ls("b")}})
	if err != nil || len(reps) != 0 {
		t.Fatalf("a no-op hunk: Match = %+v, %v; want no replacements", reps, err)
	}
	if reps, err := Match(lines, []Hunk{{Old: []string{"a"}}, {Old: []string{"q"}}}); err == nil || reps != nil {
		t.Fatalf("Match = %+v, %v; want nil and an error", reps, err)
	}
}

func TestMatchLargeChangeFallsBackToOneBlock(t *testing.T) {
	n := 1100 // (n+1)^2 > maxDiffCells
	old, nw := make([]string, n+2), make([]text.Line, n+2)
	old[0], nw[0] = "start", text.Line{Text: "start"}
	old[n+1], nw[n+1] = "end", text.Line{Text: "end"}
	for i := 1; i <= n; i++ {
		old[i] = "o" + strings.Repeat("x", i%7)
		nw[i] = text.Line{Text: "n" + strings.Repeat("x", i%5)}
	}
	reps, err := Match(old, []Hunk{{Old: old, New: nw}})
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 || reps[0].Start != 1 || reps[0].End != n+1 || len(reps[0].Lines) != n {
		t.Fatalf("got %d replacements, first %d-%d", len(reps), reps[0].Start, reps[0].End)
	}
}

func TestRelabel(t *testing.T) {
	doc := text.FromString("x\nx\n")
	_, err := Apply(doc, []Hunk{{Old: []string{"y"}, New: ls("z")}, {Old: []string{"x"}}})
	var me *MatchError
	if !errors.As(err, &me) {
		t.Fatalf("want a *MatchError, got %v", err)
	}
	if me.Hunk != 1 || me.Kind != NoMatch {
		t.Fatalf("Hunk, Kind = %d, %v", me.Hunk, me.Kind)
	}
	r := me.Relabel("edit", "src/config.ts")
	want := `the patch could not be applied cleanly to the source text: edit 1 in src/config.ts (the line "y") matches nowhere in the file; no line equals its first line`
	if r.Error() != want {
		t.Fatalf("Relabel:\n got %s\nwant %s", r, want)
	}
	if !errors.Is(r, ErrNoMatch) || r.Kind != NoMatch || me.Msg == r.Msg {
		t.Fatalf("Relabel lost the kind or changed the original")
	}
	if NoMatch != "no_match" || Ambiguous != "ambiguous" {
		t.Fatalf("kind names: %v %v", NoMatch, Ambiguous)
	}
}

func TestAmbiguousListIsCapped(t *testing.T) {
	_, err := Apply(text.FromString(strings.Repeat("x\n", 25)), []Hunk{{Old: []string{"x"}}})
	var me *MatchError
	if !errors.As(err, &me) || len(me.Lines) != 25 {
		t.Fatalf("want 25 candidates, got %v", err)
	}
	if !strings.Contains(me.Error(), "matches at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, ... (25 in all)") {
		t.Fatalf("message: %s", me)
	}
}
