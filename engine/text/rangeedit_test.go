package text

import (
	"strings"
	"testing"
)

// TestApplyRanges: columns count in the unit asked for, past-the-end
// positions clamp, and a reversed range is refused, naming it.
func TestApplyRanges(t *testing.T) {
	s := "héllo\nwörld\n"
	got, err := ApplyRanges(s, []RangeEdit{{StartLine: 0, StartCol: 2, EndLine: 0, EndCol: 3, New: "L"}, {StartLine: 1, StartCol: 9, EndLine: 1, EndCol: 9, New: "!"}}, UTF16)
	if err != nil || got != "héLlo\nwörld!\n" {
		t.Errorf("UTF-16: got %q, %v", got, err)
	}
	got, err = ApplyRanges(s, []RangeEdit{{StartLine: 0, StartCol: 3, EndLine: 0, EndCol: 4, New: "L"}}, Bytes)
	if err != nil || got != "héLlo\nwörld\n" {
		t.Errorf("bytes: got %q, %v", got, err)
	}
	got, err = ApplyRanges(s, []RangeEdit{{StartLine: 1, StartCol: 2, EndLine: 0, EndCol: 1}}, UTF16)
	if err == nil || got != s || !strings.Contains(err.Error(), "range 1:2-0:1 ends before it starts") {
		t.Errorf("reversed: got %q, %v", got, err)
	}
}
