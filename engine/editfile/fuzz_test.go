package editfile

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/devbroker/devbroker/engine/rootfs"
	"github.com/devbroker/devbroker/engine/unidiff"
)

// fuzzSession writes content to f.txt under a fresh root and returns a
// session that has viewed it, or nil when content is not editable text.
func fuzzSession(t *testing.T, content string) (*Session, string) {
	root := t.TempDir()
	full := filepath.Join(root, "f.txt")
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	fsys, err := rootfs.New(root)
	if err != nil {
		t.Fatal(err)
	}
	s := NewSession(fsys, nil)
	abs := filepath.Join(fsys.Root(), "f.txt")
	if _, err := s.Do(context.Background(), &Params{Command: "view", FilePath: abs}); err != nil {
		return nil, abs // not text: nothing to edit
	}
	return s, abs
}

func FuzzStrReplace(f *testing.F) {
	f.Add("a\nb\nc\n", "b", "B")
	f.Add("x x x\n", "x", "y")
	f.Add("one\r\ntwo\r\n", "one\ntwo", "1\n2")
	f.Add("\ufeffbom\n", "bom", "")
	f.Add("mixed\r\nlf\n", "\r\nlf", "\n")
	f.Add("no final", "final", "end\n")
	f.Add("\tindent\n", "    indent", "x")
	f.Fuzz(func(t *testing.T, content, oldStr, newStr string) {
		s, abs := fuzzSession(t, content)
		if s == nil {
			return
		}
		p := map[string]any{"command": "str_replace", "file_path": abs, "old_str": oldStr, "new_str": newStr}
		data, _ := json.Marshal(p)
		res, err := s.Call(context.Background(), data)
		got, rerr := os.ReadFile(abs)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			if string(got) != content {
				t.Fatalf("failed call (%v) changed the file: %q -> %q", err, content, got)
			}
			if n := len(s.undo["f.txt"]); n != 0 {
				t.Fatalf("failed call pushed %d undo entries", n)
			}
			return
		}
		if res.Revision != rev(string(got)) {
			t.Fatalf("result revision %s, disk %s", res.Revision, rev(string(got)))
		}
		// JSON turns invalid UTF-8 into U+FFFD: compare with what was sent.
		if !utf8.ValidString(oldStr) || !utf8.ValidString(newStr) {
			return
		}
		if !strings.Contains(content, "\r") && !strings.HasPrefix(content, "\ufeff") {
			// An LF file: exactly the byte-level replacement.
			if strings.Count(content, oldStr) != 1 {
				t.Fatalf("succeeded with old_str appearing %d times", strings.Count(content, oldStr))
			}
			if want := strings.Replace(content, oldStr, newStr, 1); string(got) != want {
				t.Fatalf("got %q, want %q", got, want)
			}
			if want := udiffWhole(abs, content, string(got)); res.Diff != want {
				t.Fatalf("diff\n%s\nwant\n%s", res.Diff, want)
			}
		}
		// Undo restores the original bytes.
		data, _ = json.Marshal(map[string]any{"command": "undo_edit", "file_path": abs})
		if _, err := s.Call(context.Background(), data); err != nil {
			t.Fatalf("undo: %v", err)
		}
		if back, _ := os.ReadFile(abs); string(back) != content {
			t.Fatalf("undo gave %q, want %q", back, content)
		}
	})
}

func FuzzPatch(f *testing.F) {
	f.Add("a\nb\nc\n", "@@ -1,2 +1,2 @@\n a\n-b\n+B\n")
	f.Add("a\r\nb\r\n", "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n+x\n\\ No newline at end of file\n")
	f.Add("a\nb", "@@ -1 +1 @@\n-a\n+A\n@@ -2 +2 @@\n-b\n\\ No newline at end of file\n+B\n")
	f.Add("x\nx\n", "@@ -1 +1 @@\n-x\n+y\n")
	f.Add("", "@@ -0,0 +1 @@\n+new\n")
	f.Add("a\nb\n", "@@ -1,2 +1,2 @@\n-a\n+A\n b\n@@ -2 +2 @@\n-b\n+B\n")
	f.Fuzz(func(t *testing.T, content, patch string) {
		s, abs := fuzzSession(t, content)
		if s == nil {
			return
		}
		data, _ := json.Marshal(map[string]any{"command": "patch", "file_path": abs, "patch": patch})
		res, err := s.Call(context.Background(), data)
		got, rerr := os.ReadFile(abs)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err != nil {
			if string(got) != content || len(s.undo["f.txt"]) != 0 {
				t.Fatalf("failed patch (%v) changed the file or the undo stack: %q -> %q", err, content, got)
			}
			return
		}
		if res.Revision != rev(string(got)) || string(got) == content {
			t.Fatalf("success without a change, or a wrong revision")
		}
		if !utf8.Valid(got) || strings.Contains(string(got), "\x00") {
			t.Fatalf("patch produced non-text %q", got)
		}
	})
}

// FuzzPatchWholeFile: a diff made from a file's real bytes (every line
// removed, terminators as they are) and another text's lines turns the file
// into exactly that text, whatever the line endings on either side (LF,
// CRLF, mixed): a conversion of terminators is applied as written.
func FuzzPatchWholeFile(f *testing.F) {
	f.Add("a\nb\n", "a\r\nb\r\n")
	f.Add("a\r\nb\r\n", "a\nb\n")
	f.Add("a\r\nb\nc\r\n", "a\nB\r\nc\nd\n")
	f.Add("x\r\r\n", "x\r\n")
	f.Fuzz(func(t *testing.T, content, want string) {
		for _, s := range []string{content, want} {
			if !utf8.ValidString(s) || strings.ContainsRune(s, 0) || strings.HasPrefix(s, "\ufeff") || s != "" && !strings.HasSuffix(s, "\n") {
				return
			}
		}
		if content == "" || content == want {
			return
		}
		old, nw := lines(content), lines(want)
		var b strings.Builder
		fmt.Fprintf(&b, "@@ -1,%d +1,%d @@\n", len(old), len(nw))
		for _, l := range old {
			b.WriteString("-" + l + "\n")
		}
		for _, l := range nw {
			b.WriteString("+" + l + "\n")
		}
		if hunks, err := unidiff.Parse(b.String()); err != nil || len(hunks) != 1 || len(hunks[0].Old) != len(old) {
			return // a line that reads as diff syntax ("\ No newline...")
		}
		s, abs := fuzzSession(t, content)
		if s == nil {
			return
		}
		data, _ := json.Marshal(map[string]any{"command": "patch", "file_path": abs, "patch": b.String()})
		if _, err := s.Call(context.Background(), data); err != nil {
			t.Fatalf("patch %q on %q: %v", b.String(), content, err)
		}
		if got, _ := os.ReadFile(abs); string(got) != want {
			t.Fatalf("patch %q on %q gave %q, want %q", b.String(), content, got, want)
		}
	})
}
