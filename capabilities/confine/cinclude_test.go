package confine

import (
	"reflect"
	"strings"
	"testing"

	"github.com/devbroker/devbroker/engine/lex"
)

func TestCIncludes(t *testing.T) {
	src := strings.Join([]string{
		`#include "a.h"`,                       // 1
		`  #  include <sys/b.h> // note`,       // 2
		`/* c */ #include "../c.h"`,            // 3: a comment before '#' is a space
		`/* multi`,                             // 4
		`   line */ #include "d.h"`,            // 5: the comment's line break is inside it
		`int x; /* not`,                        // 6
		`*/ #include "not-a-directive.h"`,      // 7: after code on the logical line
		`#inc\`,                                // 8
		`lude "spliced.h"`,                     // 9
		`#include /* c */ "e/*x*/.h"`,          // 10: a quoted name keeps its /*
		`%:include "digraph.h"`,                // 11
		`#include_next <next.h>`,               // 12
		`#import "objc.h"`,                     // 13
		`#include MACRO_H`,                     // 14: computed
		`#include FT(x)`,                       // 15: computed
		`const char *s = "#include \"no.h\"";`, // 16: a string
		`// #include "commented.h"`,            // 17
		`#define X 1`,                          // 18
		`import "unit.h";`,                     // 19: a C++ header unit
		`#embed "data.bin"`,                    // 20
		`#pragma once`,                         // 21
		`#include`,                             // 22: names nothing
	}, "\n") + "\n"
	got := cIncludes(src, lex.ForFile("x.cc"))
	want := []cInclude{
		{line: 1, name: "a.h"},
		{line: 2, name: "sys/b.h", angle: true},
		{line: 3, name: "../c.h"},
		{line: 5, name: "d.h"},
		{line: 8, name: "spliced.h"},
		{line: 10, name: "e/*x*/.h"},
		{line: 11, name: "digraph.h"},
		{line: 12, name: "next.h", angle: true, next: true},
		{line: 13, name: "objc.h"},
		{line: 14, computed: true},
		{line: 15, computed: true},
		{line: 19, name: "unit.h"},
		{line: 20, name: "data.bin"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("cIncludes:\n got %+v\nwant %+v", got, want)
	}
}

func TestCIncludesTrigraphs(t *testing.T) {
	got := cIncludes("??=include \"tri.h\"\n#include \"plain.h\"\n", lex.ForFile("x.c"))
	names := map[string]bool{}
	for _, i := range got {
		names[i.name] = true
	}
	if !names["tri.h"] || !names["plain.h"] {
		t.Errorf("trigraph include not found: %+v", got)
	}
}

func FuzzCIncludes(f *testing.F) {
	f.Add("#include \"a.h\"\n/* x */ #include <b.h>\n#inc\\\nlude M\n")
	f.Add("%:include \"d.h\"\n??=include \"t.h\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		for _, inc := range cIncludes(src, lex.ForFile("x.c")) {
			if inc.line < 1 || inc.line > strings.Count(src, "\n")+1 {
				t.Fatalf("line %d outside the source", inc.line)
			}
			if !inc.computed && (inc.name == "" && !strings.Contains(src, `""`) && !strings.Contains(src, "<>")) {
				t.Fatalf("an empty name not written: %+v", inc)
			}
			if strings.Contains(inc.name, "\n") {
				t.Fatalf("a name across lines: %q", inc.name)
			}
		}
	})
}

func TestAsmIncludes(t *testing.T) {
	src := "#include \"textflag.h\"\n// #include \"comment.h\"\n#include /* c */ \"../../x.h\"\nTEXT ·F(SB),0,$0\n#define M #include \"macro.h\"\n\tRET\n"
	got := asmIncludes([]byte(src))
	want := []asmInclude{{"textflag.h", 1}, {"../../x.h", 3}, {"macro.h", 5}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("asmIncludes = %+v, want %+v", got, want)
	}
}

func FuzzAsmIncludes(f *testing.F) {
	f.Add([]byte("#include \"textflag.h\"\nTEXT ·F(SB),0,$0\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, inc := range asmIncludes(src) {
			if inc.line < 1 {
				t.Fatalf("line %d", inc.line)
			}
		}
	})
}
