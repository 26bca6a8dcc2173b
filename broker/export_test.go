package broker

import "time"

// NewManagerWithClock is NewManager with now as the clock of the
// sessions' idle time.
func NewManagerWithClock(opts Options, now func() time.Time) *Manager {
	return newManager(opts, now)
}

// ReapIdle ends, now by the manager's clock, the sessions idle for longer
// than its IdleTimeout, as its reaper does at each tick.
func ReapIdle(m *Manager) { m.reapIdle(m.opts.IdleTimeout) }

// RootWaited receives a value each time a Root call waits for another's
// load of the same root (while it has room: drain it before use).
var RootWaited = make(chan struct{}, 64)

func init() {
	testHookRootWait = func() {
		select {
		case RootWaited <- struct{}{}:
		default:
		}
	}
}
