package lspdriver

// This file defines [Driver.Start]: the early start of the root's server
// beside the probe (capabilities.Starter), and letting it go when the
// probe finds the server not working.

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/devbroker/devbroker/capabilities"
)

// errProbeFailed refuses an early start after a failed probe.
var errProbeFailed = errors.New("the probe found the server not working: it is not started early")

// Start starts the server the requests on the driver's root will use (the
// set's shared one: never a second process for the root), and returns
// once it is initialized (at once when it runs), or when ctx ends, the
// start going on (lsp.ErrStarting); its workspace load goes on. The root is spelled
// as requests spell it (absolute, symlinks resolved), so that they find
// this server. A crash of the early server is a crash like any other: the
// next request starts it again. A confined server (confined.go) is not
// started before a request that may be sent to it.
func (d *Driver) Start(ctx context.Context) error {
	if !d.calls.Begin() {
		return capabilities.ErrSetClosed
	}
	defer d.calls.End()
	if d.cfg.ConfineIncludes {
		return nil
	}
	root, err := filepath.Abs(d.root)
	if err == nil {
		root, err = filepath.EvalSymlinks(root)
	}
	if err != nil {
		return err
	}
	bin, err := d.resolve(ctx, root)
	if err != nil {
		return err
	}
	pool, err := d.holdIf(bin, root, true)
	if err != nil {
		return err
	}
	return pool.Primary().Start(ctx)
}

// letGo records a failed probe and lets go of the servers the driver
// holds: a set does not route requests to a driver whose probe failed, so
// a server started early for it would only wait for its idle timeout.
func (d *Driver) letGo() {
	d.mu.Lock()
	d.probeFailed = true
	servers := d.servers
	d.servers = map[string]held{}
	d.mu.Unlock()
	for _, h := range servers {
		h.release()
	}
}
