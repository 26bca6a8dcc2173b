package editfile

import (
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

// FuzzRevisionResume checks that a revision resumed from the saved states
// of an earlier content equals a full hash of the new one, wherever the
// edit falls and whatever its size.
func FuzzRevisionResume(f *testing.F) {
	f.Add([]byte("package p\n"), uint32(3*revChunk+5), uint32(7), "x", uint16(4))
	f.Add([]byte("ab"), uint32(revChunk), uint32(0), "", uint16(2))
	f.Add([]byte{}, uint32(0), uint32(0), "new", uint16(0))
	f.Fuzz(func(t *testing.T, unit []byte, off, cut uint32, ins string, reps uint16) {
		if len(unit) == 0 {
			unit = []byte{'a'}
		}
		// Contents of a few chunks, built from a short unit.
		n := int(reps)%8*revChunk/len(unit) + int(reps)
		before := []byte(strings.Repeat(string(unit), n+1))
		at := int(off) % (len(before) + 1)
		end := min(len(before), at+int(cut)%(2*revChunk))
		now := string(before[:at]) + ins + string(before[end:])

		rev, sums := revisionOf(nil, 0, before)
		if want := text.Revision(before); rev != want {
			t.Fatalf("full hash: %s, want %s", rev, want)
		}
		if len(sums) != len(before)/revChunk {
			t.Fatalf("%d sums for %d bytes", len(sums), len(before))
		}
		k := commonPrefix(before, now)
		if k > min(len(before), len(now)) || string(before[:k]) != now[:k] || (k < min(len(before), len(now)) && before[k] == now[k]) {
			t.Fatalf("commonPrefix = %d: wrong", k)
		}
		got, nowSums := revisionOf(sums, k, now)
		if want := text.Revision([]byte(now)); got != want {
			t.Fatalf("resumed at %d: %s, want %s", k, got, want)
		}
		_, full := revisionOf(nil, 0, now)
		if len(nowSums) != len(full) {
			t.Fatalf("resumed sums: %d, full: %d", len(nowSums), len(full))
		}
		for i := range full {
			if string(full[i]) != string(nowSums[i]) {
				t.Fatalf("sum %d differs", i)
			}
		}
	})
}

// TestResumedRevisions edits files of several hash chunks (with and
// without a BOM, the edit near the start, in the middle, at the end):
// every revision the session reports, resumed from its saved states, is
// the SHA-256 revision of the bytes, for a dry run, an edit, a load of
// the edited file, a same-size change on disk and an undo.
func TestResumedRevisions(t *testing.T) {
	for _, bom := range []string{"", text.BOM} {
		for _, at := range []string{"first", "middle", "final"} {
			body := "first\n" + strings.Repeat("line of text\n", 3*revChunk/13) + "middle\n" +
				strings.Repeat("more text\n", 2*revChunk/10) + "final\n"
			big := bom + body
			e := newEnv(t, map[string]string{"big.txt": big})
			if r := e.ok("view", "big.txt", "view_range", []int{1, 3}); r.Revision != rev(big) {
				t.Fatalf("view: %s, want %s", r.Revision, rev(big))
			}
			want := strings.Replace(big, at, at+"!", 1)
			r := e.ok("str_replace", "big.txt", "old_str", at+"\n", "new_str", at+"!\n", "dry_run", true)
			if r.Revision != rev(want) {
				t.Fatalf("%s: dry run %s, want %s", at, r.Revision, rev(want))
			}
			r = e.ok("str_replace", "big.txt", "old_str", at+"\n", "new_str", at+"!\n")
			if r.Revision != rev(want) || e.disk("big.txt") != want {
				t.Fatalf("%s: edit %s, want %s", at, r.Revision, rev(want))
			}
			if r := e.ok("view", "big.txt", "view_range", []int{1, 3}); r.Revision != rev(want) {
				t.Fatalf("%s: view after edit %s, want %s", at, r.Revision, rev(want))
			}
			other := strings.Replace(want, at+"!", at+"?", 1)
			e.outside("big.txt", other)
			if r := e.ok("view", "big.txt", "view_range", []int{1, 3}); r.Revision != rev(other) {
				t.Fatalf("%s: view after outside change %s, want %s", at, r.Revision, rev(other))
			}
			r = e.ok("str_replace", "big.txt", "old_str", at+"?", "new_str", at+"!")
			if r.Revision != rev(want) {
				t.Fatalf("%s: second edit %s, want %s", at, r.Revision, rev(want))
			}
			if r := e.ok("undo_edit", "big.txt"); r.Revision != rev(other) || e.disk("big.txt") != other {
				t.Fatalf("%s: undo %s, want %s", at, r.Revision, rev(other))
			}
		}
	}
}
