package confine

// This file defines the go command's -toolexec in a root the user has not
// trusted: it runs each tool as asked (through the user's own -toolexec,
// if any), but first checks what the Go assembler would include.
//
// The assembler's preprocessor takes `#include "name"` with a string
// literal only, never a macro, and opens the first of: name (relative to
// its working directory), then name in the directory of the file it
// assembles and in each -I directory. So the check is exact: for each
// #include of the assembly and of what it includes, the file the
// assembler would open must lie under the root, the go command's private
// temporary directory (go_asm.h), GOROOT (textflag.h) or the module
// cache; otherwise the assembler does not run, and one line says which
// line includes which path outside the root (the path only).

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/scanner"
	"unicode"
)

// toolexec runs the tool in args (its path, then its arguments) as the
// go command asked, after checking an assembler's includes.
func toolexec(dir string, args []string) int {
	if len(args) == 0 {
		return wrapperFailed(os.ErrInvalid)
	}
	spec, err := readSpec(dir)
	if err != nil {
		return wrapperFailed(err)
	}
	tool := strings.TrimSuffix(filepath.Base(args[0]), ".exe")
	if tool == "asm" && !hasVersionFlag(args[1:]) {
		cwd, err := os.Getwd()
		if err != nil {
			return wrapperFailed(err)
		}
		ok := &allowed{}
		ok.addDir(spec.Root)
		ok.addDir(spec.Tmp)
		for _, k := range []string{"GOROOT", "GOMODCACHE"} {
			if v, found := lookup(os.Environ(), k); found {
				ok.addDir(v)
			}
		}
		if line := checkAsm(cwd, args[1:], ok); line != "" {
			os.Stderr.WriteString(line + "\n")
			return 1
		}
	}
	argv := append(append([]string(nil), spec.Toolexec...), args...)
	return passThrough(argv[:1], argv[1:], os.Environ())
}

// hasVersionFlag reports whether a tool is asked its version (-V=full):
// the go command's question, which reads no source.
func hasVersionFlag(args []string) bool {
	for _, a := range args {
		if strings.HasPrefix(a, "-V") || strings.HasPrefix(a, "--V") {
			return true
		}
	}
	return false
}

// checkAsm checks the assembler's command line args, run in cwd: ""
// when everything it would read is allowed, else the line that says
// what is not.
func checkAsm(cwd string, args []string, ok *allowed) string {
	var includes, files []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-I" || a == "--I":
			if i+1 < len(args) {
				i++
				includes = append(includes, args[i])
			}
		case strings.HasPrefix(a, "-I="), strings.HasPrefix(a, "--I="):
			includes = append(includes, a[strings.IndexByte(a, '=')+1:])
		case strings.HasSuffix(a, ".s"):
			files = append(files, a) // an operand (a value that ends in .s is checked too)
		}
	}
	for i, d := range includes {
		if !filepath.IsAbs(d) {
			includes[i] = filepath.Join(cwd, d)
		}
	}
	seen := map[string]bool{}
	for _, f := range files {
		abs := f
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, abs)
		}
		if !exists(abs) {
			continue
		}
		real, _ := resolveRead(cwd, abs)
		if !ok.has(real) {
			return refusalLine(place{file: abs}, "", "assembles", shownPath(cwd, abs, real), "assembly")
		}
		dirs := append([]string{filepath.Dir(abs)}, includes...)
		if line := checkAsmFile(cwd, abs, real, dirs, ok, seen); line != "" {
			return line
		}
	}
	return ""
}

// checkAsmFile checks the includes of the assembly file at file (real:
// where it really is), and of the files they include, each once.
func checkAsmFile(cwd, file, real string, dirs []string, ok *allowed, seen map[string]bool) string {
	if seen[real] {
		return ""
	}
	seen[real] = true
	src, err := os.ReadFile(real)
	if err != nil {
		return "" // the assembler cannot read it either
	}
	for _, inc := range asmIncludes(src) {
		target := asmOpens(cwd, inc.name, dirs)
		if target == "" {
			continue // none exists: the assembler opens nothing
		}
		treal, _ := resolveRead(cwd, target)
		if !ok.has(treal) {
			return refusalLine(place{file: file, line: inc.line}, "", "#include "+strconv.Quote(inc.name)+" reads", shownPath(cwd, target, treal), "assembly")
		}
		if line := checkAsmFile(cwd, target, treal, dirs, ok, seen); line != "" {
			return line
		}
	}
	return ""
}

// asmOpens is the file the assembler opens for #include name: name
// itself (relative to the working directory), else name in the first of
// dirs where it exists; "" when none does.
func asmOpens(cwd, name string, dirs []string) string {
	// As the assembler: os.Open(name) first (relative to its working
	// directory, not cleaned), then filepath.Join(dir, name).
	if p := pathIn(cwd, name); exists(p) {
		return p
	}
	for _, d := range dirs {
		if q := filepath.Join(d, name); exists(q) {
			return q
		}
	}
	return ""
}

// asmInclude is one #include of an assembly file.
type asmInclude struct {
	name string
	line int
}

// asmIncludes lists the #include "name" of Go assembly src, tokenized as
// the assembler does (text/scanner, comments skipped): each '#' followed
// by include and a string, wherever it stands (a macro's body
// included), so none the assembler could act on is missed.
func asmIncludes(src []byte) []asmInclude {
	var s scanner.Scanner
	s.Init(bytes.NewReader(src))
	s.Whitespace = 1<<'\t' | 1<<'\r' | 1<<' ' | 1<<'\n'
	s.Mode = scanner.ScanChars | scanner.ScanFloats | scanner.ScanIdents | scanner.ScanInts |
		scanner.ScanStrings | scanner.ScanComments | scanner.SkipComments
	s.IsIdentRune = func(ch rune, i int) bool {
		return unicode.IsLetter(ch) || ch == '_' || ch == '\u00B7' || ch == '\u2215' || i > 0 && unicode.IsDigit(ch)
	}
	s.Error = func(*scanner.Scanner, string) {}
	var out []asmInclude
	state := 0 // 1: after '#'; 2: after '#' include
	for tok := s.Scan(); tok != scanner.EOF; tok = s.Scan() {
		switch {
		case tok == '#':
			state = 1
		case state == 1 && tok == scanner.Ident && s.TokenText() == "include":
			state = 2
		case state == 2 && tok == scanner.String:
			if name, err := strconv.Unquote(s.TokenText()); err == nil {
				out = append(out, asmInclude{name: name, line: s.Position.Line})
			}
			state = 0
		default:
			state = 0
		}
	}
	return out
}
