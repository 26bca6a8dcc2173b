package confine

// This file defines the C compiler wrapper: CC and CXX of the go command
// in a root the user has not trusted.
//
// It runs the real compiler with -MD -MF <file> added, its output held
// back, and reads the make rule to learn every file the compiler read
// (the source, the headers, -include files). A compilation that stops at
// a fatal error writes no rule: the wrapper then asks the compiler to
// preprocess the same source with -H, which lists each header as it is
// opened, and checks the -include files by where the compiler would find
// them. A link reads objects and libraries: its operands and -L
// directories are checked by their paths.
//
// A file is allowed under the root, the private temporary directory the
// go command works in (its work directories, cgo's input files), GOROOT,
// the module cache, the compilers' default include and library
// directories, and the directories and files the user's own CGO_CFLAGS,
// CGO_CPPFLAGS, CGO_CXXFLAGS, CGO_FFLAGS and CGO_LDFLAGS name. When all
// are, the compiler's output and exit code pass through; otherwise its
// output is discarded, and one line says which file of the root includes
// which path outside it (found by preprocessing the source again: the
// include's place is where the line markers say, so a cgo preamble's
// include is placed on its Go file's line) and that trust lifts the rule.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// compile runs the real C (or, cxx, C++) compiler with args, confined as
// the file comment says, and returns the exit code.
func compile(dir string, cxx bool, args []string) int {
	spec, err := readSpec(dir)
	if err != nil {
		return wrapperFailed(err)
	}
	env := without(os.Environ(), EnvVar)
	tc, err := loadToolchain(dir, spec, os.Environ())
	if err != nil {
		return wrapperFailed(err)
	}
	real := tc.CC
	if cxx {
		real = tc.CXX
	}
	a := parseGCCArgs(args)
	if slices.Contains(args, "-###") || a.info {
		return passThrough(real, args, env)
	}
	cwd, err := os.Getwd()
	if err != nil {
		return wrapperFailed(err)
	}
	var stdin []byte
	if a.stdin {
		if stdin, err = io.ReadAll(os.Stdin); err != nil {
			return wrapperFailed(err)
		}
	}
	deps, err := os.CreateTemp(spec.Tmp, "deps-*.d")
	if err != nil {
		return wrapperFailed(err)
	}
	depFile := deps.Name()
	deps.Close()
	os.Remove(depFile) // the compiler writes it when it gets that far
	defer os.Remove(depFile)

	run := runCompiler(real, append(slices.Clone(args), "-MD", "-MF", depFile), env, stdin)
	if run.err != nil {
		return wrapperFailed(run.err)
	}
	ok := allowedFor(spec, tc, env)
	var reads []string
	if data, err := os.ReadFile(depFile); err == nil {
		reads = parseDeps(string(data))
	} else if len(a.sources) > 0 {
		// No rule: the compiler stopped early. What it opened until then
		// is what -H lists; the sources and -include files it reads
		// first are checked by name.
		h := runCompiler(real, append(locateArgs(args), "-H", "-o", os.DevNull), env, stdin)
		reads = append(reads, parseHeaderList(string(h.stderr))...)
		for _, s := range a.sources {
			if s != "-" {
				reads = append(reads, s)
			}
		}
		reads = append(reads, includeFiles(cwd, a, tc.Include)...)
	}
	if !a.compileOnly {
		reads = append(reads, a.objects...)
	}
	var outside, outsideReal string
	verb := "includes"
	for _, r := range reads {
		if r == "-" || r == "<stdin>" {
			continue
		}
		p, _ := resolveRead(cwd, r)
		if !ok.has(p) {
			outside, outsideReal = r, p
			if slices.Contains(a.objects, r) {
				verb = "links"
			}
			break
		}
	}
	if outside == "" && !a.compileOnly {
		for _, d := range a.libDirs {
			p, found := resolveRead(cwd, d)
			if found && !ok.has(p) {
				outside, outsideReal, verb = d, p, "links from"
				break
			}
		}
	}
	if outside == "" {
		os.Stdout.Write(run.stdout)
		os.Stderr.Write(run.stderr)
		return run.code
	}
	var at place
	if verb == "includes" {
		at = locate(real, args, env, stdin, cwd, outsideReal, a)
		if strings.HasPrefix(at.file, "<") {
			// Included by the command line itself: an -include flag.
			at, verb = place{}, "an -include flag reads"
		}
	}
	fmt.Fprintln(os.Stderr, refusal(at, verb, shownPath(cwd, outside, outsideReal), "C code"))
	return 1
}

// ran is a compiler's run: its output, exit code, and an error when it
// did not run at all.
type ran struct {
	stdout, stderr []byte
	code           int
	err            error
}

// runCompiler runs argv+args with env, giving it stdin when not nil, and
// holds its output.
func runCompiler(argv, args, env []string, stdin []byte) ran {
	cmd := exec.Command(argv[0], append(slices.Clone(argv[1:]), args...)...)
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	err := cmd.Run()
	r := ran{stdout: stdout.Bytes(), stderr: stderr.Bytes()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		r.code = exit.ExitCode()
		if r.code < 0 {
			r.code = 1 // killed by a signal
		}
	default:
		r.err = err
	}
	return r
}

// passThrough runs argv+args with the wrapper's own input and output.
func passThrough(argv, args, env []string) int {
	cmd := exec.Command(argv[0], append(slices.Clone(argv[1:]), args...)...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &exit):
		if c := exit.ExitCode(); c > 0 {
			return c
		}
		return 1
	}
	return wrapperFailed(err)
}

// allowedFor is what the compilers of tc may read for spec's root.
func allowedFor(spec *Spec, tc *toolchain, env []string) *allowed {
	a := &allowed{}
	a.addDir(spec.Root)
	a.addDir(spec.Tmp)
	for _, k := range []string{"GOROOT", "GOMODCACHE"} {
		if v, ok := lookup(env, k); ok {
			a.addDir(v)
		}
	}
	for _, d := range tc.Include {
		a.addDir(d)
	}
	for _, d := range tc.Lib {
		a.addDir(d)
	}
	// The user's own flags name what the user chose to read.
	for _, k := range []string{"CGO_CFLAGS", "CGO_CPPFLAGS", "CGO_CXXFLAGS", "CGO_FFLAGS", "CGO_LDFLAGS"} {
		v, _ := lookup(env, k)
		fields, err := split(v)
		if err != nil {
			continue
		}
		u := parseGCCArgs(fields)
		for _, d := range slices.Concat(u.quoteDirs, u.searchDirs, u.libDirs) {
			a.addDir(d)
		}
		for _, f := range u.includes {
			a.addFile(f)
		}
	}
	return a
}

// includeFiles are the files the -include and -imacros options of a
// would read: the first that exists of the name in the working directory,
// beside the first source, in the -iquote, -I, -isystem and -idirafter
// directories and in the system's (gcc's order for a quoted include).
func includeFiles(cwd string, a gccArgs, system []string) []string {
	var out []string
	for _, inc := range a.includes {
		if filepath.IsAbs(inc) {
			out = append(out, inc)
			continue
		}
		dirs := []string{cwd}
		if len(a.sources) > 0 && a.sources[0] != "-" {
			dirs = append(dirs, filepath.Dir(a.sources[0]))
		}
		dirs = append(append(append(dirs, a.quoteDirs...), a.searchDirs...), system...)
		for _, d := range dirs {
			if p := pathIn(pathIn(cwd, d), inc); exists(p) {
				out = append(out, p)
				break
			}
		}
	}
	return out
}

// locate finds where the source includes the file whose real path is
// outside (directly or through a file that does): the compiler
// preprocesses it again, and its line markers give the including file
// and line. Without one found, the place is the first source.
func locate(real, args, env []string, stdin []byte, cwd, outside string, a gccArgs) place {
	r := runCompiler(real, locateArgs(args), env, stdin)
	var at place
	if r.err == nil {
		includers(string(r.stdout), func(file string, from place) bool {
			if p, _ := resolveRead(cwd, file); p == outside && from.file != "" {
				at = from
				return false
			}
			return true
		})
		if strings.HasPrefix(at.file, "<") {
			return at // <command-line>: the caller names the flag
		}
	}
	if at.file == "" && len(a.sources) > 0 {
		at = place{file: a.sources[0]}
		if at.file == "-" {
			at.file = "<stdin>"
		}
	}
	if at.file != "" && at.file != "<stdin>" && !filepath.IsAbs(at.file) {
		at.file = filepath.Join(cwd, at.file)
	}
	return at
}

// shownPath is how the refusal names an outside file: its path as the
// tool read it, made absolute (not cleaned: a ".." after a symlink is not
// the link's own parent), and where it really is when that differs.
func shownPath(cwd, p, real string) string {
	if !filepath.IsAbs(p) {
		p = cwd + string(filepath.Separator) + p
	}
	if real != "" && real != filepath.Clean(p) {
		return p + " (" + real + ")"
	}
	return filepath.Clean(p)
}

// refusal is the one line a confined tool prints instead of its output:
// the place that reads a file outside the root (its path only), and how
// to lift the rule. It names no root: the go command shortens the paths
// in a tool's output, so the root would read ".".
func refusal(at place, verb, outside, what string) string {
	return refusalLine(at, "error: ", verb, outside, what)
}

// refusalLine is refusal with the severity word the tool writes
// ("error: " for a C compiler, none for the Go assembler).
func refusalLine(at place, severity, verb, outside, what string) string {
	where := at.file
	switch {
	case where == "":
		where = "cgo"
	case at.line > 0:
		where = fmt.Sprintf("%s:%d", where, at.line)
	}
	return fmt.Sprintf("%s: %s%s %s, which is outside the root: %s in a root you have not trusted may not read files outside it; devbroker trust lifts this",
		where, severity, verb, outside, what)
}
