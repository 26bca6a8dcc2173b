package lspdriver

import (
	"context"

	"github.com/devbroker/devbroker/lsp"
)

// Locate finds the server's binary by the probe's rule, without running
// it (see capabilities.Locator): the probe's result is cached against it.
func (d *Driver) Locate(ctx context.Context) ([]string, error) {
	bin, _, err := lsp.FindServer(ctx, d.cfg.Command[0], d.root, d.cfg.ProjectTools)
	if err != nil {
		return nil, err
	}
	return []string{bin}, nil
}
