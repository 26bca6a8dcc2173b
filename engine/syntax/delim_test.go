package syntax

import "testing"

func TestDelimitersCLike(t *testing.T) {
	runCases(t, "delimiters", []checkCase{
		// Valid, with delimiters hidden in comments, strings and literals.
		{name: "c", file: "a.c", src: "#include <stdio.h>\n/* { */ int main(void) { // }\n  char c = '{', d = '\\'', e = '\\\\';\n  printf(\"}\\\"(\");\n  return 1'000 + 0x1'F;\n}\n"},
		{name: "c define", file: "a.h", src: "#define BEGIN extern \"C\" {\n#define END }\nBEGIN\nint f(void);\nEND\n"},
		{name: "cpp raw", file: "a.cpp", src: "auto s = R\"x(a \" ) } ( )x\";\nauto t = u8R\"(})\";\nint f() { return 0; }\n"},
		{name: "java text block", file: "A.java", src: "class A {\n  String s = \"\"\"\n    { \"quoted\" ( \\\"\"\"\n    \"\"\";\n  char c = ')';\n}\n"},
		{name: "csharp", file: "a.cs", src: "#region Don't (care\nclass A {\n  string a = @\"C:\\{\"\"x\"\"\";\n  string b = $\"{x}\";\n  string c = \"\"\"\n  raw \"\" { \n  \"\"\";\n}\n#endregion\n"},
		{name: "kotlin", file: "a.kt", src: "fun `it (works`() {\n  val s = \"\"\"{ \"a\" \"\"\"\"\n  val c = '('\n  /* /* } */ ) */\n}\n"},
		{name: "scala symbol", file: "a.scala", src: "object A {\n  val s = 'sym\n  val c = '}'\n}\n"},
		{name: "swift raw", file: "a.swift", src: "let s = #\"a \"}\" b\"#\nlet m = \"\"\"\n  ) \\\"\"\" (\n  \"\"\"\n#if DEBUG\nfunc f() { }\n#endif\n"},
		{name: "rust", file: "a.rs", src: "#![allow(dead_code)]\nfn f<'a>(x: &'a str) -> &'a str {\n  let c = '{';\n  let e = '\\u{7D}';\n  let b = b'(';\n  let r = r#\"\"}\"# ;\n  let s = \"multi\n  line )\";\n  'outer: loop { break 'outer; }\n  /* /* { */ */\n  x\n}\n"},
		{name: "rust raw ident", file: "a.rs", src: "fn r#match() { let r = 1; }\n"},
		{name: "js", file: "a.mjs", src: "#!/usr/bin/env node\nconst t = `a ${f({b: `}${'{'}`})} c`;\nconst r = /[(]\\)/g, d = a / b / c;\nif (x) { return /}/.test(s) }\n"},
		{name: "ts template nesting", file: "a.ts", src: "const s = `${a ? `${b}` : '}'}`;\nfunction f<T>(x: T): T { return x; }\n"},
		{name: "jsx apostrophe", file: "a.jsx", src: "export const A = () => (\n  <p>Don't {x}</p>\n);\n"},
		{name: "php", file: "a.php", src: "<html>(<?php if ($a) { ?>\n<p>(</p>\n<?php } # }\n$s = 'x}';\n$h = <<<EOT\n  { (\n  EOT;\n#[Attr]\nfunction f() { return \"?>\"; }\n"},
		{name: "crlf", file: "a.c", src: "int f() {\r\n  return \"a\\\r\nb\";\r\n}\r\n"},

		// Broken.
		{name: "mismatch", file: "a.c", src: "int f(int x) {\n  if (x {\n  }\n}\n", line: 4, col: 1, msg: "`}` closes `(` opened at 2:6"},
		{name: "unmatched closer", file: "a.java", src: "class A {\n}\n}\n", line: 3, col: 1, msg: "unmatched `}`"},
		{name: "never closed", file: "a.rs", src: "fn f() {\n  let v = [1, 2;\n}\n", line: 3, col: 1, msg: "`}` closes `[` opened at 2:11"},
		{name: "unclosed at eof", file: "a.kt", src: "fun f() {\n  g(1)\n", line: 1, col: 9, msg: "`{` is never closed"},
		{name: "unclosed with hint", file: "a.ts", src: "class A {\n  m() {\n    if (x) {\n      y();\n  }\n}\n", line: 1, col: 9, msg: "check near the `}` at 5:3"},
		{name: "unterminated string", file: "a.java", src: "class A {\n  String s = \"abc;\n}\n", line: 2, col: 14, msg: "unterminated string literal: no closing \" on its line"},
		{name: "unterminated rust string", file: "a.rs", src: "fn f() {\n  let s = \"abc;\n}\n", line: 2, col: 11, msg: "no closing \" before the end of the file"},
		{name: "unterminated comment", file: "a.css", src: "a { b: c; }\n/* x\n", line: 2, col: 1, msg: "unterminated block comment"},
		{name: "unterminated nested comment", file: "a.rs", src: "/* a /* b */\nfn f() {}\n", line: 1, col: 1, msg: "unterminated block comment"},
		{name: "unterminated template", file: "a.ts", src: "const s = `abc\n", line: 1, col: 11, msg: "unterminated template literal"},
		{name: "unclosed template hole", file: "a.ts", src: "const s = `a ${b;\n", line: 1, col: 11, msg: "unterminated template literal: `${` opened at 1:14"},
		{name: "unterminated raw", file: "a.rs", src: "let s = r#\"a\"\n", line: 1, col: 9, msg: "unterminated raw string literal: no closing \"#"},
		{name: "unicode column", file: "a.c", src: "int é = (1 + 2];\n", line: 1, col: 15, msg: "`]` closes `(` opened at 1:9"},
	})
}

func TestDelimitersPythonCSS(t *testing.T) {
	runCases(t, "delimiters", []checkCase{
		{name: "python", file: "a.py", src: "def f(x={}, y=[()]):  # ) comment\n    '''doc ( \\''' '''\n    s = r\"\\\"(\" + f\"{x}}\" + b'['\n    return {\"a\": (1,\n            2)}\n"},
		{name: "python triple double", file: "a.py", src: "x = \"\"\"\n}\n\"\"\"\ny = ''\n"},
		{name: "python broken", file: "a.py", src: "def f(x:\n    return [1, 2)\n", line: 2, col: 17, msg: "`)` closes `[` opened at 2:12"},
		{name: "python unterminated", file: "a.py", src: "s = 'abc\nt = 1\n", line: 1, col: 5, msg: "unterminated string literal"},
		{name: "python unterminated triple", file: "a.py", src: "s = '''abc\nt = 1\n", line: 1, col: 5, msg: "no closing '''"},
		{name: "css", file: "a.css", src: "a[href=\"(\"] { background: url(//x.com/a(.png); content: '}' }\n/* { */\n@media (min-width: 1px) { b { c: d } }\n"},
		{name: "scss", file: "a.scss", src: "$x: 1; // {\n.a { &:hover { b: url( http://x/y ) } }\n"},
		{name: "css broken", file: "a.css", src: "a { b: c;\n", line: 1, col: 3, msg: "`{` is never closed"},
	})
}
