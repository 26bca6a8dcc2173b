// Package drivers is the registry of devbroker's driver types, in one
// readable list, and the one place that turns a root's configuration into
// a probed [capabilities.Set].
package drivers

import (
	"context"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/external"
	"github.com/devbroker/devbroker/capabilities/gofumpt"
	"github.com/devbroker/devbroker/capabilities/lspdriver"
	"github.com/devbroker/devbroker/capabilities/staticcheck"
	"github.com/devbroker/devbroker/configs"
)

// Types are the driver types a configuration can name. A type that is not
// implemented is not listed, so a configuration naming it is refused.
var Types = []capabilities.Type{
	gofumpt.Type,     // linked in: format Go
	staticcheck.Type, // linked in: lint Go
	external.Type,    // any command: argv, input mode, output parser
	lspdriver.Type,   // a language server: gopls, or any configured one
}

// Load reads root's configuration (the embedded defaults merged under
// root/.devbroker.toml), builds its drivers and probes them.
func Load(ctx context.Context, root string) (*capabilities.Set, *capabilities.Report, error) {
	cfg, err := configs.Load(root)
	if err != nil {
		return nil, nil, err
	}
	set, err := capabilities.NewSet(cfg, Types, root)
	if err != nil {
		return nil, nil, err
	}
	return set, set.Probe(ctx), nil
}
