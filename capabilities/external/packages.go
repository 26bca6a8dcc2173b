package external

// This file defines the {packages} placeholder: the Go packages of the
// files a run is about, so that a Go tool (go vet, go build) looks at
// those packages and not at every package of the module. After an edit
// to a package that many others import, `go vet ./...` vets every
// dependent again; `go vet ./analysis/code` vets the one package asked
// about.
//
// {packages} stands for one argument per directory that holds one of the
// files, as ./dir relative to the command's working directory ("." for
// that directory itself), each once, sorted. A directory that `./...`
// would pass over is left out, and so are the files that are not part of
// a package: directories named testdata or vendor or whose name starts
// with "." or "_", directories of another module (a go.mod of their own,
// unless a go.work makes them part of the workspace), files outside the
// working directory, and files that the build constraints leave out (a
// //go:build ignore file, x_windows.go on Linux: with the GOOS, GOARCH,
// CGO_ENABLED and -tags of the driver's env, its command and the
// environment). So {packages} names no package that ./... would not, and
// when it names none, the command does not run: there is nothing to vet.
// With no file (a run that is about the whole tree), or more directories
// than fit a command line, it is ./... .

import (
	"bytes"
	"errors"
	"go/build"
	"io"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
)

// packagesArg is the placeholder; it must be a whole argument.
const packagesArg = "{packages}"

// maxPatternBytes bounds the length of the patterns {packages} names;
// past it, ./... stands for them (Windows limits a command line to 32 KiB).
const maxPatternBytes = 16 << 10

// goPackages expands {packages} for one command.
type goPackages struct {
	dir  string        // the command's working directory, a slash path under the tree ("" for the tree)
	ctx  build.Context // the build constraints' context
	work bool          // a go.work makes nested modules part of the workspace
	// has reports whether the workspace path names a file the command
	// sees; read returns a file's content.
	has  func(p string) bool
	read func(p string) []byte
}

// patternsLeft is what {packages} stands for, for files (workspace
// paths), and the files that no package holds (the command will not look
// at them).
func (g *goPackages) patternsLeft(files []string) (out, left []string) {
	if len(files) == 0 {
		return []string{"./..."}, nil
	}
	ctx := g.ctx
	ctx.JoinPath = path.Join
	ctx.OpenFile = func(p string) (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(g.read(p))), nil }
	size := 0
	for _, p := range files {
		pat, ok := g.pattern(&ctx, p)
		if !ok {
			left = append(left, p)
			continue
		}
		if slices.Contains(out, pat) {
			continue
		}
		out = append(out, pat)
		if size += len(pat) + 1; size > maxPatternBytes {
			return []string{"./..."}, nil
		}
	}
	slices.Sort(out)
	return out, left
}

// pattern is the package pattern of the file p, and whether ./... run in
// the command's directory would look at p.
func (g *goPackages) pattern(ctx *build.Context, p string) (string, bool) {
	if p == "" || path.IsAbs(p) || path.Clean(p) != p || !isLocal(p) {
		return "", false
	}
	rel := p
	if g.dir != "" {
		var ok bool
		if rel, ok = strings.CutPrefix(p, g.dir+"/"); !ok {
			return "", false
		}
	}
	dir, name := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if dir != "" {
		segs := strings.Split(dir, "/")
		for i, seg := range segs {
			if seg == "testdata" || seg == "vendor" || strings.HasPrefix(seg, ".") || strings.HasPrefix(seg, "_") {
				return "", false
			}
			if !g.work && g.has(path.Join(g.dir, strings.Join(segs[:i+1], "/"), "go.mod")) {
				return "", false // another module: ./... stops at its go.mod
			}
		}
	}
	// A header the parser cannot read is the tool's to report.
	if ok, err := ctx.MatchFile(path.Dir(p), name); !ok && err == nil {
		return "", false
	}
	if dir == "" {
		return ".", true
	}
	return "./" + dir, true
}

// buildContext is the context of the build constraints that the go
// command started with argv and the driver's env would apply: GOOS,
// GOARCH and CGO_ENABLED from env or the environment, and the -tags of
// GOFLAGS, then of the command line.
func buildContext(argv, env []string) build.Context {
	ctx := build.Default
	get := func(k string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if v, ok := strings.CutPrefix(env[i], k+"="); ok {
				return v
			}
		}
		return os.Getenv(k)
	}
	if v := get("GOOS"); v != "" {
		ctx.GOOS = v
	}
	if v := get("GOARCH"); v != "" {
		ctx.GOARCH = v
	}
	switch get("CGO_ENABLED") {
	case "0":
		ctx.CgoEnabled = false
	case "1":
		ctx.CgoEnabled = true
	default:
		if ctx.GOOS != runtime.GOOS || ctx.GOARCH != runtime.GOARCH {
			ctx.CgoEnabled = false // the go command's default when cross-compiling
		}
	}
	tags, ok := tagsOf(strings.Fields(get("GOFLAGS")))
	if t, ok2 := tagsOf(argv); ok2 {
		tags, ok = t, true
	}
	if ok {
		ctx.BuildTags = tags
	}
	return ctx
}

// tagsOf returns the value of the last -tags flag of args (-tags=a,b,
// --tags=a, or -tags a), and whether there is one.
func tagsOf(args []string) ([]string, bool) {
	var val string
	found := false
	for i, a := range args {
		name, v, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "tags" {
			continue
		}
		switch {
		case hasValue:
			val, found = v, true
		case i+1 < len(args):
			val, found = args[i+1], true
		}
	}
	if !found {
		return nil, false
	}
	return strings.FieldsFunc(val, func(r rune) bool { return r == ',' || r == ' ' }), true
}

// packagesFor builds the expansion of {packages} for a command run in
// the view's tree, in the directory dir (a workspace path: the project's
// directory joined with the configured dir).
func (d *Driver) packagesFor(root string, v *view, argv []string, dir string, read func(p string) []byte) *goPackages {
	g := &goPackages{
		dir:  strings.TrimPrefix(path.Clean("/"+dir), "/"),
		ctx:  buildContext(argv, d.cfg.Env),
		has:  v.has,
		read: read,
	}
	switch work := os.Getenv("GOWORK"); {
	case work == "off":
	case work != "":
		g.work = true
	default:
		for dir := g.dir; ; dir = path.Dir(dir) {
			if g.has(path.Join(dir, "go.work")) {
				g.work = true
			}
			if dir == "." || dir == "" {
				break
			}
		}
		g.work = g.work || (d.input != InputStaged && goWorkAbove(root))
	}
	return g
}

// goWorkAbove reports whether a go.work is in a directory above root.
func goWorkAbove(root string) bool {
	for d := filepath.Dir(root); ; {
		m, _, work := capabilities.GoModule(d)
		if m == "" || work {
			return work
		}
		parent := filepath.Dir(m)
		if parent == m {
			return false
		}
		d = parent
	}
}

// checkPackagesArg refuses {packages} inside a larger argument: it stands
// for several arguments.
func checkPackagesArg(argvs ...[]string) error {
	for _, argv := range argvs {
		for _, a := range argv {
			if a != packagesArg && strings.Contains(a, packagesArg) {
				return errors.New("{packages} must be a whole argument: it stands for one argument per package, as in [\"go\", \"vet\", \"{packages}\"]")
			}
		}
	}
	return nil
}
