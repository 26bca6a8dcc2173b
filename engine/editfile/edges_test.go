package editfile

import (
	"fmt"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/fault"
)

// TestUndoPastTheHistory: the undo after the kept history is used up says
// that older edits were not kept (it said "has undone every edit").
func TestUndoPastTheHistory(t *testing.T) {
	e := newEnv(t, map[string]string{"f.txt": "0\n"})
	e.view("f.txt")
	for i := 1; i <= UndoDepth+1; i++ {
		e.ok("str_replace", "f.txt", "old_str", fmt.Sprintf("%d\n", i-1), "new_str", fmt.Sprintf("%d\n", i))
	}
	for range UndoDepth {
		e.ok("undo_edit", "f.txt")
	}
	err := e.fail(fault.NotFound, "undo_edit", "f.txt")
	contains(t, err, "keeps the last 32 edits", "the 1 before them were not kept")
	if strings.Contains(err.Error(), "undone every edit") {
		t.Errorf("says every edit was undone: %v", err)
	}
}

// TestViewPastALineTooLongToShow: the advice for a view over the limit
// never sends the agent to a line that alone cannot be shown (it advised
// view_range [1, 1] "then continue from line 2", then refused line 2).
func TestViewPastALineTooLongToShow(t *testing.T) {
	long := strings.Repeat("x", MaxOutput+10)
	e := newEnv(t, map[string]string{"f.txt": "one\n" + long + "\nthree\nfour\n"})
	err := e.fail(fault.Bounds, "view", "f.txt")
	contains(t, err, "view_range [1, 1]", "line 2 alone is longer", "continue from line 3")
	// Line 2 alone: refused, saying where the lines after it are.
	err = e.fail(fault.Bounds, "view", "f.txt", "view_range", []int{2, -1})
	contains(t, err, "line 2 alone is longer", "view_range [3, 4]")
	e.ok("view", "f.txt", "view_range", []int{3, 4})
}

// TestNotUTF8SaysWhereAndWhat: a Latin-1 file is refused naming the line
// and column of the first byte that is not UTF-8 (it gave a byte offset),
// and a UTF-16 file is named as UTF-16 (it was "binary"); both say how to
// convert.
func TestNotUTF8SaysWhereAndWhat(t *testing.T) {
	e := newEnv(t, map[string]string{
		"latin1.txt": "one\ntwo caf\xe9\n",
		"utf16.txt":  "\xff\xfeh\x00i\x00\n\x00",
	})
	err := e.fail(fault.KindOf(e.callErr("view", "latin1.txt")), "view", "latin1.txt")
	contains(t, err, "line 2, column 8", "0xe9", "iconv")
	err = e.fail(fault.KindOf(e.callErr("view", "utf16.txt")), "view", "utf16.txt")
	contains(t, err, "UTF-16", "iconv -f UTF-16")
	if strings.Contains(err.Error(), "binary") {
		t.Errorf("UTF-16 called binary: %v", err)
	}
}

// callErr is the error of a call that must fail.
func (e *env) callErr(command, rel string, kv ...any) error {
	e.t.Helper()
	_, err := e.call(command, rel, kv...)
	if err == nil {
		e.t.Fatalf("%s %s: succeeded", command, rel)
	}
	return err
}
