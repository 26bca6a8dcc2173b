package confine

// This file reads the compile commands a C language server uses for a
// file (clangd's rule: the nearest directory, from the file's up, that
// holds compile_commands.json, build/compile_commands.json or
// compile_flags.txt) and checks what their flags make it read: the
// include directories, the files they include first, response files.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// dbNames are the files clangd looks for in each directory, as workspace
// paths relative to it.
var dbNames = []string{"compile_commands.json", "build/compile_commands.json", "compile_flags.txt"}

// compileFlags is what the compile commands of one directory tell a
// server: every include directory any command names (a file without its
// own command gets one of theirs), and the files they include first.
type compileFlags struct {
	quoteDirs, searchDirs, frameworkDirs []string
	includes                             []string
	// reason is why the commands themselves reach outside the root ("":
	// they do not).
	reason string
}

// flagsFor returns the compile flags that apply to the files of dir (an
// absolute directory under the root).
func (r *reachScan) flagsFor(dir string) *compileFlags {
	if r.dbDir != "" {
		return r.flagsIn(r.dbDir)
	}
	for d := dir; ; {
		for _, n := range dbNames {
			if exists(filepath.Join(d, filepath.FromSlash(n))) {
				return r.flagsIn(d)
			}
		}
		if d == r.root {
			break
		}
		parent := filepath.Dir(d)
		if parent == d || !under(parent, r.root) {
			break
		}
		d = parent
	}
	// None under the root: the server looks on above it.
	for d := filepath.Dir(r.root); ; d = filepath.Dir(d) {
		for _, n := range dbNames {
			if p := filepath.Join(d, filepath.FromSlash(n)); exists(p) {
				return &compileFlags{reason: fmt.Sprintf("clangd would read the compile commands %s, outside the root", p)}
			}
		}
		if filepath.Dir(d) == d {
			return &compileFlags{}
		}
	}
}

// flagsIn reads the compile commands of the directory dir, once.
func (r *reachScan) flagsIn(dir string) *compileFlags {
	if f, ok := r.flags[dir]; ok {
		return f
	}
	f := &compileFlags{}
	r.flags[dir] = f
	if !under(dir, r.root) {
		// A --compile-commands-dir outside the root.
		for _, n := range dbNames {
			if p := filepath.Join(dir, filepath.FromSlash(n)); exists(p) {
				f.reason = fmt.Sprintf("clangd would read the compile commands %s, outside the root", p)
				return f
			}
		}
		return f
	}
	for _, n := range dbNames {
		p := filepath.Join(dir, filepath.FromSlash(n))
		if !exists(p) {
			continue
		}
		data, shown, reason := r.readInRoot(p)
		if reason != "" {
			f.reason = reason
			return f
		}
		if data == nil {
			continue
		}
		if strings.HasSuffix(n, ".txt") {
			var args []string
			for _, line := range strings.Split(string(data), "\n") {
				if line = strings.TrimRight(line, "\r"); line != "" {
					args = append(args, line)
				}
			}
			// compile_flags.txt: every line an argument, relative paths
			// relative to its own directory.
			if f.reason = r.checkFlags(f, shown, filepath.Dir(p), args, 0); f.reason != "" {
				return f
			}
			continue
		}
		var entries []struct {
			Directory string   `json:"directory"`
			File      string   `json:"file"`
			Command   string   `json:"command"`
			Arguments []string `json:"arguments"`
		}
		if err := json.Unmarshal(data, &entries); err != nil {
			f.reason = fmt.Sprintf("%s does not read as compile commands (%v), so what clangd does with it cannot be told", shown, err)
			return f
		}
		for _, e := range entries {
			args := e.Arguments
			if len(args) == 0 {
				args = splitCommand(e.Command)
			}
			if len(args) == 0 {
				continue
			}
			if base := strings.ToLower(strings.TrimSuffix(filepath.Base(args[0]), ".exe")); base == "cl" || base == "clang-cl" {
				f.reason = fmt.Sprintf("%s compiles with %s, whose include search the scan does not follow", shown, args[0])
				return f
			}
			cdir := e.Directory
			if cdir == "" {
				cdir = filepath.Dir(p)
			} else if !filepath.IsAbs(cdir) {
				cdir = filepath.Join(filepath.Dir(p), cdir)
			}
			if f.reason = r.checkFlags(f, shown, cdir, args[1:], 0); f.reason != "" {
				return f
			}
		}
	}
	return f
}

// readInRoot reads the file at the absolute path p under the root
// through the root's door; reason says why not when it leads outside.
// shown is p's workspace path.
func (r *reachScan) readInRoot(p string) (data []byte, shown, reason string) {
	rel, ok := r.fsys.Inside(p)
	if !ok {
		real, _ := resolveRead(r.root, p)
		return nil, p, fmt.Sprintf("%s leads outside the root (%s)", p, real)
	}
	data, _, err := r.fsys.ReadFile(rel)
	if err != nil {
		return nil, rel, ""
	}
	return data, rel, ""
}

// Options of compile commands whose value is a directory searched for
// includes (quoted ones only: quoteOpts; frameworks: frameworkOpts).
var (
	quoteOpts     = map[string]bool{"-iquote": true}
	searchOpts    = map[string]bool{"-I": true, "--include-directory": true, "-isystem": true, "-idirafter": true, "-cxx-isystem": true, "-isysroot": true, "--sysroot": true, "-iwithsysroot": true, "-F": true, "-iframework": true, "-iframeworkwithsysroot": true, "-resource-dir": true}
	frameworkOpts = map[string]bool{"-F": true, "-iframework": true, "-iframeworkwithsysroot": true}
	// includeOpts name a file the compiler reads first (or loads).
	includeOpts = map[string]bool{"-include": true, "--include": true, "-imacros": true, "--imacros": true, "-include-pch": true, "-ivfsoverlay": true, "--config": true, "-fmodule-map-file": true, "-fmodule-file": true, "-fprofile-use": true, "-fprofile-instr-use": true, "-fprofile-sample-use": true, "-fsanitize-ignorelist": true, "-fsanitize-blacklist": true, "-fplugin": true, "-fpass-plugin": true, "-load": true, "--gcc-toolchain": true, "-B": true, "--prefix": true}
	// skipOpts take a value the server never reads (an output, a macro,
	// a language, a library for a link it does not do).
	skipOpts = map[string]bool{"-o": true, "-MF": true, "-MT": true, "-MQ": true, "-MJ": true, "-D": true, "-U": true, "-x": true, "-arch": true, "-target": true, "-L": true, "-l": true, "-Xlinker": true, "-u": true, "-e": true, "-T": true, "--serialize-diagnostics": true, "-dependency-file": true, "-z": true, "--param": true, "-aux-info": true, "-dumpbase": true, "-dumpdir": true, "-framework": true, "-A": true, "-G": true, "-wrapper": true, "-specs": true, "-imultilib": true}
	// moduleOpts turn modules on: module maps name headers the scan does
	// not follow.
	moduleOpts = []string{"-fmodules", "-fcxx-modules", "-fimplicit-module-maps", "-fmodule-map-file", "-fmodule-file", "-fprebuilt-module-path", "-fmodules-ts", "-fmodule-name"}
)

// checkFlags checks the arguments of one compile command (args, its
// program left out), run in dir, listed in the file shown: every file
// and directory they name that exists must be under the root or the
// system's; the include directories and first-included files join f.
// It returns why not ("" when they do). depth counts response files.
func (r *reachScan) checkFlags(f *compileFlags, shown, dir string, args []string, depth int) string {
	// -Xclang X, -Xpreprocessor X and -Wp,A,B pass X, A and B on as
	// arguments of their own.
	var flat []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case (a == "-Xclang" || a == "-Xpreprocessor") && i+1 < len(args):
			i++
			flat = append(flat, args[i])
		case strings.HasPrefix(a, "-Wp,"):
			flat = append(flat, strings.Split(a[len("-Wp,"):], ",")...)
		case strings.HasPrefix(a, "-Xclang="):
			flat = append(flat, a[len("-Xclang="):])
		default:
			flat = append(flat, a)
		}
	}
	for i := 0; i < len(flat); i++ {
		a := flat[i]
		for _, m := range moduleOpts {
			if a == m || strings.HasPrefix(a, m+"=") {
				return fmt.Sprintf("%s turns modules on (%s), whose module maps the scan does not follow", shown, a)
			}
		}
		if strings.HasPrefix(a, "--driver-mode=") && strings.Contains(a, "cl") {
			return fmt.Sprintf("%s compiles in %s, whose include search the scan does not follow", shown, a)
		}
		if a == "-iprefix" || strings.HasPrefix(a, "-iprefix") || strings.HasPrefix(a, "-iwithprefix") {
			return fmt.Sprintf("%s uses %s, which the scan does not follow", shown, a)
		}
		if rsp, ok := strings.CutPrefix(a, "@"); ok {
			if depth >= 8 {
				return fmt.Sprintf("%s nests response files deeper than the scan follows", shown)
			}
			p := pathIn(dir, rsp)
			if !exists(p) {
				continue
			}
			real, _ := resolveRead(dir, p)
			if !under(real, r.root) {
				return fmt.Sprintf("%s reads the response file %s, outside the root", shown, p)
			}
			data, rshown, reason := r.readInRoot(real)
			if reason != "" {
				return reason
			}
			if why := r.checkFlags(f, rshown, dir, splitResponse(string(data)), depth+1); why != "" {
				return why
			}
			continue
		}
		opt, val, has := a, "", false
		if i+1 < len(flat) && (searchOpts[a] || quoteOpts[a] || includeOpts[a] || skipOpts[a]) {
			i++
			val, has = flat[i], true
		} else if o, v, ok := optionValue(a); ok {
			opt, val, has = o, v, true
		}
		switch {
		case !has && !strings.HasPrefix(a, "-"):
			// An operand: the file compiled.
			if why := r.checkPath(shown, dir, a, a); why != "" {
				return why
			}
		case !has:
		case skipOpts[opt]:
		case searchOpts[opt] || quoteOpts[opt]:
			p := pathIn(dir, val)
			if why := r.checkPath(shown, dir, a, val); why != "" {
				return why
			}
			switch {
			case quoteOpts[opt]:
				f.quoteDirs = append(f.quoteDirs, p)
			case frameworkOpts[opt]:
				f.frameworkDirs = append(f.frameworkDirs, p)
			case opt == "-isysroot" || opt == "--sysroot":
				// The system's headers are then under it.
				f.searchDirs = append(f.searchDirs, p+"/usr/local/include", p+"/usr/include")
			case opt == "-resource-dir":
			default:
				f.searchDirs = append(f.searchDirs, p)
			}
		case includeOpts[opt]:
			if why := r.checkPath(shown, dir, a, val); why != "" {
				return why
			}
			if opt == "-include" || opt == "--include" || opt == "-imacros" || opt == "--imacros" {
				f.includes = append(f.includes, pathIn(dir, val))
			}
		case strings.ContainsAny(val, `/\`):
			// Any other option's value that looks like a path.
			if why := r.checkPath(shown, dir, a, val); why != "" {
				return why
			}
		}
	}
	return ""
}

// optionValue splits an option written with its value: "-Idir",
// "--sysroot=dir", "-fprofile-use=x"; an unknown "-opt=value" too.
func optionValue(a string) (opt, val string, ok bool) {
	if !strings.HasPrefix(a, "-") {
		return a, "", false
	}
	if o, v, found := strings.Cut(a, "="); found {
		return o, v, true
	}
	for _, p := range joinable {
		if v, found := strings.CutPrefix(a, p); found && v != "" {
			return p, v, true
		}
	}
	return a, "", false
}

// joinable are the options that take their value joined ("-Idir",
// "-isystemdir"): the two-letter ones and the -i ones, longest first.
var joinable = func() []string {
	var out []string
	for _, m := range []map[string]bool{quoteOpts, searchOpts, includeOpts, skipOpts} {
		for p := range m {
			if len(p) == 2 || strings.HasPrefix(p, "-i") {
				out = append(out, p)
			}
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		if len(a) != len(b) {
			return len(b) - len(a)
		}
		return strings.Compare(a, b)
	})
	return slices.Compact(out)
}()

// pathIn is the path p as a command run in dir names it: kept as
// written (not cleaned: a ".." after a symlink is the link's parent's).
func pathIn(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return dir + string(filepath.Separator) + p
}

// checkPath checks a path a compile command names (val, in the argument
// arg): when it exists, it must be under the root or the system's.
func (r *reachScan) checkPath(shown, dir, arg, val string) string {
	if val == "" {
		return ""
	}
	p := pathIn(dir, val)
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	real, _ := resolveRead(dir, p)
	if r.ok.has(real) {
		return ""
	}
	return fmt.Sprintf("%s: %s names %s, outside the root", shown, arg, shownPath(dir, p, real))
}
