package confine

// This file reads a C compiler's command line as gcc and clang read it:
// its operands (the files it compiles or links), what it was asked to do,
// and the directories and files its options name.

import (
	"path/filepath"
	"strings"
)

// separateArg are the options of gcc and clang whose value may be the
// next argument.
var separateArg = map[string]bool{
	"-o": true, "-x": true, "-I": true, "-D": true, "-U": true, "-include": true, "-imacros": true,
	"-iquote": true, "-isystem": true, "-idirafter": true, "-iprefix": true, "-iwithprefix": true,
	"-iwithprefixbefore": true, "-isysroot": true, "-imultilib": true, "-MF": true, "-MT": true,
	"-MQ": true, "-L": true, "-l": true, "-T": true, "-u": true, "-e": true, "-Xlinker": true,
	"-Xassembler": true, "-Xpreprocessor": true, "-Xclang": true, "-aux-info": true, "-dumpbase": true,
	"-dumpdir": true, "-dumpbase-ext": true, "--param": true, "-arch": true, "-target": true,
	"-framework": true, "-F": true, "-B": true, "-A": true, "-z": true, "--sysroot": true,
	"-wrapper": true, "-cxx-isystem": true, "-ivfsoverlay": true, "-include-pch": true,
	"-iframework": true, "-G": true, "--include": true, "--imacros": true, "--include-directory": true,
	"--library-directory": true, "--output": true, "--language": true, "--define-macro": true,
	"--undefine-macro": true, "-resource-dir": true, "--config": true, "-specs": true,
}

// gccArgs is what a compiler's command line asks for.
type gccArgs struct {
	// sources are the operands a compiler reads as source (by extension
	// or -x; "-" is standard input); objects the others (objects and
	// libraries, for the linker).
	sources, objects []string
	// stdin: an operand is "-".
	stdin bool
	// compileOnly: -c, -S, -E, -M or -MM: nothing is linked.
	compileOnly bool
	// info: an option that only prints (-###, --version, -dumpversion,
	// -print-...), and no operand.
	info bool
	// includes are the -include and -imacros files; libDirs the -L
	// directories (also through -Wl and -Xlinker).
	includes, libDirs []string
	// quoteDirs and searchDirs are the -iquote directories and the -I,
	// -isystem and -idirafter ones, in order.
	quoteDirs, searchDirs []string
}

// sourceExts are the extensions gcc compiles (as opposed to passing them
// to the linker).
var sourceExts = map[string]bool{
	".c": true, ".i": true, ".ii": true, ".cc": true, ".cp": true, ".cxx": true, ".cpp": true,
	".c++": true, ".C": true, ".CPP": true, ".m": true, ".mi": true, ".mm": true, ".M": true,
	".mii": true, ".h": true, ".hh": true, ".hpp": true, ".hxx": true, ".H": true, ".tcc": true,
	".s": true, ".S": true, ".sx": true, ".f": true, ".for": true, ".ftn": true, ".F": true,
	".FOR": true, ".fpp": true, ".FPP": true, ".FTN": true, ".f90": true, ".f95": true,
	".f03": true, ".f08": true, ".F90": true, ".F95": true, ".F03": true, ".F08": true,
}

// parseGCCArgs reads args, a C compiler's arguments (after the program).
func parseGCCArgs(args []string) gccArgs {
	var a gccArgs
	lang := "" // -x's language for the operands after it
	infoOnly := false
	for i := 0; i < len(args); i++ {
		arg := args[i]
		if arg == "-" {
			a.stdin = true
			a.sources = append(a.sources, arg)
			continue
		}
		if !strings.HasPrefix(arg, "-") || len(arg) == 1 {
			if strings.HasPrefix(arg, "@") {
				a.objects = append(a.objects, arg) // a response file: checked like an input
				continue
			}
			if lang != "" && lang != "none" || sourceExts[filepath.Ext(arg)] {
				a.sources = append(a.sources, arg)
			} else {
				a.objects = append(a.objects, arg)
			}
			continue
		}
		val := ""
		opt := arg
		if separateArg[arg] {
			if i+1 < len(args) {
				i++
				val = args[i]
			}
		} else if o, v, ok := joinedValue(arg); ok {
			opt, val = o, v
		}
		switch opt {
		case "-x", "--language":
			lang = val
		case "-c", "-S", "-E", "-M", "-MM":
			a.compileOnly = true
		case "-###", "--version", "-dumpversion", "-dumpmachine", "-dumpspecs", "--help", "-v":
			infoOnly = true
		case "-include", "--include", "-imacros", "--imacros":
			a.includes = append(a.includes, val)
		case "-L", "--library-directory":
			a.libDirs = append(a.libDirs, val)
		case "-iquote":
			a.quoteDirs = append(a.quoteDirs, val)
		case "-I", "--include-directory", "-isystem", "-idirafter", "-cxx-isystem":
			a.searchDirs = append(a.searchDirs, val)
		case "-Xlinker":
			if strings.HasPrefix(val, "-L") && len(val) > 2 {
				a.libDirs = append(a.libDirs, val[2:])
			}
		}
		if strings.HasPrefix(arg, "-print-") {
			infoOnly = true
		}
		if w, ok := strings.CutPrefix(arg, "-Wl,"); ok {
			parts := strings.Split(w, ",")
			for j := 0; j < len(parts); j++ {
				switch {
				case parts[j] == "-L" && j+1 < len(parts):
					j++
					a.libDirs = append(a.libDirs, parts[j])
				case strings.HasPrefix(parts[j], "-L") && len(parts[j]) > 2:
					a.libDirs = append(a.libDirs, parts[j][2:])
				}
			}
		}
	}
	a.info = infoOnly && len(a.sources) == 0 && len(a.objects) == 0
	return a
}

// joinedPrefixes are the options whose value may follow them in the same
// argument, longest first where one is a prefix of another.
var joinedPrefixes = []string{
	"-iwithprefixbefore", "-iwithprefix", "-include-pch", "-iframework", "-idirafter", "-imultilib",
	"-isysroot", "-isystem", "-iprefix", "-iquote", "-imacros", "-include", "-cxx-isystem",
	"-ivfsoverlay", "--include-directory=", "--library-directory=", "--include=", "--imacros=",
	"--sysroot=", "--output=", "--language=", "-resource-dir=", "--config=", "-specs=",
	"-MF", "-MT", "-MQ", "-o", "-x", "-I", "-D", "-U", "-L", "-l", "-F", "-B",
}

// joinedValue splits an option written with its value ("-Idir",
// "--sysroot=dir") into the option and the value.
func joinedValue(arg string) (opt, val string, ok bool) {
	for _, p := range joinedPrefixes {
		if v, found := strings.CutPrefix(arg, p); found && v != "" {
			return strings.TrimSuffix(p, "="), v, true
		}
	}
	return arg, "", false
}

// locateArgs are args with what decides the compiler's output taken out
// (what it does: -c, -S, -E, -M...; where: -o, -MF...; macro dumps), so
// that the compiler, given -E after them, writes the preprocessed source
// with its line markers to its standard output.
func locateArgs(args []string) []string {
	drop := map[string]bool{"-c": true, "-S": true, "-E": true, "-M": true, "-MM": true, "-MD": true,
		"-MMD": true, "-MG": true, "-MP": true, "-dM": true, "-dD": true, "-dN": true, "-dI": true,
		"-dU": true, "-P": true, "-H": true, "-save-temps": true, "-pipe": true, "-###": true, "-v": true}
	dropVal := map[string]bool{"-o": true, "-MF": true, "-MT": true, "-MQ": true, "--output": true}
	var out []string
	for i := 0; i < len(args); i++ {
		arg := args[i]
		switch {
		case drop[arg]:
			continue
		case dropVal[arg]:
			i++
			continue
		case separateArg[arg]:
			out = append(out, arg)
			if i+1 < len(args) {
				i++
				out = append(out, args[i])
			}
			continue
		}
		if opt, _, ok := joinedValue(arg); ok && dropVal[opt] {
			continue
		}
		if strings.HasPrefix(arg, "-save-temps=") {
			continue
		}
		out = append(out, arg)
	}
	return append(out, "-E")
}
