// Package external is the driver for external commands: formatters and
// linters that devbroker runs as processes, configured in configs/ (type
// "external"). It is the only package of devbroker that runs commands.
//
// The principal type is [Driver], built by [New] and registered as [Type].
// A driver runs its argv (never a shell) with a timeout and kills the
// command's whole process group when the timeout passes or the request is
// canceled. The command sees the workspace, never the disk: through its
// standard input (one run per file), a staged copy of the workspace in a
// temporary tree, or a Go -overlay file. Its findings are parsed with
// errorformat patterns or a JSON mapping and mapped back to workspace paths
// and character columns.
//
// Exit codes decide what an answer means: an OK code (default 0) and a
// findings code (default 1) are answers; any other code, a death by signal
// or a start failure is status crashed with the command's standard error;
// a timeout is status timeout. A findings code whose output yields no
// parsable finding is crashed too: devbroker never calls such a run clean.
// Output lines the parser does not recognize are ignored.
//
// Column units: a JSON mapping names its unit (column_unit). In errorformat
// patterns, %c is a byte column (as in Vim) and %v is taken as a column in
// Unicode characters.
//
// This file defines [Type], [New] and the driver's configuration checks.
package external

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/reviewdog/errorformat"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine"
)

// Type registers the external command driver with capabilities.NewSet.
var Type = capabilities.Type{
	Name: "external",
	Doc:  "an external command, run from an argv list with a timeout; findings parsed by errorformat or a JSON mapping",
	New:  New,
}

// MaxOutput bounds what devbroker keeps of one run's standard output and,
// separately, of its standard error. A formatter whose output is larger
// fails; a linter's findings past the bound are reported as incomplete.
const MaxOutput = 4 << 20

// Input modes: how a command sees the workspace content.
const (
	InputStdin   = "stdin"
	InputStaged  = "staged"
	InputOverlay = "overlay"
)

// Driver runs one configured external command. It is safe for concurrent
// use: every run has its own temporary files, or a staged tree shared
// only with runs that read it.
type Driver struct {
	name    string
	cfg     *configs.Driver
	env     capabilities.Env
	input   string
	perFile bool
	timeout time.Duration
	// ok and findings are the exit-code policy.
	ok, findings []int
	efm          *errorformat.Errorformat // nil without patterns
	defaultSev   engine.Severity
	kinds        []engine.Kind
	calls        capabilities.Calls

	mu  sync.Mutex
	own *capabilities.Trees // staged trees, for a driver built alone
}

// New builds the driver named name from cfg. It checks the configuration
// and starts nothing.
func New(name string, cfg *configs.Driver, env capabilities.Env) (capabilities.Driver, error) {
	if cfg == nil {
		return nil, errors.New("no configuration")
	}
	d := &Driver{name: name, cfg: cfg, env: env, input: cfg.Input, timeout: cfg.Timeout.Duration}
	if d.input == "" {
		d.input = InputStaged
	}
	if d.timeout <= 0 {
		d.timeout = configs.DefaultTimeout
	}
	d.ok, d.findings = cfg.ExitCodes.OK, cfg.ExitCodes.Findings
	if d.ok == nil {
		d.ok = []int{0}
	}
	if d.findings == nil {
		d.findings = []int{1}
	}
	if err := d.check(); err != nil {
		return nil, err
	}
	return d, nil
}

// check validates the configuration and fills in the derived fields.
func (d *Driver) check() error {
	cfg := d.cfg
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return errors.New("an external driver needs a command (an argv list)")
	}
	switch d.input {
	case InputStdin, InputStaged, InputOverlay:
	default:
		return fmt.Errorf("input %q is not one of stdin, staged, overlay", cfg.Input)
	}
	for _, c := range d.ok {
		if slices.Contains(d.findings, c) {
			return fmt.Errorf("exit code %d is both ok and findings", c)
		}
	}
	uses := func(argv []string, ph string) bool {
		return slices.ContainsFunc(argv, func(a string) bool { return strings.Contains(a, ph) })
	}
	perFileArgs := hasFileArgs(cfg.Command)
	switch {
	case cfg.PerFile != nil:
		d.perFile = *cfg.PerFile
	default:
		d.perFile = d.input == InputStdin || perFileArgs
	}
	if !d.perFile && d.input == InputStdin {
		return errors.New("input stdin runs once per file: per_file cannot be false")
	}
	if !d.perFile && perFileArgs {
		return errors.New("{file} and {path} need per_file: the command runs once for all files")
	}
	if err := checkPackagesArg(cfg.Command, cfg.FixCommand); err != nil {
		return err
	}
	if uses(cfg.Env, packagesArg) {
		return errors.New("{packages} stands for several arguments: it cannot be in env")
	}
	if d.input != InputOverlay && (uses(cfg.Command, "{overlay}") || uses(cfg.FixCommand, "{overlay}")) {
		return errors.New("{overlay} is only set with input \"overlay\"")
	}
	if cfg.Dir != "" && (path.IsAbs(cfg.Dir) || !isLocal(cfg.Dir)) {
		return fmt.Errorf("dir %q must be a relative path inside the root", cfg.Dir)
	}
	switch cfg.Stream {
	case "", "stdout", "stderr":
	default:
		return fmt.Errorf("stream %q is not stdout or stderr", cfg.Stream)
	}
	sev, ok := severityName(cfg.Severity)
	if !ok {
		return fmt.Errorf("severity %q is not error, warning or info", cfg.Severity)
	}
	d.defaultSev = sev
	if len(cfg.Errorformat) > 0 && cfg.JSON != nil {
		return errors.New("errorformat and json are two parsers: configure one")
	}
	if len(cfg.Errorformat) > 0 {
		efm, err := compile(cfg.Errorformat)
		if err != nil {
			return fmt.Errorf("errorformat: %w", err)
		}
		d.efm = efm
	}
	if cfg.JSON != nil {
		if _, ok := unitOf(cfg.JSON.ColumnUnit); !ok {
			return fmt.Errorf("json.column_unit %q is not chars, bytes or utf16", cfg.JSON.ColumnUnit)
		}
		if cfg.JSON.Line == "" || cfg.JSON.Message == "" {
			return errors.New("a json mapping needs at least line and message")
		}
	}
	switch cfg.Output {
	case "":
		if d.efm == nil && cfg.JSON == nil {
			return errors.New("a lint or check command needs a parser: errorformat or json (or output, for a formatter)")
		}
		d.kinds = []engine.Kind{engine.Lint, engine.Check}
	case "stdout", "file":
		if d.input == InputOverlay {
			return errors.New("a formatter (output set) reads stdin or a staged file, not an overlay")
		}
		if cfg.Output == "stdout" && !d.perFile {
			return errors.New("output \"stdout\" is one file's content: the command must run per file")
		}
		if cfg.Output == "file" && d.input != InputStaged {
			return errors.New("output \"file\" rewrites the staged copy: input must be \"staged\"")
		}
		d.kinds = []engine.Kind{engine.Format}
	default:
		return fmt.Errorf("output %q is not stdout or file", cfg.Output)
	}
	return nil
}

// compile compiles errorformat patterns. The library panics on some
// malformed patterns ("%"): that is an error here.
func compile(patterns []string) (efm *errorformat.Errorformat, err error) {
	defer func() {
		if r := recover(); r != nil {
			efm, err = nil, fmt.Errorf("malformed pattern in %q", patterns)
		}
	}()
	return errorformat.NewErrorformat(patterns)
}

// isLocal reports whether the slash path p stays inside its base.
func isLocal(p string) bool {
	c := path.Clean(p)
	return c != ".." && !strings.HasPrefix(c, "../")
}

// Spec describes the driver. Formatters (output set) format; commands with
// a parser lint and check.
func (d *Driver) Spec() capabilities.Spec {
	return capabilities.Spec{Name: d.name, Type: Type.Name, Kinds: d.kinds, Doc: d.cfg.Doc}
}

// canFix reports whether the driver has a fix command.
func (d *Driver) canFix() bool { return len(d.cfg.FixCommand) > 0 }

// Close waits for the running commands to end and removes the staged
// trees the driver keeps itself (a set removes its store). It is
// idempotent.
func (d *Driver) Close() error {
	return d.calls.Close(func() error {
		d.mu.Lock()
		own := d.own
		d.mu.Unlock()
		if own != nil {
			return own.Close()
		}
		return nil
	})
}

var _ capabilities.Driver = (*Driver)(nil)
