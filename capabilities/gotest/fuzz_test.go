package gotest

import (
	"bytes"
	"path/filepath"
	"testing"
)

// FuzzReadEvents: any stream reads without a panic, and every failure it
// reports names a package.
func FuzzReadEvents(f *testing.F) {
	f.Add([]byte(`{"Action":"run","Package":"p","Test":"TestA"}
{"Action":"output","Package":"p","Test":"TestA","Output":"    a_test.go:3: bad\n"}
{"Action":"fail","Package":"p","Test":"TestA"}
{"Action":"fail","Package":"p"}
`))
	f.Add([]byte(`{"ImportPath":"p","Action":"build-output","Output":"a.go:1:2: x\n"}
{"ImportPath":"p","Action":"build-fail"}
{"Action":"fail","Package":"p","FailedBuild":"p"}
not json
{"Action":"output","Package":"p","Test":"T","Output":"panic: test timed out after 1s\n"}
{"Action":"output","Package":"p","Test":"T","Output":"\t\tT (1s)\n"}
`))
	f.Fuzz(func(t *testing.T, data []byte) {
		rep := readEvents(bytes.NewReader(data))
		for _, fl := range rep.failures {
			if len(fl.lines) > maxTestLines {
				t.Fatalf("%d lines kept", len(fl.lines))
			}
		}
		d := &Driver{name: "go-test"}
		for _, diag := range d.findings(rep, places{root: "/r", fallback: "a.go"}, "/r", nil, nil) {
			if !filepath.IsLocal(filepath.FromSlash(diag.Path)) || diag.Line < 1 {
				t.Fatalf("a diagnostic outside the root: %+v", diag)
			}
		}
	})
}

// FuzzParseList: any go list answer parses or fails with an error, never
// a panic; a parsed package has a path and a directory.
func FuzzParseList(f *testing.F) {
	f.Add([]byte(`{"ImportPath":"m/a","Dir":"/r/a","Imports":["fmt"]}{"ImportPath":"m/b","Dir":"/r/b","TestImports":["m/a"]}`))
	f.Add([]byte(`{"ImportPath":""}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		pkgs, err := parseList(bytes.NewReader(data))
		if err != nil {
			return
		}
		for _, p := range pkgs {
			if p.ImportPath == "" || p.Dir == "" {
				t.Fatalf("package %+v", p)
			}
		}
		affected(pkgs, []string{"/r/a"}, []string{"/r/a"})
	})
}
