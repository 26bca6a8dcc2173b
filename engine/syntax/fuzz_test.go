package syntax

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/devbroker/devbroker/engine/lex"
)

// fuzzFiles names one file per checker and lex language, so that every check is
// fuzzed.
func fuzzFiles() []string {
	files := []string{"a.go", "a.json", "a.yaml"}
	for _, l := range lex.Languages() {
		if l.Name != "go" {
			files = append(files, "a"+l.Exts[0])
		}
	}
	return files
}

// FuzzCheck runs every check on arbitrary content: no check panics, every
// error has a position inside the file and a message, and Validate agrees
// with Check.
func FuzzCheck(f *testing.F) {
	files := fuzzFiles()
	seeds := []string{
		"package a\nfunc f() {\n", "{\"a\": [1, 2,]}", "a: 1\n---\nb: [\n", "fn f<'a>() { r#\"x\"# }",
		"const s = `${a}`; /re/.test(x)", "s = '''x'''\ndef f(x={}): pass", "<?php $a = <<<E\nx\nE;\n",
		"R\"x(\")x\" '\\u{7D}' @\"\"\"\"\" #\"a\"#", "url(//x) /* ", "\uFEFF{\n}\r\n",
	}
	for i, s := range seeds {
		for j := range files {
			if (i+j)%3 == 0 {
				f.Add(uint8(j), []byte(s))
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, src []byte) {
		name := files[int(which)%len(files)]
		orig := bytes.Clone(src)
		checker, errs := Check(name, src)
		if checker == "" {
			t.Fatalf("%s: no checker", name)
		}
		if !bytes.Equal(src, orig) {
			t.Fatalf("%s: Check modified its input", name)
		}
		content := bytes.TrimPrefix(src, []byte("\uFEFF"))
		lines := bytes.Split(content, []byte("\n"))
		for _, e := range errs {
			if e.Line < 1 || e.Column < 1 || e.Msg == "" {
				t.Fatalf("%s: bad error %#v", name, e)
			}
			if e.Line > len(lines) || e.Column > utf8.RuneCount(lines[e.Line-1])+1 {
				t.Fatalf("%s: error %v outside the %d-line file %q", name, e, len(lines), src)
			}
		}
		if err := Validate(name, src, src); (err != nil) != (len(errs) > 0) {
			t.Fatalf("%s: Validate = %v, Check = %v", name, err, errs)
		}
	})
}
