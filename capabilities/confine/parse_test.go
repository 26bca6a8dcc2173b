package confine

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestParseDeps(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"t.o: t.c /usr/include/stdc-predef.h ../../outside/secret.h\n", []string{"t.c", "/usr/include/stdc-predef.h", "../../outside/secret.h"}},
		{"/tmp/x/t.o: t.c \\\n /usr/include/stdio.h \\\n  a\\ b.h\n", []string{"t.c", "/usr/include/stdio.h", "a b.h"}},
		{"t.o: x\\#y.h $$HOME.h\r\n", []string{"x#y.h", "$HOME.h"}},
		{"t.o: a.h\na.h:\nb.o: a.h c.h\n", []string{"a.h", "c.h"}}, // -MP's phony targets add nothing
		{`c:\x\t.o: c:\x\t.c c:\x\y.h` + "\n", []string{`c:\x\t.c`, `c:\x\y.h`}},
		{"no rule here\n", nil},
		{"", nil},
	} {
		if got := parseDeps(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("parseDeps(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzParseDeps(f *testing.F) {
	f.Add("t.c", "a b.h", "x#$y.h")
	f.Add("/usr/include/stdio.h", "c:/x", "")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		// Names as gcc writes them come back whole.
		var names []string
		for _, n := range []string{a, b, c} {
			if n == "" || strings.ContainsAny(n, "\\\n\r\t") || strings.HasSuffix(n, ":") || slices.Contains(names, n) {
				continue
			}
			names = append(names, n)
		}
		var rule strings.Builder
		rule.WriteString("/tmp/t.o:")
		for _, n := range names {
			rule.WriteString(" \\\n  " + strings.NewReplacer(" ", `\ `, "#", `\#`, "$", "$$").Replace(n))
		}
		rule.WriteString("\n")
		got := parseDeps(rule.String())
		if len(names) == 0 {
			names = nil
		}
		if !reflect.DeepEqual(got, names) {
			t.Fatalf("parseDeps(%q) = %q, want %q", rule.String(), got, names)
		}
		// Any input: no empty name, none twice.
		seen := map[string]bool{}
		for _, d := range parseDeps(a + b + c) {
			if d == "" || seen[d] {
				t.Fatalf("parseDeps(%q) lists %q empty or twice", a+b+c, d)
			}
			seen[d] = true
		}
	})
}

func TestParseHeaderList(t *testing.T) {
	stderr := ". ../../outside/secret.h\n.. /usr/include/features.h\nu.c:3:10: fatal error: nonexist.h: No such file or directory\n    3 | #include \"nonexist.h\"\n! /x/pre.h.gch\nx /x/bad.h.gch\nMultiple include guards may be useful for:\n/usr/include/a.h\n"
	want := []string{"../../outside/secret.h", "/usr/include/features.h", "/x/pre.h.gch", "/x/bad.h.gch"}
	if got := parseHeaderList(stderr); !reflect.DeepEqual(got, want) {
		t.Errorf("parseHeaderList = %q, want %q", got, want)
	}
}

func TestIncluders(t *testing.T) {
	// gcc -E of cgo's preamble file: its #line names the Go file.
	out := `# 0 "v.c"
# 0 "<built-in>"
# 0 "<command-line>"
# 1 "/usr/include/stdc-predef.h" 1 3 4
# 0 "<command-line>" 2
# 1 "v.c"
# 3 "/x/a.go"
# 1 "../../outside/secret.h" 1
# 1 "../../outside/nested.h" 1
int k;
# 2 "../../outside/secret.h" 2
# 4 "/x/a.go" 2
int y;

# 9 "/x/a\"q.go"
# 1 "/x/sub\101.h" 1
`
	type hit struct {
		file string
		at   place
	}
	var got []hit
	includers(out, func(file string, at place) bool {
		got = append(got, hit{file, at})
		return true
	})
	want := []hit{
		{"/usr/include/stdc-predef.h", place{"<command-line>", 0}},
		{"../../outside/secret.h", place{"/x/a.go", 3}},
		{"../../outside/nested.h", place{"../../outside/secret.h", 1}},
		{"/x/subA.h", place{`/x/a"q.go`, 9}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("includers:\n got %+v\nwant %+v", got, want)
	}
}

func FuzzParseMarker(f *testing.F) {
	f.Add(`# 12 "a.c" 1 3`)
	f.Add(`#line 7 "x\\y\"z\101"`)
	f.Add(`# 1 "`)
	f.Fuzz(func(t *testing.T, s string) {
		m, ok := parseMarker(s)
		if !ok {
			return
		}
		if !strings.HasPrefix(strings.TrimSpace(s), "#") || m.line < 0 {
			t.Fatalf("parseMarker(%q) = %+v", s, m)
		}
		includers(s+"\n"+s+"\nx\n", func(string, place) bool { return true })
	})
}

func TestParseGCCArgs(t *testing.T) {
	a := parseGCCArgs(strings.Fields("-I /w/b001/ -I. -iquote q -isystem s -include ../../x.h -imacros m.h -O2 -g -o /w/b001/_x001.o -c a.cgo2.c x.o -Lld -L lib2 -Wl,-L,lib3,-Llib4 -Xlinker -Llib5 -lfoo -x c -"))
	if !reflect.DeepEqual(a.sources, []string{"a.cgo2.c", "-"}) || !reflect.DeepEqual(a.objects, []string{"x.o"}) {
		t.Errorf("sources %q, objects %q", a.sources, a.objects)
	}
	if !a.stdin || !a.compileOnly || a.info {
		t.Errorf("stdin %v compileOnly %v info %v", a.stdin, a.compileOnly, a.info)
	}
	if !reflect.DeepEqual(a.includes, []string{"../../x.h", "m.h"}) || !reflect.DeepEqual(a.quoteDirs, []string{"q"}) ||
		!reflect.DeepEqual(a.searchDirs, []string{"/w/b001/", ".", "s"}) {
		t.Errorf("includes %q quote %q search %q", a.includes, a.quoteDirs, a.searchDirs)
	}
	if !reflect.DeepEqual(a.libDirs, []string{"ld", "lib2", "lib3", "lib4", "lib5"}) {
		t.Errorf("libDirs %q", a.libDirs)
	}
	if b := parseGCCArgs([]string{"--version"}); !b.info {
		t.Errorf("--version is not info")
	}
	if b := parseGCCArgs([]string{"-v", "-c", "x.c"}); b.info {
		t.Errorf("-v with a source is info")
	}
	if b := parseGCCArgs(strings.Fields("-o _cgo_.o _cgo_main.o x.o -lpthread")); b.compileOnly || len(b.sources) != 0 || len(b.objects) != 2 {
		t.Errorf("a link: %+v", b)
	}
}

func TestLocateArgs(t *testing.T) {
	in := strings.Fields("-I /w/b/ -fPIC -o /w/b/_x.o -c x.c -MD -MF d.d -dM -E -o/joined.o -MT t -save-temps=obj -include inc.h")
	want := strings.Fields("-I /w/b/ -fPIC x.c -include inc.h -E")
	if got := locateArgs(in); !reflect.DeepEqual(got, want) {
		t.Errorf("locateArgs = %q, want %q", got, want)
	}
}

func FuzzGCCArgs(f *testing.F) {
	f.Add("-I /w -o x.o -c a.c -include b.h -")
	f.Fuzz(func(t *testing.T, s string) {
		args := strings.Fields(s)
		a := parseGCCArgs(args)
		for _, x := range slices.Concat(a.sources, a.objects) {
			if !slices.Contains(args, x) {
				t.Fatalf("operand %q is not an argument of %q", x, args)
			}
		}
		l := locateArgs(args)
		if len(l) == 0 || l[len(l)-1] != "-E" {
			t.Fatalf("locateArgs(%q) = %q: no -E last", args, l)
		}
		for i := 0; i < len(l)-1; i++ {
			switch x := l[i]; {
			case separateArg[x]:
				i++ // its value
			case x == "-c" || x == "-S" || x == "-MD" || x == "-o" || x == "-MF":
				t.Fatalf("locateArgs(%q) = %q keeps %q", args, l, x)
			}
		}
	})
}

func TestSearchList(t *testing.T) {
	stderr := "ignoring nonexistent directory \"/x\"\n#include \"...\" search starts here:\n /q\n#include <...> search starts here:\n /usr/lib/gcc/x86_64-linux-gnu/12/include\n /usr/local/include\n /Library/Frameworks (framework directory)\nEnd of search list.\n"
	want := []string{"/q", "/usr/lib/gcc/x86_64-linux-gnu/12/include", "/usr/local/include", "/Library/Frameworks"}
	if got := searchList(stderr); !reflect.DeepEqual(got, want) {
		t.Errorf("searchList = %q, want %q", got, want)
	}
	if got := libraryDirs("install: /x/\nlibraries: =/a/:/b/../c\n"); !reflect.DeepEqual(got, []string{"/a", "/c"}) {
		t.Errorf("libraryDirs = %q", got)
	}
}

func TestSplitQuoted(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"gcc -m32", []string{"gcc", "-m32"}},
		{`'/a b/cc' "x'y" -toolexec=z`, []string{"/a b/cc", "x'y", "-toolexec=z"}},
		{"  ", nil},
	} {
		got, err := split(c.in)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Errorf("split(%q) = %q, %v; want %q", c.in, got, err, c.want)
		}
	}
	if _, err := split(`'open`); err == nil {
		t.Error("an unterminated quote splits")
	}
	if _, err := joinQuoted([]string{`a'b"c`}); err == nil {
		t.Error("both quotes join")
	}
}

func FuzzJoinQuoted(f *testing.F) {
	f.Add("/tmp/a b/devbroker", "confine-toolexec", "x'y")
	f.Fuzz(func(t *testing.T, a, b, c string) {
		args := []string{a, b, c}
		s, err := joinQuoted(args)
		if err != nil {
			return
		}
		got, err := split(s)
		if err != nil {
			t.Fatalf("split(joinQuoted(%q) = %q): %v", args, s, err)
		}
		// split drops empty fields only when they are not quoted; every
		// argument comes back.
		if !reflect.DeepEqual(got, args) {
			t.Fatalf("split(joinQuoted(%q) = %q) = %q", args, s, got)
		}
	})
}

func TestSplitCommand(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{`/usr/bin/cc -I../inc -DX="a b" -c x.c`, []string{"/usr/bin/cc", "-I../inc", "-DX=a b", "-c", "x.c"}},
		{`cc '-I/a b' x\ y.c "q\"r"`, []string{"cc", "-I/a b", "x y.c", `q"r`}},
		{"cc\t-Ix  a", []string{"cc\t-Ix", "a"}},
		{`cc -D"unterminated`, []string{"cc", "-Dunterminated"}},
	} {
		if got := splitCommand(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("splitCommand(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzSplitCommand(f *testing.F) {
	f.Add(`cc '-I/a b' x\ y.c "q\"r"`)
	f.Fuzz(func(t *testing.T, s string) {
		for _, a := range splitCommand(s) {
			if len(a) > len(s) {
				t.Fatalf("splitCommand(%q) gives %q, longer than the input", s, a)
			}
		}
		for _, a := range splitResponse(s) {
			if len(a) > len(s) {
				t.Fatalf("splitResponse(%q) gives %q, longer than the input", s, a)
			}
		}
	})
}

func TestSplitResponse(t *testing.T) {
	in := "-I../x\n'-I/a b'\t\"-DQ=\\\"v\\\"\" \\\n-include\\ sp.h\n"
	want := []string{"-I../x", "-I/a b", `-DQ="v"`, "-include sp.h"}
	if got := splitResponse(in); !reflect.DeepEqual(got, want) {
		t.Errorf("splitResponse = %q, want %q", got, want)
	}
}
