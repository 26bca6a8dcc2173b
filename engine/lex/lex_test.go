package lex

import (
	"fmt"
	"strings"
	"testing"
)

// tokens renders the tokens of src other than Space as "Kind:text".
func tokens(t *testing.T, file, src string) []string {
	t.Helper()
	lang := ForFile(file)
	if lang == nil {
		t.Fatalf("%s: no language", file)
	}
	var out []string
	toks := checkTokens(t, lang, src)
	checkSkipSpace(t, lang, src, toks)
	for _, tok := range toks {
		if tok.Kind != Space {
			out = append(out, fmt.Sprintf("%v:%s", tok.Kind, src[tok.Start:tok.End]))
		}
	}
	return out
}

func TestTokens(t *testing.T) {
	cases := []struct {
		file, src string
		want      []string
	}{
		{"a.cpp", `R"x(a " ) })x" u8R"(})"`, []string{`String:R"x(a " ) })x"`, `String:u8R"(})"`}},
		{"a.cpp", "#define A \\\n  { /* x\n */ }\nint", []string{"Directive:#define A \\\n  { /* x\n */ }", "Ident:int"}},
		{"a.cpp", "1'000 'x' '\\''", []string{"Number:1'000", "String:'x'", `String:'\''`}},
		{"a.scala", "'\\\n'", []string{"Punct:'", "Punct:\\", "Punct:'"}},                        // an escaped line break is no character
		{"a.js", "x = /\\\n/", []string{"Ident:x", "Punct:=", "Punct:/", "Punct:\\", "Punct:/"}}, // nor part of a regular expression
		{"a.cs", `@"C:\{""x""" $"{x:N2}}" """a""b"""`, []string{`String:@"C:\{""x"""`, `StrOpen:$"{`, "Ident:x", `StrClose::N2}}"`, `String:"""a""b"""`}},
		{"a.rs", `r#"a"}"# b'(' 'a /* /* } */ */ r#match`, []string{`String:r#"a"}"#`, "Ident:b", "String:'('", "Ident:'a", "Comment:/* /* } */ */", "Ident:r#match"}},
		{"a.js", "x = /[/]}/g; a / b / c; return /}/", []string{"Ident:x", "Punct:=", "String:/[/]}/g", "Punct:;",
			"Ident:a", "Punct:/", "Ident:b", "Punct:/", "Ident:c", "Punct:;", "Ident:return", "String:/}/"}},
		{"a.js", "`a ${ {b: `}`} } c`", []string{"StrOpen:`a ${", "Punct:{", "Ident:b", "Punct::", "String:`}`", "Punct:}", "StrClose:} c`"}},
		{"a.jsx", "<p>Don't</p>", []string{"Punct:<", "Ident:p", "Punct:>", "Ident:Don", "Punct:'", "Ident:t", "Punct:<", "Punct:/", "Ident:p", "Punct:>"}},
		{"a.kt", `"""{ "a" """" "${x}"`, []string{`String:"""{ "a" """"`, `StrOpen:"${`, "Ident:x", `StrClose:}"`}},
		{"a.py", "f'{x!r:>{w}}' rb'\\'' \\\n'''a\n'''", []string{"StrOpen:f'{", "Ident:x", "Punct:!", "Ident:r", "StrClose::>{w}}'", `String:rb'\''`, "String:'''a\n'''"}},
		{"a.go", "`{` '}' x <- y", []string{"String:`{`", "String:'}'", "Ident:x", "Punct:<-", "Ident:y"}},
		{"a.swift", `#"a"}"# #if`, []string{`String:#"a"}"#`, "Punct:#", "Ident:if"}},
		{"a.php", "<p>(<?php # }\n$h = <<<E\n{\nE; ?>)", []string{"Text:<p>(<?php", "Comment:# }", "Ident:$h", "Punct:=", "String:<<<E\n{\nE", "Punct:;", "Punct:?>", "Text:)"}},
		{"a.css", "url(//x/a(.png) /* } */", []string{"String:url(//x/a(.png)", "Comment:/* } */"}},
	}
	for _, c := range cases {
		got := tokens(t, c.file, c.src)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s %q:\n got %q\nwant %q", c.file, c.src, got, c.want)
		}
	}
}

func TestErrors(t *testing.T) {
	cases := []struct{ file, src, want string }{
		{"a.java", "s = \"abc;\n", `0:4: unterminated string literal: no closing " on its line`},
		{"a.rs", "s = \"abc;\n", `0:4: unterminated string literal: no closing " before the end of the file`},
		{"a.rs", "/* /* */", "0:0: unterminated block comment"},
		{"a.ts", "x = `a\n", "0:4: unterminated template literal: no closing `"},
		{"a.cpp", `x = R"d(`, `0:4: unterminated raw string literal: no closing )d"`},
		{"a.py", "'''a", "0:0: unterminated multi-line string: no closing '''"},
		{"a.php", "<?php <<<E\n", "0:6: unterminated heredoc: no closing E line"},
		{"a.jsx", "x = 'a\n", ""},
	}
	for _, c := range cases {
		s := New(c.src, ForFile(c.file), 0)
		for s.Next().Kind != EOF {
		}
		got := ""
		if e, ok := s.Err(); ok {
			got = fmt.Sprintf("0:%d: %s", e.Offset, e.Msg)
		}
		if got != c.want {
			t.Errorf("%s %q: error %q, want %q", c.file, c.src, got, c.want)
		}
	}
}

func TestNL(t *testing.T) {
	src := "a /* x\n */ b\n  c \\\n d"
	s := New(src, ForFile("a.py"), 0)
	var nl []string
	for tok := s.Next(); tok.Kind != EOF; tok = s.Next() {
		if tok.Kind != Space && tok.NL {
			nl = append(nl, src[tok.Start:tok.End])
		}
	}
	// Python has no block comments: '/' and '*' are punctuation; the line
	// joined by a backslash does not start a line.
	if got := strings.Join(nl, " "); got != "a * c" {
		t.Errorf("first on their lines: %q", got)
	}
}

func BenchmarkLex1MB(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("func (it *Item) Method(x map[string]struct{}) (int, error) {\n\ts := `raw { string`\n\t/* a } comment */\n\treturn len(s) + int('{'), nil // \"}\"\n}\n\n")
	}
	src := sb.String()
	lang := ForFile("a.go")
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s := New(src, lang, 0)
		for s.Next().Kind != EOF {
		}
	}
}
