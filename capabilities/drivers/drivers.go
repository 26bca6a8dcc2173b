// Package drivers is the registry of devbroker's driver types, in one
// readable list, and the one place that turns a root's configuration into
// a probed [capabilities.Set]: the place where trust is decided.
package drivers

import (
	"context"
	"fmt"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/confine"
	"github.com/devbroker/devbroker/capabilities/external"
	"github.com/devbroker/devbroker/capabilities/gofumpt"
	"github.com/devbroker/devbroker/capabilities/gotest"
	"github.com/devbroker/devbroker/capabilities/junitrun"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/capabilities/pytest"
	"github.com/devbroker/devbroker/capabilities/staticcheck"
	"github.com/devbroker/devbroker/capabilities/vitest"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/trust"
	"github.com/devbroker/devbroker/engine/lex"
)

// Types are the driver types a configuration can name. A type that is not
// implemented is not listed, so a configuration naming it is refused.
var Types = []capabilities.Type{
	gofumpt.Type,     // linked in: format Go
	staticcheck.Type, // linked in: lint Go
	external.Type,    // any command: argv, input mode, output parser
	lspdriver.Type,   // a language server: gopls, or any configured one
	gotest.Type,      // go test of the packages a change affects
	pytest.Type,      // pytest of the test files a change affects
	vitest.Type,      // vitest of the tests a change affects
	junitrun.Type,    // any test runner that writes a JUnit XML report
}

// Options are how [LoadWith] decides trust.
type Options struct {
	// Trust decides whether the project's commands may run; nil: the
	// user's trust list ([trust.Default]).
	Trust trust.Checker
	// Previous is the set the loaded one will replace (a re-probe), or
	// nil: the new set is built beside it and takes over its running
	// language servers whose configuration did not change (see
	// capabilities.NewSetAfter). The caller still closes Previous.
	Previous *capabilities.Set
	// Probe is what LoadWith probes before it returns; the set probes
	// the rest of its drivers when a request first needs them.
	Probe ProbeMode
	// Cache answers the probes of tools unchanged since a run found
	// them working, and records what this load finds; nil probes every
	// driver.
	Cache *capabilities.ProbeCache
}

// ProbeMode is what [LoadWith] probes before it returns.
type ProbeMode int

const (
	// ProbeAll probes every driver of every configured language.
	ProbeAll ProbeMode = iota
	// ProbePresent probes the drivers of the languages whose files are
	// under the root (capabilities.Set.ProbeRoot).
	ProbePresent
	// ProbeLazy probes nothing: each request probes the drivers of its
	// files' languages first.
	ProbeLazy
)

// LoadWith reads root's configuration, builds its drivers and probes them
// as opts says.
// The project file (root/.devbroker.toml) applies, merged over the
// embedded defaults and the user's configuration, only when the user's
// trust list trusts the root with this content of the file; otherwise
// none of it applies (configs.Project.Untrusted), and the report says so
// and lists what the file would run. In a root the user has not trusted
// (with a project file or without), the drivers that run the repository's
// code (runs_repository_code) are reported untrusted, neither probed nor
// run.
func LoadWith(ctx context.Context, root string, opts Options) (*capabilities.Set, *capabilities.Report, error) {
	p, err := configs.LoadProject(root)
	if err != nil {
		return nil, nil, err
	}
	v := check(opts.Trust, root, p.Hash)
	if p.Invalid != nil {
		if v.Trusted {
			return nil, nil, p.Invalid
		}
		p.Warnings = append(p.Warnings, fmt.Sprintf("%s does not load, so none of it applies (it would not before you trust the root either); fix it before you trust the root: %v", p.File, p.Invalid))
	}
	cfg := p.Config
	if !v.Trusted {
		cfg = p.Untrusted // the defaults and the user's file
		inert(cfg, p.InertEnv)
		p.Warnings = append(p.Warnings, confineC(cfg, root)...)
	} else {
		external.UseProjectTools(cfg, root) // the project's own tools before PATH
	}
	set, err := capabilities.NewSetAfter(opts.Previous, cfg, Types, root)
	if err != nil {
		return nil, nil, err
	}
	set.SetProject(projectTrust(p, v))
	set.UseCache(opts.Cache)
	if !v.Trusted {
		untrustRepositoryCode(set, cfg, v.Reason)
	}
	switch opts.Probe {
	case ProbePresent:
		return set, set.ProbeRoot(ctx), nil
	case ProbeLazy:
		return set, set.Report(), nil
	}
	return set, set.Probe(ctx), nil // the caller closes set
}

// check asks c, or the user's trust list.
func check(c trust.Checker, root, hash string) trust.Verdict {
	if c == nil {
		s, err := trust.Default()
		if err != nil {
			return trust.Verdict{Reason: err.Error()}
		}
		c = s
	}
	return c.Check(root, hash)
}

// inert gives every driver of cfg the environment that makes the user's
// tools ignore their configuration files inside an untrusted root
// (GOENV=off: a go env file there could set GOFLAGS=-toolexec=...).
func inert(cfg *configs.Config, env []string) {
	if len(env) == 0 {
		return
	}
	for _, d := range cfg.Drivers {
		d.Env = append(slices.Clone(d.Env), env...)
	}
}

// confineC keeps every driver's C toolchain and every C language server
// from reading files outside root, a root the user has not trusted (see
// capabilities/confine): each driver gets the environment that confines
// the go command's compilers and assembler, and the language servers of C
// and C++ are marked to answer only about files whose includes stay
// inside. A driver whose environment cannot be set up gets cgo turned off
// instead, and the returned warning says why (as it says, on Windows,
// that cgo is off in such a root).
func confineC(cfg *configs.Config, root string) []string {
	var warnings []string
	if confine.Coverage != "" {
		warnings = append(warnings, confine.Coverage)
	}
	names := make([]string, 0, len(cfg.Drivers))
	for name := range cfg.Drivers {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		d := cfg.Drivers[name]
		base := append(os.Environ(), d.Env...)
		env, err := confine.Env(root, base)
		if err != nil {
			env = []string{"CGO_ENABLED=0"}
			warnings = append(warnings, fmt.Sprintf("%s runs without cgo in this root, which you have not trusted: %v", name, err))
		}
		d.Env = append(slices.Clone(d.Env), env...)
	}
	for _, l := range cfg.Languages {
		if !cFamily(l.FileTypes) {
			continue
		}
		for _, list := range [][]string{l.Format, l.Lint, l.Check, l.Intelligence} {
			for _, slot := range list {
				for _, name := range strings.FieldsFunc(slot, func(r rune) bool { return r == '|' || r == '+' || r == ' ' || r == '\t' }) {
					if d, ok := cfg.Drivers[name]; ok && d.Type == "lsp" {
						d.ConfineIncludes = true
					}
				}
			}
		}
	}
	return warnings
}

// cFamily reports whether file types name C, C++ or Objective-C sources
// ("*.c", "*.hpp", "src/**/*.m").
func cFamily(types []string) bool {
	for _, t := range types {
		ext := strings.ToLower(path.Ext(t))
		if strings.ContainsAny(ext, "*?[{") || ext == "" {
			continue
		}
		if l := lex.ForFile("x" + ext); l != nil && (l.Name == "c" || l.Name == "c++") || ext == ".m" || ext == ".mm" {
			return true
		}
	}
	return false
}

// projectTrust is what the report says of the project file.
func projectTrust(p *configs.Project, v trust.Verdict) *capabilities.ProjectTrust {
	pt := &capabilities.ProjectTrust{File: p.File, Trusted: v.Trusted, Warnings: p.Warnings}
	for _, h := range p.HomeFiles {
		pt.Home = append(pt.Home, fmt.Sprintf("%s (%s)", h.What, h.Path))
	}
	if v.Trusted {
		return pt
	}
	pt.Reason = v.Reason
	for _, c := range p.Commands {
		for _, r := range c.Runs {
			pt.Runs = append(pt.Runs, capabilities.ProjectRun{Driver: c.Driver, Key: r.Key, Argv: r.Argv})
		}
	}
	return pt
}

// untrustRepositoryCode marks the drivers that run the repository's code
// untrusted, each with the command it would run and why it does not.
func untrustRepositoryCode(set *capabilities.Set, cfg *configs.Config, why string) {
	for name, d := range cfg.Drivers {
		if !d.RunsRepositoryCode {
			continue
		}
		set.Untrust(name, capabilities.Probe{
			Command: d.Command,
			Reason:  fmt.Sprintf("%s runs code the repository provides, so not before you trust the root: %s", name, why),
		})
	}
}

// Limits are the [limits] that apply to root: the project file's when the
// root is trusted (by opts.Trust, or the user's trust list), like the rest
// of it; otherwise the defaults' and the user's own configuration's.
func Limits(root string, opts Options) (configs.Limits, error) {
	p, err := configs.LoadProject(root)
	if err != nil {
		return configs.Limits{}, err
	}
	if check(opts.Trust, root, p.Hash).Trusted {
		if p.Invalid != nil {
			return configs.Limits{}, p.Invalid
		}
		return p.Config.Limits, nil
	}
	return p.Untrusted.Limits, nil
}

// MCP is the [mcp] table that applies to root: the project file's keys
// when the root is trusted, as Limits; otherwise the defaults' and the
// user's own configuration's.
func MCP(root string, opts Options) (configs.MCP, error) {
	p, err := configs.LoadProject(root)
	if err != nil {
		return configs.MCP{}, err
	}
	if check(opts.Trust, root, p.Hash).Trusted {
		return p.Config.MCP, nil
	}
	return p.Untrusted.MCP, nil
}
