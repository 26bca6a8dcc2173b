package patch

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/text"
)

var seedPatches = []string{
	"*** Begin Patch\n*** Update File: src/server.ts\n--- src/server.ts\n+++ src/server.ts\n@@ -10,3 +10,3 @@\n-const port = 3000\n+const port = 8080\n*** End Patch",
	"*** Begin Patch\n*** Add File: a/new.go\n+package a\n+\n*** Delete File: old.txt\n*** Update File: main.go\n*** Move to: cmd/main.go\n@@ func main() {\n \tx := 1\n-\ty := 2\n+\ty := 3\n@@\n }\n+// end\n*** End of File\n*** End Patch\n",
	"*** Begin Patch\r\n*** Update File: a\r\n@@ h\r\n c\r\n-b\r\n+B\r\n*** End of File\r\n*** End Patch\r\n",
	"*** Begin Patch\n*** Update File: a\n@@\n a\n\n-b\n+c\n\n*** End Patch",
	"*** Begin Patch\n*** Update File: a\n+x\n*** End Patch",
	"--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n",
	"*** Begin Patch\n*** Update File: a\n@@\nfoo\n*** End Patch",
}

func FuzzParseEnvelope(f *testing.F) {
	for _, s := range seedPatches {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, patch string) {
		ops, err := ParseEnvelope(patch)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) && !errors.Is(err, ErrUnifiedDiff) {
				t.Fatalf("error %T is neither a *ParseError nor ErrUnifiedDiff: %v", err, err)
			}
			if pe != nil && (pe.Line < 0 || pe.Line > strings.Count(patch, "\n")+1) {
				t.Fatalf("line %d out of range: %v", pe.Line, err)
			}
			if ops != nil {
				t.Fatalf("ops with an error")
			}
			return
		}
		if len(ops) == 0 {
			t.Fatalf("no ops and no error")
		}
		for _, op := range ops {
			if op.Path == "" {
				t.Fatalf("empty path: %+v", op)
			}
			if op.Kind == Update && len(op.Hunks) == 0 && op.MoveTo == "" {
				t.Fatalf("update without hunks or move: %+v", op)
			}
			for _, h := range op.Hunks {
				if len(h.Old) == 0 && len(h.New) == 0 {
					t.Fatalf("empty hunk: %+v", op)
				}
			}
		}
		again, _ := ParseEnvelope(patch)
		if !reflect.DeepEqual(ops, again) {
			t.Fatalf("not deterministic")
		}
	})
}

func FuzzApply(f *testing.F) {
	f.Add("a\nb\nc\n", seedPatches[0], "b", "B")
	f.Add("a\r\nconst port = 3000\r\nb", seedPatches[0], "a\r\n", "")
	f.Add("x\ny\nx\n", seedPatches[3], "x", "z")
	f.Add(text.BOM+"func main() {\n\tx := 1\n\ty := 2\n}\n", seedPatches[1], "}", "}\n")
	f.Add("a\r\nb\nc", seedPatches[2], "b\nc", "q\r\nr")
	f.Fuzz(func(t *testing.T, file, patch, find, replace string) {
		doc, err := text.Parse([]byte(file))
		if err != nil {
			return
		}
		var hunks []Hunk
		if ops, err := ParseEnvelope(patch); err == nil {
			for _, op := range ops {
				hunks = append(hunks, op.Hunks...)
			}
		}
		edit := FromFindReplace(find, replace)
		if find != "" {
			hunks = append(hunks, edit)
		}
		before := doc.String()
		snapshot := text.FromString(before)

		got, err := Apply(doc, hunks)
		checkFastPath(t, doc, hunks)
		if doc.String() != before || !doc.Equal(snapshot) {
			t.Fatalf("Apply changed its input")
		}
		if err != nil {
			var me *MatchError
			if !errors.As(err, &me) || got != nil {
				t.Fatalf("Apply = %v, %T %v", got, err, err)
			}
			if !strings.HasPrefix(me.Msg, me.Unwrap().Error()+": ") {
				t.Fatalf("message does not begin with the seed's: %s", me)
			}
			for _, l := range me.Lines {
				if l < 1 || l > doc.Len() {
					t.Fatalf("line %d out of range 1-%d: %s", l, doc.Len(), me)
				}
			}
		} else {
			again, err := Apply(doc, hunks)
			if err != nil || !again.Equal(got) {
				t.Fatalf("Apply is not deterministic: %v", err)
			}
			if got.BOM() != doc.BOM() {
				t.Fatalf("BOM changed")
			}
			if doc.Len() > 0 && got.Len() > 0 && got.FinalNewline() != doc.FinalNewline() && !endsEmpty(doc, hunks) {
				t.Fatalf("final newline changed: %q → %q", doc.String(), got.String())
			}
			if !doc.Mixed() && !carriesCR(hunks) && got.Mixed() {
				t.Fatalf("a uniform file became mixed: %q → %q", doc.String(), got.String())
			}
		}
		if find != "" {
			checkAgainstNaive(t, doc, edit)
		}
	})
}

// checkFastPath checks that Apply's search of the content, when it
// answers, finds what Match finds over the split lines.
func checkFastPath(t *testing.T, doc *text.Doc, hunks []Hunk) {
	t.Helper()
	fast, ok := matchDoc(doc, hunks)
	if !ok {
		return
	}
	slow, err := Match(doc.Texts(), hunks)
	if err != nil || !reflect.DeepEqual(fast, slow) {
		t.Fatalf("content search found %v, the line matcher %v (%v)", fast, slow, err)
	}
}

// endsEmpty reports whether applying hunks leaves an empty last line: a
// file without a final newline whose last line becomes empty ends in the
// previous line's terminator, so its bytes end in a newline after all.
func endsEmpty(doc *text.Doc, hunks []Hunk) bool {
	reps, err := Match(doc.Texts(), hunks)
	if err != nil {
		return false
	}
	texts, prev := []string{}, 0
	for _, r := range reps {
		texts = append(texts, doc.Texts()[prev:r.Start]...)
		for _, l := range r.Lines {
			texts = append(texts, l.Text)
		}
		prev = r.End
	}
	texts = append(texts, doc.Texts()[prev:]...)
	return len(texts) > 0 && texts[len(texts)-1] == ""
}

func carriesCR(hunks []Hunk) bool {
	for _, h := range hunks {
		for _, l := range h.New {
			if l.EOL != "" || strings.HasSuffix(l.Text, "\r") {
				return true
			}
		}
	}
	return false
}

// checkAgainstNaive compares Apply of one hunk with a brute-force matcher.
func checkAgainstNaive(t *testing.T, doc *text.Doc, h Hunk) {
	lines := doc.Texts()
	var cands []int
	for p := 0; p+len(h.Old) <= len(lines); p++ {
		ok := true
		for i, o := range h.Old {
			if strings.TrimSuffix(lines[p+i], "\r") != strings.TrimSuffix(o, "\r") {
				ok = false
				break
			}
		}
		if ok {
			cands = append(cands, p)
		}
	}
	got, err := Apply(doc, []Hunk{h})
	var me *MatchError
	switch {
	case len(cands) == 0:
		if !errors.As(err, &me) || me.Kind != NoMatch {
			t.Fatalf("naive: no match; Apply: %v", err)
		}
	case len(cands) > 1:
		if !errors.As(err, &me) || me.Kind != Ambiguous || len(me.Lines) != len(cands) || me.Lines[0] != cands[0]+1 {
			t.Fatalf("naive: candidates %v; Apply: %v", cands, err)
		}
	default:
		if err != nil {
			t.Fatalf("naive: one match at %d; Apply: %v", cands[0], err)
		}
		p := cands[0]
		want := append([]string{}, lines[:p]...)
		for _, l := range h.New {
			want = append(want, l.Text)
		}
		want = append(want, lines[p+len(h.Old):]...)
		gotTexts := got.Texts()
		if n := len(want); n == len(gotTexts)+1 && want[n-1] == "" && !doc.FinalNewline() {
			// An empty last line without a terminator is no line: a
			// Doc's lines are those of its bytes.
			want = want[:n-1]
		}
		// Kept lines keep their file text, which may differ by a "\r".
		if len(gotTexts) != len(want) {
			t.Fatalf("naive: %q; Apply: %q", want, gotTexts)
		}
		for i := range want {
			if strings.TrimSuffix(gotTexts[i], "\r") != strings.TrimSuffix(want[i], "\r") {
				t.Fatalf("naive: %q; Apply: %q", want, gotTexts)
			}
		}
	}
}

// FuzzWholeFile: a hunk made from a file's real bytes (every line removed,
// terminators as they are) and another text's lines (added, terminators as
// they are) turns the file into exactly that text, whatever the endings on
// either side: an LF to CRLF conversion and back round-trip byte for byte.
// The same holds for an edit whose find is the file and replace the text.
func FuzzWholeFile(f *testing.F) {
	f.Add("a\nb\n", "a\r\nb\r\n")
	f.Add("a\r\nb\r\n", "a\nb\n")
	f.Add("a\r\nb\nc\r\n", "a\nB\r\nc\nd\n")
	f.Add("x\r\r\n", "x\r\n")
	f.Add("a\n", "")
	f.Fuzz(func(t *testing.T, file, want string) {
		for _, s := range []string{file, want} {
			if _, err := text.Parse([]byte(s)); err != nil || strings.HasPrefix(s, text.BOM) || s != "" && !strings.HasSuffix(s, "\n") {
				return
			}
		}
		if file == "" {
			return // no lines to remove: a pure addition
		}
		var b strings.Builder
		b.WriteString("*** Begin Patch\n*** Update File: f\n@@\n")
		for _, l := range text.SplitLines(file) {
			b.WriteString("-" + l.Text + l.EOL)
		}
		for _, l := range text.SplitLines(want) {
			b.WriteString("+" + l.Text + l.EOL)
		}
		b.WriteString("*** End Patch\n")
		ops, err := ParseEnvelope(b.String())
		if err != nil {
			t.Fatalf("ParseEnvelope(%q): %v", b.String(), err)
		}
		doc := text.FromString(file)
		for _, hunks := range [][]Hunk{ops[0].Hunks, {FromFindReplace(file, want)}} {
			got, err := Apply(doc, hunks)
			if err != nil {
				t.Fatalf("Apply(%q, %+v): %v", file, hunks, err)
			}
			if got.String() != want {
				t.Fatalf("Apply(%q, %+v) = %q, want %q", file, hunks, got.String(), want)
			}
		}
	})
}
