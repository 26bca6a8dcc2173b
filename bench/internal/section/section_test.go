package section

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReplace(t *testing.T) {
	doc := Replace("# results\n\ntable\n", "startup", "one")
	if want := "# results\n\ntable\n\n<!-- startup -->\none\n<!-- /startup -->\n"; doc != want {
		t.Fatalf("appended:\n%q\nwant\n%q", doc, want)
	}
	doc = Replace(doc+"after\n", "startup", "two\n")
	if want := "# results\n\ntable\n\n<!-- startup -->\ntwo\n<!-- /startup -->\nafter\n"; doc != want {
		t.Fatalf("replaced:\n%q\nwant\n%q", doc, want)
	}
	if got, want := Keep(doc, "other"), "\n<!-- startup -->\ntwo\n<!-- /startup -->\n"; got != want {
		t.Fatalf("Keep = %q, want %q", got, want)
	}
	if got := Keep(doc, "startup"); got != "" {
		t.Fatalf("Keep without startup = %q", got)
	}
}

func TestLeading(t *testing.T) {
	doc := "<!-- lead -->\nfirst\n<!-- /lead -->\n\n# results\n\n<!-- other -->\nx\n<!-- /other -->\n"
	if got, want := Leading(doc, "lead"), "<!-- lead -->\nfirst\n<!-- /lead -->\n\n"; got != want {
		t.Fatalf("Leading = %q, want %q", got, want)
	}
	if got := Leading(doc, "other"); got != "" {
		t.Fatalf("a section that does not lead: %q", got)
	}
	if got := Leading("# results\n", "lead"); got != "" {
		t.Fatalf("no section: %q", got)
	}
	// Rewriting the top keeps the leading section first and the others after.
	top := Leading(doc, "lead") + "# new results\n" + Keep(doc, "lead")
	if want := "<!-- lead -->\nfirst\n<!-- /lead -->\n\n# new results\n\n<!-- other -->\nx\n<!-- /other -->\n"; top != want {
		t.Fatalf("rewritten:\n%q\nwant\n%q", top, want)
	}
}

// FuzzReplace: replacing twice is replacing once, and the body is kept.
func FuzzReplace(f *testing.F) {
	f.Add("# r\n<!-- s -->\nx\n<!-- /s -->\n", "y")
	f.Add("<!-- /s -->\n<!-- s -->\n", "")
	f.Fuzz(func(t *testing.T, doc, body string) {
		if strings.Contains(body, "<!--") {
			return // a body holding markers is not a body
		}
		once := Replace(doc, "s", body)
		if twice := Replace(once, "s", body); twice != once {
			t.Fatalf("not idempotent:\n%q\n%q", once, twice)
		}
		_ = Keep(once, "")
		_ = Leading(once, "s")
	})
}

// TestWrite: Write rewrites its section of a file and keeps the others;
// a file that does not exist yet gets just the section.
func TestWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "RESULTS.md")
	if err := Write(path, "a", "one"); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, "b", "two"); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, "a", "three"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := "<!-- a -->\nthree\n<!-- /a -->\n\n<!-- b -->\ntwo\n<!-- /b -->\n"
	if string(got) != want {
		t.Errorf("file = %q, want %q", got, want)
	}
}

// TestReplaceAfter: a new section goes right after the one named, an
// existing one stays where it is, and without the one named it is
// appended.
func TestReplaceAfter(t *testing.T) {
	doc := "<!-- nav -->\nx\n<!-- /nav -->\n\n<!-- cold -->\ny\n<!-- /cold -->\n"
	doc = ReplaceAfter(doc, "nav mod", "nav", "one")
	want := "<!-- nav -->\nx\n<!-- /nav -->\n\n<!-- nav mod -->\none\n<!-- /nav mod -->\n\n<!-- cold -->\ny\n<!-- /cold -->\n"
	if doc != want {
		t.Fatalf("inserted:\n%q\nwant\n%q", doc, want)
	}
	if got, want2 := ReplaceAfter(doc, "nav mod", "nav", "two"), strings.Replace(want, "one", "two", 1); got != want2 {
		t.Fatalf("replaced:\n%q\nwant\n%q", got, want2)
	}
	if got := ReplaceAfter(doc, "nav", "nav mod", "z"); got != strings.Replace(doc, "\nx\n", "\nz\n", 1) {
		t.Fatalf("the section itself, replaced in place: %q", got)
	}
	if got, want := ReplaceAfter("# r\n", "nav mod", "nav", "one"), "# r\n\n<!-- nav mod -->\none\n<!-- /nav mod -->\n"; got != want {
		t.Fatalf("without the one named: %q, want %q", got, want)
	}
}
