package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"
)

// scriptCmds are the extra commands of the end-to-end scripts.
var scriptCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	// cmpbytes FILE1 FILE2: byte-exact comparison (cmp normalizes nothing
	// either, but this also reports the first differing offset).
	"cmpbytes": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: cmpbytes FILE1 FILE2")
		}
		a, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		b, err := os.ReadFile(ts.MkAbs(args[1]))
		ts.Check(err)
		eq := bytes.Equal(a, b)
		if eq == neg {
			i := 0
			for i < len(a) && i < len(b) && a[i] == b[i] {
				i++
			}
			ts.Fatalf("%s and %s: equal=%v (first difference at byte %d; %q vs %q)", args[0], args[1], eq, i, clip(a, i), clip(b, i))
		}
	},
	// decode FILE...: replace each file's content by its Go-unquoted
	// form, to write \r, a BOM or a missing final newline in a txtar.
	"decode": func(ts *testscript.TestScript, neg bool, args []string) {
		for _, f := range args {
			data, err := os.ReadFile(ts.MkAbs(f))
			ts.Check(err)
			s, err := strconv.Unquote("\"" + string(bytes.TrimRight(data, "\n")) + "\"")
			if err != nil {
				ts.Fatalf("decode %s: %v", f, err)
			}
			ts.Check(os.WriteFile(ts.MkAbs(f), []byte(s), 0o644))
		}
	},
	// repeat COUNT TEXT FILE: write FILE holding COUNT lines of TEXT.
	"repeat": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 3 {
			ts.Fatalf("usage: repeat COUNT TEXT FILE")
		}
		n, err := strconv.Atoi(args[0])
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(args[2]), bytes.Repeat([]byte(args[1]+"\n"), n), 0o644))
	},
	// chmod MODE FILE: set a file's mode (octal).
	"chmod": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: chmod MODE FILE")
		}
		m, err := strconv.ParseUint(args[0], 8, 32)
		ts.Check(err)
		ts.Check(os.Chmod(ts.MkAbs(args[1]), os.FileMode(m)))
	},
	// exits CODE PROG [ARGS...]: run a program, as exec does, and assert
	// its exit status exactly (exec and ! exec only tell zero from not).
	"exits": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) < 2 {
			ts.Fatalf("usage: exits CODE PROG [ARGS...]")
		}
		want, err := strconv.Atoi(args[0])
		ts.Check(err)
		got := 0
		if err := ts.Exec(args[1], args[2:]...); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				ts.Fatalf("%s: %v", args[1], err)
			}
			got = ee.ExitCode()
		}
		if got != want {
			ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
		}
	},
	// capture VAR REGEXP: set VAR to the first submatch of REGEXP (a
	// multi-line pattern) in the last command's standard output, to use
	// an answer (a code action's id) in a later command.
	"capture": func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 2 {
			ts.Fatalf("usage: capture VAR REGEXP")
		}
		m := regexp.MustCompile("(?m)" + args[1]).FindStringSubmatch(ts.ReadFile("stdout"))
		if len(m) < 2 {
			ts.Fatalf("capture: no match for %s (with a submatch) in stdout", args[1])
		}
		ts.Setenv(args[0], m[1])
	},
	// sarif-valid FILE: assert that FILE is a valid SARIF 2.1.0 log: the
	// schema, a ruleId on every result, and the SARIF Multitool's
	// validation where it is installed (sarifvalid_test.go).
	"sarif-valid": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 1 {
			ts.Fatalf("usage: sarif-valid FILE")
		}
		data, err := os.ReadFile(ts.MkAbs(args[0]))
		ts.Check(err)
		mt, err := validSARIF(data)
		switch {
		case neg && err == nil:
			ts.Fatalf("%s is a valid SARIF log", args[0])
		case !neg && err != nil:
			ts.Fatalf("%s: %v", args[0], err)
		}
		if mt {
			ts.Logf("%s: checked by the SARIF Multitool too", args[0])
		}
	},
	// mode MODE FILE: assert a file's permission bits (octal).
	"mode": func(ts *testscript.TestScript, neg bool, args []string) {
		if len(args) != 2 {
			ts.Fatalf("usage: mode MODE FILE")
		}
		st, err := os.Stat(ts.MkAbs(args[1]))
		ts.Check(err)
		got := fmt.Sprintf("%o", st.Mode().Perm())
		if (got == args[0]) == neg {
			ts.Fatalf("%s has mode %s, want %s", args[1], got, args[0])
		}
	},
}

func clip(b []byte, i int) []byte {
	end := i + 16
	if end > len(b) {
		end = len(b)
	}
	if i > len(b) {
		i = len(b)
	}
	return b[i:end]
}
