package broker

// This file maps a root's configured [limits] onto its sessions' workspace
// limits.

import (
	"github.com/devbroker/devbroker/configs"
	"github.com/devbroker/devbroker/engine/workspace"
)

// ConfigLimits are the workspace limits that a configuration's [limits]
// table sets; keys it leaves at 0 stay 0 (the default).
func ConfigLimits(c configs.Limits) workspace.Limits {
	return workspace.Limits{MaxFiles: c.MaxFiles, MaxFileBytes: c.MaxFileBytes, MaxTotalBytes: c.MaxTotalBytes}
}

// limiter is implemented by drivers that know their configuration's
// [limits] (*capabilities.Set does).
type limiter interface {
	Limits() configs.Limits
}

// sessionLimits are the workspace limits of a new session on root: the
// manager's, with each key the root's configuration sets in its place.
func (m *Manager) sessionLimits(root *Root) workspace.Limits {
	if l, ok := root.current().(limiter); ok {
		return m.opts.Limits.Overlay(ConfigLimits(l.Limits()))
	}
	return m.opts.Limits
}
