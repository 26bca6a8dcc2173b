package symbols

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// archive is a txtar file: a comment, then files introduced by "-- name --".
type archive struct {
	comment string
	files   []archiveFile
}

type archiveFile struct {
	name, data string
}

func parseArchive(data string) archive {
	var a archive
	cur := -1
	for line := range strings.SplitAfterSeq(data, "\n") {
		if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimRight(line, "\n"), " --") {
			name := strings.TrimSuffix(strings.TrimPrefix(strings.TrimRight(line, "\n"), "-- "), " --")
			a.files = append(a.files, archiveFile{name: name})
			cur = len(a.files) - 1
			continue
		}
		if cur < 0 {
			a.comment += line
		} else {
			a.files[cur].data += line
		}
	}
	return a
}

// formatSymbol renders s as "start head decl end kind".
func formatSymbol(s Symbol) string {
	return fmt.Sprintf("%d %d %d %d %s", s.StartLine, s.HeadLine, s.DeclLine, s.EndLine, s.Kind)
}

// TestTestdata runs the expectations in the comment of each
// testdata/*.txtar against its file. An expectation line is
//
//	NAME KIND => START HEAD DECL END KIND [; START HEAD DECL END KIND ...]
//	NAME KIND => none
//	NAME KIND => error: SUBSTRING
//
// where KIND "-" is no kind; "=> error:" uses Lookup, the others Find.
func TestTestdata(t *testing.T) {
	paths, err := filepath.Glob("testdata/*.txtar")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			a := parseArchive(string(data))
			if len(a.files) != 1 {
				t.Fatalf("want exactly one file, have %d", len(a.files))
			}
			f := a.files[0]
			n := 0
			for i, line := range strings.Split(a.comment, "\n") {
				line = strings.TrimSpace(line)
				if line == "" || strings.HasPrefix(line, "#") {
					continue
				}
				n++
				lhs, want, ok := strings.Cut(line, "=>")
				fields := strings.Fields(lhs)
				if !ok || len(fields) < 2 {
					t.Fatalf("line %d: bad expectation %q", i+1, line)
				}
				name, kind := strings.Join(fields[:len(fields)-1], " "), fields[len(fields)-1]
				if kind == "-" {
					kind = ""
				}
				want = strings.TrimSpace(want)
				if sub, ok := strings.CutPrefix(want, "error:"); ok {
					_, err := Lookup(f.name, f.data, name, kind)
					if err == nil || !strings.Contains(err.Error(), strings.TrimSpace(sub)) {
						t.Errorf("Lookup(%s, %q): error %v, want one containing %q", f.name, kind, err, strings.TrimSpace(sub))
					}
					continue
				}
				syms, err := Find(f.name, f.data, name, kind)
				if err != nil {
					t.Errorf("Find(%s, %q): %v", name, kind, err)
					continue
				}
				var got []string
				for _, s := range syms {
					got = append(got, formatSymbol(s))
				}
				gotS := strings.Join(got, "; ")
				if gotS == "" {
					gotS = "none"
				}
				if gotS != want {
					t.Errorf("Find(%s, %q) = %s, want %s", name, kind, gotS, want)
				}
			}
			if n == 0 {
				t.Fatal("no expectations")
			}
		})
	}
}

// dump renders every declaration of src, for debugging a test.
func dump(filename, src string) string {
	var b strings.Builder
	lang := languageFor(filename)
	_ = scan(src, lang, func(d *decl) error {
		end, err := d.extent(src, lang)
		s := d.symbol(d.name, end)
		fmt.Fprintf(&b, "%s %q %s %s %s err=%v\n", d.name, d.qualified(), d.keyword, formatSymbol(s), "", err)
		return nil
	})
	return b.String()
}

func TestDump(t *testing.T) {
	path := os.Getenv("SYMBOLS_DUMP")
	if path == "" {
		t.Skip("set SYMBOLS_DUMP to a file")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	name := path
	if a := parseArchive(string(data)); len(a.files) == 1 {
		name, data = a.files[0].name, []byte(a.files[0].data)
	}
	t.Log("\n" + dump(name, string(data)))
}
