package lspdriver

// This file defines [Driver.Start]: the early start of the root's server
// beside the probe (capabilities.Starter), and letting it go when the
// probe finds the server not working.

import (
	"context"
	"errors"
	"path/filepath"
	"sync"

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
	root, err := d.requestRoot()
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

// PerProject reports whether the driver starts a server per project
// (capabilities.ProjectStarter).
func (d *Driver) PerProject() bool { return d.perProject() && !d.cfg.ConfineIncludes }

// StartProjects starts the servers of the projects below the root that
// the driver's files among paths belong to, as a request on them would
// (the same servers, within max_project_servers, each the project's own
// copy in a trusted root), at once, and returns once each is initialized
// or ctx ends. A server refused after a failed probe is not started.
func (d *Driver) StartProjects(ctx context.Context, paths []string) error {
	if !d.calls.Begin() {
		return capabilities.ErrSetClosed
	}
	defer d.calls.End()
	if !d.PerProject() {
		return nil
	}
	root, err := d.requestRoot()
	if err != nil {
		return err
	}
	var mine []string
	for _, p := range paths {
		if d.languageOf(p) != "" {
			mine = append(mine, p)
		}
	}
	prs, _ := d.projects(&capabilities.Request{Root: root, Files: mine})
	errs := make([]error, len(prs))
	var wg sync.WaitGroup
	for i, pr := range prs {
		if pr.server == "." {
			continue
		}
		wg.Go(func() {
			pool, err := d.poolAtEarly(ctx, root, pr.server)
			if err == nil {
				err = pool.Primary().Start(ctx)
			}
			errs[i] = err
		})
	}
	wg.Wait()
	return errors.Join(errs...)
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

// requestRoot is the driver's root as requests spell it (absolute,
// symlinks resolved), so that a server started early is the one they
// find.
func (d *Driver) requestRoot() (string, error) {
	root, err := filepath.Abs(d.root)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(root)
}
