package lex

import (
	"fmt"
	"strings"
	"testing"
)

// FuzzLex lexes arbitrary text in every language: the scanner never panics,
// its tokens cover the input exactly and in order, their lines agree with
// the text, an error lies inside the text, and with SkipSpace the scanner
// yields the same tokens but the Space ones, and the same error.
func FuzzLex(f *testing.F) {
	seeds := []string{
		"package a\nfunc f() { return \"}\" + `{` } // {\n",
		"const s = `a ${f({b: `}${'{'}`})} c`; /re/.test(x) / 2",
		"s = f'{x:{w}}' + rb'\\'' + '''a\n''' \\\n x",
		"fn f<'a>() { r#\"x\"#; b'('; /* /* */ */ r#match }",
		"auto s = R\"x(a \" ) })x\"; u8R\"(\"; #define A \\\n  B /* x\n */",
		"string a = @\"C:\\{\"\"x\"\"\"; $\"{x:N2}\"; $@\"{y}\"; \"\"\"\nraw\"\"\";",
		"val s = \"\"\"{ \"a\" \"\"\"\"; val t = \"${a}\"; `it works`",
		"<html><?php $h = <<<EOT\n  { (\n  EOT;\n#[Attr] # c ?> x <?= 1 ?>",
		"a { b: url(//x.com/a(.png); } /* ",
		"let s = #\"a \"}\" b\"#\n#if DEBUG\n",
		"#!/bin/sh\r\n'unterminated\n\"x\\\r\ny\"",
	}
	langs := Languages()
	for i, s := range seeds {
		for j := range langs {
			if (i+j)%4 == 0 {
				f.Add(uint8(j), s)
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, src string) {
		lang := langs[int(which)%len(langs)]
		toks := checkTokens(t, lang, src)
		checkSkipSpace(t, lang, src, toks)
	})
}

// checkSkipSpace fails unless lexing src with SkipSpace yields toks (which
// holds no EOF) without their Space tokens, then EOF, and the same error.
func checkSkipSpace(t *testing.T, lang *Language, src string, toks []Token) {
	t.Helper()
	s := New(src, lang, SkipSpace)
	for _, want := range append(toks, eofToken(t, lang, src)) {
		if want.Kind == Space {
			continue
		}
		if got := s.Next(); got != want {
			t.Fatalf("%s: with SkipSpace, token %+v, want %+v in %q", lang.Name, got, want, src)
		}
	}
	full := New(src, lang, 0)
	for full.Next().Kind != EOF {
	}
	if got, want := fmt.Sprint(s.Err()), fmt.Sprint(full.Err()); got != want {
		t.Fatalf("%s: with SkipSpace, error %s, want %s in %q", lang.Name, got, want, src)
	}
}

// eofToken returns the EOF token of src.
func eofToken(t *testing.T, lang *Language, src string) Token {
	t.Helper()
	s := New(src, lang, 0)
	for {
		if tok := s.Next(); tok.Kind == EOF {
			return tok
		}
	}
}

// checkTokens lexes src and fails unless the tokens tile it.
func checkTokens(t *testing.T, lang *Language, src string) []Token {
	t.Helper()
	s := New(src, lang, 0)
	var toks []Token
	var b strings.Builder
	pos, line := 0, 1
	for n := 0; ; n++ {
		tok := s.Next()
		if tok.Start != pos || tok.End < tok.Start || tok.End > len(src) {
			t.Fatalf("%s: token %d %v [%d,%d) does not follow offset %d in %q", lang.Name, n, tok.Kind, tok.Start, tok.End, pos, src)
		}
		if tok.Line != line || tok.EndLine != line+strings.Count(src[tok.Start:tok.End], "\n") {
			t.Fatalf("%s: token %d %v [%d,%d) on lines %d-%d, want from %d in %q", lang.Name, n, tok.Kind, tok.Start, tok.End, tok.Line, tok.EndLine, line, src)
		}
		b.WriteString(src[tok.Start:tok.End])
		pos, line = tok.End, tok.EndLine
		if tok.Kind == EOF {
			if tok.Start != len(src) {
				t.Fatalf("%s: EOF at %d of %d", lang.Name, tok.Start, len(src))
			}
			break
		}
		if tok.End == tok.Start {
			t.Fatalf("%s: empty %v token at %d in %q", lang.Name, tok.Kind, tok.Start, src)
		}
		toks = append(toks, tok)
	}
	if b.String() != src {
		t.Fatalf("%s: the tokens spell %q, not %q", lang.Name, b.String(), src)
	}
	if e, ok := s.Err(); ok && (e.Offset < 0 || e.Offset >= len(src) || e.Msg == "") {
		t.Fatalf("%s: bad error %+v for %q", lang.Name, e, src)
	}
	return toks
}
