// Package confine keeps the C toolchain and the C language server of a
// root the user has not trusted from reading files outside it, so that no
// answer can carry their text: a compiler quotes what it reads (an
// error's source line, a macro's expansion: `static assertion failed:
// "<the macro's value>"`), and a withheld place (capabilities' quoted.go)
// does not stop a macro defined outside from being expanded on a line
// inside.
//
// The rule, for a root the user has not trusted: a compiler, an assembler
// or a C language server that devbroker's drivers start reads no file
// outside the root but the system's own public files (the compiler's
// default include directories, GOROOT, the module cache). A trusted root
// is not confined.
//
//   - The go command's C compilers (cgo: gopls's go list -compiled, go
//     build and go vet, staticcheck's package load): every driver gets
//     [Env], which points CC and CXX at a wrapper in this process's private
//     directory (cc.go). The wrapper runs the real compiler with -MD and
//     checks every file it read; when one lies outside, it discards the
//     compiler's output and says, in one line, which file of the root
//     includes which path outside it (the path only), and that trust lifts
//     the rule.
//   - The Go assembler: Env also gives the go command a -toolexec (in
//     GOFLAGS) that checks every #include of the assembly it assembles
//     before the assembler runs (asm.go); its includes cannot be computed,
//     so the check is exact.
//   - clangd: it reads what the sources it opens include, with the flags of
//     the compile commands; [Scan] (reach.go) scans what a request would
//     make it read, and the lsp driver does not send a request whose files
//     reach outside (capabilities/lspdriver: the answer is unchecked, with
//     the trust hint).
//
// The wrapper is this package's executable itself: [Env] links (cc, c++)
// to os.Executable in a private directory, and names it with
// [EnvVar]; the package's init runs the wrapper, and exits, when the
// process was started so. Any binary that can set the confinement up
// (it imports this package to call Env) can therefore run it.
package confine

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/devbroker/devbroker/internal/privtemp"
)

// EnvVar names, in the environment of the tools devbroker starts in a
// root it has not trusted, the directory of the confinement's
// specification (spec.json) for that root.
const EnvVar = "DEVBROKER_CONFINE"

// ToolexecArg is the first argument the go command's -toolexec passes to
// this executable: the wrapper of the go command's tools (asm.go).
const ToolexecArg = "confine-toolexec"

// Spec is what a wrapper needs to know of its root: written once per root
// and configuration, read by each wrapper run.
type Spec struct {
	// Root is the root's real path (symlinks resolved).
	Root string `json:"root"`
	// Tmp is the private temporary directory the go command works in
	// (TMPDIR and GOTMPDIR): its work directories and cgo's input files.
	Tmp string `json:"tmp"`
	// CC and CXX are the C and C++ compilers the environment names (the
	// CC and CXX variables the tools would have had), split as the go
	// command splits them; nil: the go command's own (go env CC).
	CC  []string `json:"cc,omitempty"`
	CXX []string `json:"cxx,omitempty"`
	// Toolexec is the -toolexec of the user's GOFLAGS, which the wrapper
	// runs the tool with; nil when there is none.
	Toolexec []string `json:"toolexec,omitempty"`
}

// private is this process's directory of wrappers, made once.
var private struct {
	once sync.Once
	dir  string
	err  error
	mu   sync.Mutex
	made map[string]bool // spec directories written
}

// Dir returns the process's private directory of confinement wrappers,
// making it at the first call ("" and the error when it cannot be made).
func privateDir() (string, error) {
	private.once.Do(func() {
		private.dir, private.err = privtemp.Dir("confine")
		if private.err == nil {
			private.dir, private.err = filepath.EvalSymlinks(private.dir)
		}
	})
	return private.dir, private.err
}

// Cleanup removes the process's private directory of wrappers; a process
// that is killed leaves it to privtemp.Sweep. Tools still running in the
// confined roots then fail (their compilers are gone).
func Cleanup() {
	private.mu.Lock()
	defer private.mu.Unlock()
	if private.dir != "" {
		_ = os.RemoveAll(private.dir)
		private.made = nil
	}
}

// Env is the environment that confines the C toolchain of the go
// command, for every tool devbroker starts in root, a root the user has
// not trusted; base is the environment those tools would otherwise have
// (the process's and the driver's own, later entries winning). It is
// stable: the same root and base give
// the same variables, so a language server's configuration does not
// change from one load to the next.
//
// GOFLAGS adds the toolexec that checks the assembler's includes
// (asm.go); TMPDIR and GOTMPDIR are the root's private temporary
// directory; on Unix, CC and CXX are the wrapper (cc.go, wrappers_unix.go).
// On Windows, where no wrapper is written, cgo is off (CGO_ENABLED=0:
// the Go files that import "C" are left out of the build, which
// [Coverage] says).
func Env(root string, base []string) ([]string, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	if real, err = filepath.Abs(real); err != nil {
		return nil, err
	}
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("the C toolchain cannot be confined to the root: %w", err)
	}
	if e, err := filepath.EvalSymlinks(exe); err == nil {
		exe = e
	}
	spec := Spec{Root: real}
	if cc, ok := lookup(base, "CC"); ok && cc != "" {
		if spec.CC, err = split(cc); err != nil {
			return nil, fmt.Errorf("CC=%s: %w", cc, err)
		}
	}
	if cxx, ok := lookup(base, "CXX"); ok && cxx != "" {
		if spec.CXX, err = split(cxx); err != nil {
			return nil, fmt.Errorf("CXX=%s: %w", cxx, err)
		}
	}
	goflags, ok := lookup(base, "GOFLAGS")
	if !ok {
		goflags = goEnvFile(base, "GOFLAGS")
	}
	flags, err := split(goflags)
	if err != nil {
		return nil, fmt.Errorf("GOFLAGS=%s: %w", goflags, err)
	}
	var kept []string
	for i := 0; i < len(flags); i++ {
		f := flags[i]
		name, val, hasVal := strings.Cut(strings.TrimLeft(f, "-"), "=")
		if name != "toolexec" || !strings.HasPrefix(f, "-") {
			kept = append(kept, f)
			continue
		}
		if !hasVal && i+1 < len(flags) {
			i++
			val = flags[i]
		}
		if spec.Toolexec, err = split(val); err != nil {
			return nil, fmt.Errorf("GOFLAGS -toolexec=%s: %w", val, err)
		}
	}
	key := sha256.Sum256(fmt.Appendf(nil, "%q %q %q %q %q", real, exe, spec.CC, spec.CXX, spec.Toolexec))
	priv, err := privateDir()
	if err != nil {
		return nil, fmt.Errorf("the C toolchain cannot be confined to the root: %w", err)
	}
	dir := filepath.Join(priv, hex.EncodeToString(key[:8]))
	spec.Tmp = filepath.Join(dir, "tmp")
	if err := writeSpec(dir, exe, &spec); err != nil {
		return nil, fmt.Errorf("the C toolchain cannot be confined to the root: %w", err)
	}
	toolexec, err := joinQuoted([]string{exe, ToolexecArg})
	if err != nil {
		return nil, fmt.Errorf("the assembler cannot be confined to the root: %w", err)
	}
	kept = append(kept, "-toolexec="+toolexec)
	goflags, err = joinQuoted(kept)
	if err != nil {
		return nil, fmt.Errorf("the assembler cannot be confined to the root: %w", err)
	}
	env := []string{EnvVar + "=" + dir, "GOFLAGS=" + goflags, "TMPDIR=" + spec.Tmp, "GOTMPDIR=" + spec.Tmp}
	more, err := compilerEnv(dir, spec.Tmp)
	if err != nil {
		return nil, fmt.Errorf("the C toolchain cannot be confined to the root: %w", err)
	}
	return append(env, more...), nil
}

// writeSpec makes dir with spec.json, the private temporary directory and
// (on Unix) the links cc and c++ to exe, once per process.
func writeSpec(dir, exe string, spec *Spec) error {
	private.mu.Lock()
	defer private.mu.Unlock()
	if private.made[dir] {
		return nil
	}
	if err := os.MkdirAll(spec.Tmp, 0o700); err != nil {
		return err
	}
	data, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "spec.json"), data, 0o600); err != nil {
		return err
	}
	if err := writeWrappers(dir, exe); err != nil {
		return err
	}
	if private.made == nil {
		private.made = map[string]bool{}
	}
	private.made[dir] = true
	return nil
}

// readSpec reads the specification in dir.
func readSpec(dir string) (*Spec, error) {
	data, err := os.ReadFile(filepath.Join(dir, "spec.json"))
	if err != nil {
		return nil, err
	}
	var s Spec
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "spec.json"), err)
	}
	if s.Root == "" || s.Tmp == "" {
		return nil, fmt.Errorf("%s: no root", filepath.Join(dir, "spec.json"))
	}
	return &s, nil
}

// lookup is key's value in env, the last entry winning, as os/exec does.
func lookup(env []string, key string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v, true
		}
	}
	return "", false
}

// without is env less the entries of keys.
func without(env []string, keys ...string) []string {
	return slices.DeleteFunc(slices.Clone(env), func(e string) bool {
		k, _, _ := strings.Cut(e, "=")
		return slices.Contains(keys, k)
	})
}

// goEnvFile is key's value in the go command's configuration file (GOENV,
// written by go env -w), or "": the go command reads GOFLAGS there when
// the environment does not set it.
func goEnvFile(env []string, key string) string {
	name, _ := lookup(env, "GOENV")
	if name == "off" {
		return ""
	}
	if name == "" {
		dir, err := os.UserConfigDir()
		if err != nil {
			return ""
		}
		name = filepath.Join(dir, "go", "env")
	}
	f, err := os.Open(name)
	if err != nil {
		return ""
	}
	defer f.Close()
	val := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), key+"="); ok {
			val = v
		}
	}
	return val
}
