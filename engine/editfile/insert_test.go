package editfile

import (
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

func TestInsert(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		kv        []any
		want      string
	}{
		{"top", "a\nb\n", []any{"insert_line", 0, "new_str", "x"}, "x\na\nb\n"},
		{"middle", "a\nb\n", []any{"insert_line", 1, "new_str", "x\n"}, "a\nx\nb\n"},
		{"end", "a\nb\n", []any{"insert_line", 2, "new_str", "x\ny"}, "a\nb\nx\ny\n"},
		{"empty file", "", []any{"insert_line", 0, "new_str", "x"}, "x\n"},
		// Never glued onto a last line without a newline, and the file
		// stays without a final newline.
		{"end, no final newline", "a\nb", []any{"insert_line", 2, "new_str", "x"}, "a\nb\nx"},
		{"end, no final newline, new_str with newline", "a\nb", []any{"insert_line", 2, "new_str", "x\n"}, "a\nb\nx"},
		{"top, no final newline", "a\nb", []any{"insert_line", 0, "new_str", "x"}, "x\na\nb"},
		{"before anchor", "a\nbb\nc\n", []any{"insert_before_anchor", "bb", "new_str", "x"}, "a\nx\nbb\nc\n"},
		{"after anchor mid-line", "a\nbcde\nf\n", []any{"insert_after_anchor", "cd", "new_str", "x"}, "a\nbcde\nx\nf\n"},
		{"after anchor", "a\nbb\nc\n", []any{"insert_after_anchor", "bb", "new_str", "x"}, "a\nbb\nx\nc\n"},
		// An anchor ending in "\n" still names its own line.
		{"after anchor with newline", "a\nbb\nc\n", []any{"insert_after_anchor", "bb\n", "new_str", "x"}, "a\nbb\nx\nc\n"},
		{"after multi-line anchor", "a\nbb\nc\n", []any{"insert_after_anchor", "a\nbb", "new_str", "x"}, "a\nbb\nx\nc\n"},
		{"after last-line anchor, no final newline", "a\nb", []any{"insert_after_anchor", "b", "new_str", "x"}, "a\nb\nx"},
		// Inserted lines take the file's ending: all CRLF...
		{"crlf", "a\r\nb\r\n", []any{"insert_line", 1, "new_str", "x\ny"}, "a\r\nx\r\ny\r\nb\r\n"},
		{"crlf, no final newline", "a\r\nb", []any{"insert_line", 2, "new_str", "x"}, "a\r\nb\r\nx"},
		// ... or the dominant one of a mixed file.
		{"mixed, CRLF dominant", "a\r\nb\r\nc\n", []any{"insert_line", 3, "new_str", "x\ny"}, "a\r\nb\r\nc\nx\r\ny\r\n"},
		{"mixed, LF dominant", "a\nb\nc\r\n", []any{"insert_line", 0, "new_str", "x"}, "x\na\nb\nc\r\n"},
		{"bom", "\ufeffa\n", []any{"insert_line", 0, "new_str", "x"}, "\ufeffx\na\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, map[string]string{"f.txt": tc.src})
			e.view("f.txt")
			r := e.ok("insert", "f.txt", tc.kv...)
			if got := e.disk("f.txt"); got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			contains(t, r, "Edited", "revision: "+rev(tc.want))
		})
	}
}

func TestInsertErrors(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "a\nb\na\n"})
	e.view("f.txt")
	contains(t, e.fail(fault.Bounds, "insert", "f.txt", "insert_line", 4, "new_str", "x"), "3 lines", "0 (top) to 3 (end)")
	contains(t, e.fail(fault.Bounds, "insert", "f.txt", "insert_line", -1, "new_str", "x"), "out of range")
	contains(t, e.fail(fault.Ambiguous, "insert", "f.txt", "insert_before_anchor", "a", "new_str", "x"), "lines 1, 3")
	contains(t, e.fail(fault.Ambiguous, "insert", "f.txt", "insert_after_anchor", "a", "new_str", "x"), "lines 1, 3")
	contains(t, e.fail(fault.NoMatch, "insert", "f.txt", "insert_after_anchor", "zz", "new_str", "x"), "not found")
	contains(t, e.fail(fault.BadArgument, "insert", "f.txt", "new_str", "x"), "exactly one")
	contains(t, e.fail(fault.BadArgument, "insert", "f.txt", "insert_line", 0, "insert_after_anchor", "b", "new_str", "x"), "exactly one")
	contains(t, e.fail(fault.BadArgument, "insert", "f.txt", "insert_line", 0), "new_str")
	contains(t, e.fail(fault.BadArgument, "insert", "f.txt", "insert_line", 0, "new_str", ""), "empty")
	if e.disk("f.txt") != "a\nb\na\n" || e.undoDepth("f.txt") != 0 {
		t.Error("a failed insert changed something")
	}
}
