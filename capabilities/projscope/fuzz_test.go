package projscope

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// FuzzStandardJSON: any input is answered without panicking; the output
// keeps every offset (same length, line breaks where they were); plain
// JSON comes back as it is; and what comes back is JSON when the input,
// read as TypeScript reads it, was.
func FuzzStandardJSON(f *testing.F) {
	f.Add([]byte("{\n  // c\n  \"a\": [1, 2,],\n}"))
	f.Add([]byte(`{"a": "/* no */", /* yes */ "b": [,]}`))
	f.Add([]byte("\ufeff{}"))
	f.Add([]byte(`{"a": "\"//"}`))
	f.Add([]byte("/*"))
	f.Fuzz(func(t *testing.T, src []byte) {
		out, err := StandardJSON(src)
		if err != nil {
			return
		}
		if len(out) != len(src) {
			t.Fatalf("length %d, want %d", len(out), len(src))
		}
		if bytes.Count(out, []byte("\n")) != bytes.Count(src, []byte("\n")) {
			t.Fatal("line breaks moved")
		}
		if json.Valid(src) && !bytes.HasPrefix(src, []byte("\ufeff")) && !bytes.Equal(out, src) {
			t.Fatalf("plain JSON changed: %q -> %q", src, out)
		}
	})
}

// FuzzTSConfig: any tsconfig.json (and a base it extends, a project it
// references) gives a scope or warnings, never a panic, and the same
// answer twice.
func FuzzTSConfig(f *testing.F) {
	f.Add(`{"include": ["src"], "exclude": ["**/*.spec.ts"]}`, `{"include": ["*"]}`, "src/a.spec.ts")
	f.Add(`{"extends": "./base", "files": ["a.ts"]}`, `{"include": ["../x"], "compilerOptions": {"outDir": "d"}}`, "x/y.ts")
	f.Add(`{"files": [], "references": [{"path": "./base.json"}, {"path": "../out"}]}`, `{"extends": "./tsconfig.json"}`, "a.js")
	f.Add(`{"include": ["**/*", "?*.ts", "src/**/*.min.js"], "compilerOptions": {"allowJs": true}}`, ``, "src/node_modules/a.min.js")
	f.Fuzz(func(t *testing.T, config, base, rel string) {
		files := map[string]string{"tsconfig.json": config, "base.json": base}
		s1, w1 := TSConfig(mapRead(files), "")
		s2, w2 := TSConfig(mapRead(files), "")
		if (s1 == nil) != (s2 == nil) || strings.Join(w1, "\n") != strings.Join(w2, "\n") {
			t.Fatal("not deterministic")
		}
		if s1 == nil || rel == "" || strings.HasPrefix(rel, "/") {
			return
		}
		why1, out1 := s1.Leaves(rel)
		why2, out2 := s2.Leaves(rel)
		if why1 != why2 || out1 != out2 || out1 != (why1 != "") {
			t.Fatalf("Leaves(%q) = %q %v, then %q %v", rel, why1, out1, why2, out2)
		}
	})
}

// FuzzPyright: any pyproject.toml or pyrightconfig.json gives a scope or
// warnings, never a panic; a path below an include entry that no exclude
// names is in the scope.
func FuzzPyright(f *testing.F) {
	f.Add("[tool.pyright]\ninclude = [\"src/requests\"]\nexclude = [\"**/gen\"]\n", "", "src/requests/a.py")
	f.Add("", "{\"include\": [\"src\",], // c\n\"ignore\": [\"x\"]}", "x/a.py")
	f.Add("[tool.pyright]\ninclude = [\"a/**/b?\"]\n", "", "a/q/r/bc/d.py")
	f.Fuzz(func(t *testing.T, pyproject, pyrightconfig, rel string) {
		files := map[string]string{"pyproject.toml": pyproject}
		if pyrightconfig != "" {
			files["pyrightconfig.json"] = pyrightconfig
		}
		s, _ := Pyright(mapRead(files), "")
		if s == nil || rel == "" {
			return
		}
		why, out := s.Leaves(rel)
		if out != (why != "") {
			t.Fatalf("Leaves(%q) = %q, %v", rel, why, out)
		}
	})
}

// FuzzTSExclude: the segment matcher of an exclude spec answers as
// TypeScript's regular expression for it does (exclude's has no
// lookahead, so Go's regexp can run it).
func FuzzTSExclude(f *testing.F) {
	f.Add("node_modules", "node_modules/a/b.ts")
	f.Add("**/*.spec.ts", "src/x/a.spec.ts")
	f.Add("src/*/gen", "src/a/gen/b.ts")
	f.Add("a?c/**", "abc/d")
	f.Add("**/**/*x*", "p/q/yxz")
	f.Fuzz(func(t *testing.T, spec, rel string) {
		if strings.ContainsAny(spec, "\\\x00") || rel == "" || strings.HasPrefix(rel, "/") || strings.HasSuffix(rel, "/") || strings.Contains(rel, "//") {
			return
		}
		s, ok := newTSSpec("", spec, true)
		if !ok {
			return
		}
		re := tsExcludeRegexp(s.comps)
		if want := re.MatchString("/" + rel); s.excludes(rel) != want {
			t.Fatalf("exclude %q (%v) of %q: %v, the regular expression %s says %v", spec, s.comps, rel, !want, re, want)
		}
	})
}

// tsExcludeRegexp is TypeScript's regular expression for an exclude
// spec's components, for a subject written "/" + its path.
func tsExcludeRegexp(comps []string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^(")
	for _, c := range comps {
		if c == "**" {
			b.WriteString("(/.+?)?")
			continue
		}
		b.WriteByte('/')
		for _, r := range c {
			switch r {
			case '*':
				b.WriteString("[^/]*")
			case '?':
				b.WriteString("[^/]")
			default:
				b.WriteString(regexp.QuoteMeta(string(r)))
			}
		}
	}
	b.WriteString(")($|/)")
	return regexp.MustCompile(b.String())
}
