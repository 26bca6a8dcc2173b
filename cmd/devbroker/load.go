package main

// This file defines how the commands load a root's drivers: lazily, each
// probed when something first needs it, with the user's probe cache.

import (
	"sync"

	"github.com/devbroker/devbroker/capabilities"
	"github.com/devbroker/devbroker/capabilities/drivers"
)

// loadOptions are opts with the probe mode and the user's probe cache: a
// command probes only the languages of the files it touches (mode
// drivers.ProbeLazy), the probe command those present under the root
// (drivers.ProbePresent), and a tool unchanged since a run found it
// working is not probed again.
func loadOptions(opts drivers.Options, mode drivers.ProbeMode) drivers.Options {
	opts.Probe = mode
	opts.Cache = userProbeCache()
	return opts
}

// probeOptions are the options of an explicit probe (devbroker probe, a
// re-probe): every smoke test runs, and the cache records what they find.
func probeOptions(opts drivers.Options, mode drivers.ProbeMode) drivers.Options {
	opts = loadOptions(opts, mode)
	opts.Cache = opts.Cache.Refresh()
	return opts
}

// userProbeCache is the probe cache in the user's cache directory, read
// once per process.
var userProbeCache = sync.OnceValue(capabilities.UserProbeCache)
