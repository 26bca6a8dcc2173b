package patch

import (
	"reflect"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

func TestFromFindReplace(t *testing.T) {
	crlf := func(s string) text.Line { return text.Line{Text: s, EOL: text.CRLF} }
	tests := []struct {
		find, replace string
		old           []string
		new           []text.Line
		oldEOL        []string
	}{
		{"a\nb", "c", []string{"a", "b"}, ls("c"), nil},
		{"a\nb\n", "c\nd\n", []string{"a", "b"}, ls("c", "d"), nil},
		{"a\nb\n", "c\r\nd\n", []string{"a", "b"}, []text.Line{crlf("c"), {Text: "d"}}, nil},
		{"a\r\nb\r\n", "c\r\nd", []string{"a", "b"}, []text.Line{crlf("c"), {Text: "d"}}, []string{"\r\n", "\r\n"}},
		{"a\r\nb\n", "c\nd", []string{"a", "b"}, []text.Line{{Text: "c", EOL: "\n"}, {Text: "d"}}, []string{"\r\n", "\n"}},
		{"a\r\nb", "c\n", []string{"a", "b"}, []text.Line{{Text: "c", EOL: "\n"}}, []string{"\r\n", ""}},
		{"a\r", "c\r", []string{"a"}, []text.Line{crlf("c")}, []string{"\r\n"}},
		{"a", "", []string{"a"}, nil, nil},
		{"\n", "\n", []string{""}, ls(""), nil},
		{"a\n\nb", "a\n\n\nb", []string{"a", "", "b"}, ls("a", "", "", "b"), nil},
		{"", "x", nil, ls("x"), nil},
	}
	for _, tt := range tests {
		h := FromFindReplace(tt.find, tt.replace)
		if !reflect.DeepEqual(h.Old, tt.old) || !reflect.DeepEqual(h.New, tt.new) || !reflect.DeepEqual(h.OldEOL, tt.oldEOL) || h.Line != 0 || h.Hint != "" || h.EOF {
			t.Errorf("FromFindReplace(%q, %q) = %+v, want Old %q OldEOL %q New %+v", tt.find, tt.replace, h, tt.old, tt.oldEOL, tt.new)
		}
	}
}

func TestEditThroughApply(t *testing.T) {
	tests := []struct {
		name, file string
		edits      [][2]string
		want       string
	}{
		{"seed example", "{\n  port: 3000,\n  host: \"localhost\",\n}\n",
			[][2]string{{"  port: 3000,\n  host: \"localhost\",", "  port: 8080,\n  host: \"0.0.0.0\","}},
			"{\n  port: 8080,\n  host: \"0.0.0.0\",\n}\n"},
		{"empty replace deletes", "a\nb\nc\n", [][2]string{{"b\n", ""}}, "a\nc\n"},
		{"CRLF file, LF edit", "a\r\nb\r\nc\r\n", [][2]string{{"b", "x\ny"}}, "a\r\nx\r\ny\r\nc\r\n"},
		{"CRLF edit on a CRLF file", "a\r\nb\r\n", [][2]string{{"a\r\n", "A\r\n"}}, "A\r\nb\r\n"},
		{"two edits in order", "x\ny\nx\n", [][2]string{{"x\ny", "x\nY"}, {"x", "X"}}, "x\nY\nX\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var hunks []Hunk
			for _, e := range tt.edits {
				hunks = append(hunks, FromFindReplace(e[0], e[1]))
			}
			got, err := Apply(text.FromString(tt.file), hunks)
			if err != nil {
				t.Fatal(err)
			}
			if got.String() != tt.want {
				t.Fatalf("got %q, want %q", got.String(), tt.want)
			}
		})
	}
}
