// Package drivers is the registry of devbroker's driver types, in one
// readable list, and the one place that turns a root's configuration into
// a probed [capabilities.Set]: the place where trust is decided.
package drivers

import (
	"context"
	"fmt"
	"strings"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/external"
	"github.com/devbroker/devbroker/capabilities/gofumpt"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/capabilities/staticcheck"
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/configs/trust"
)

// Types are the driver types a configuration can name. A type that is not
// implemented is not listed, so a configuration naming it is refused.
var Types = []capabilities.Type{
	gofumpt.Type,     // linked in: format Go
	staticcheck.Type, // linked in: lint Go
	external.Type,    // any command: argv, input mode, output parser
	lspdriver.Type,   // a language server: gopls, or any configured one
}

// Options are how [LoadWith] decides trust.
type Options struct {
	// Trust decides whether the project's commands may run; nil: the
	// user's trust list ([trust.Default]).
	Trust trust.Checker
}

// Load reads root's configuration (the embedded defaults merged under
// root/.devbroker.toml), builds its drivers and probes them. The drivers
// that the project file defines or changes to run a command
// ([configs.Project.Commands]) run only when the user's trust list
// trusts this content of the file; otherwise they are reported untrusted,
// neither probed nor run, and the rest serves.
func Load(ctx context.Context, root string) (*capabilities.Set, *capabilities.Report, error) {
	return LoadWith(ctx, root, Options{})
}

// LoadWith is [Load] with trust decided by opts.
func LoadWith(ctx context.Context, root string, opts Options) (*capabilities.Set, *capabilities.Report, error) {
	p, err := configs.LoadProject(root)
	if err != nil {
		return nil, nil, err
	}
	set, err := capabilities.NewSet(p.Config, Types, root)
	if err != nil {
		return nil, nil, err
	}
	if len(p.Commands) > 0 {
		if v := check(opts.Trust, root, p.Hash); !v.Trusted {
			untrust(set, p, v.Reason)
		}
	}
	return set, set.Probe(ctx), nil
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

// untrust marks the project's command drivers untrusted, each with the
// command it would run and why it does not.
func untrust(set *capabilities.Set, p *configs.Project, why string) {
	for _, c := range p.Commands {
		what := "defines it"
		if c.Keys != nil {
			what = "changes its " + strings.Join(c.Keys, ", ")
		}
		var argv []string
		if len(c.Runs) > 0 {
			argv = c.Runs[0].Argv
		}
		set.Untrust(c.Driver, capabilities.Probe{
			Command: argv,
			Reason:  fmt.Sprintf("%s:%d %s to run %s: %s", configs.ProjectFile, c.Line, what, runList(c.Runs), why),
		})
	}
}

// runList writes a driver's commands: "command [sh -c x], version_command
// [sh --version]".
func runList(runs []configs.Run) string {
	var parts []string
	for _, r := range runs {
		parts = append(parts, fmt.Sprintf("%s %q", r.Key, r.Argv))
	}
	if len(parts) == 0 {
		return "a command"
	}
	return strings.Join(parts, ", ")
}
