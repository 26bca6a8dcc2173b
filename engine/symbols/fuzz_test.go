package symbols

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fuzzExts are the file names FuzzFind tries, one per lexer variant.
var fuzzExts = []string{"x.go", "x.py", "x.ts", "x.rs", "x.kt", "x.java", "x.cs", "x.cpp"}

// FuzzFind checks that Find never panics and that every extent it returns
// lies within the file with StartLine <= HeadLine <= DeclLine <= EndLine;
// and the same for every declaration the scanner sees.
func FuzzFind(f *testing.F) {
	paths, _ := filepath.Glob("testdata/*.txtar")
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		a := parseArchive(string(data))
		for _, file := range a.files {
			for i, ext := range fuzzExts {
				if filepath.Ext(ext) == filepath.Ext(file.name) {
					f.Add(uint8(i), file.data, "Foo", "")
				}
			}
		}
	}
	f.Add(uint8(2), "const s = `${ {a: `}`} }`; class A { m() { return /}/ } }", "m", "method")
	f.Add(uint8(3), "impl<'a> X<'a> { fn f() { let c = '}'; r#\"}\"#; /* /* } */ */ } }", "f", "")
	f.Fuzz(func(t *testing.T, lang uint8, src, name, kind string) {
		file := fuzzExts[int(lang)%len(fuzzExts)]
		lines := strings.Count(src, "\n") + 1
		check := func(s Symbol) {
			if s.StartLine < 1 || s.StartLine > s.HeadLine || s.HeadLine > s.DeclLine ||
				s.DeclLine > s.EndLine || s.EndLine > lines {
				t.Fatalf("%s: bad extent %+v in a file of %d lines", file, s, lines)
			}
		}
		syms, _ := Find(file, src, name, kind)
		for _, s := range syms {
			check(s)
		}
		l := languageFor(file)
		_ = scan(src, l, func(d *decl) error {
			if end, err := d.extent(src, l); err == nil {
				check(d.symbol(d.name, end))
			}
			return nil
		})
	})
}

// generate returns about size bytes of Go source with func Target near the
// end.
func generate(size int) string {
	var b strings.Builder
	b.WriteString("package gen\n\n")
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, `// Item%[1]d is a generated type.
type Item%[1]d struct {
	Name  string // "}"
	Count int
}

// Method%[1]d does things with braces in strings and runes: "{", '}'.
func (it *Item%[1]d) Method%[1]d(x map[string]struct{}) (int, error) {
	s := `+"`raw { string`"+`
	if it.Count > %[1]d {
		return len(s) + int('{'), nil
	}
	/* a } comment */
	for k := range x {
		_ = k
	}
	return 0, nil
}

`, i)
	}
	b.WriteString("// Target is the symbol looked up.\nfunc Target() {\n\treturn\n}\n")
	return b.String()
}

func benchmarkLookup(b *testing.B, size int) {
	src := generate(size)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := Lookup("gen.go", src, "Target", "")
		if err != nil || s.EndLine-s.DeclLine != 2 {
			b.Fatalf("Lookup = %+v, %v", s, err)
		}
	}
}

func BenchmarkLookup1MB(b *testing.B)  { benchmarkLookup(b, 1<<20) }
func BenchmarkLookup10MB(b *testing.B) { benchmarkLookup(b, 10<<20) }
