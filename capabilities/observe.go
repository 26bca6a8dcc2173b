package capabilities

import "github.com/devbroker/devbroker/engine"

// DiskChanged passes the paths devbroker changed on disk to every driver
// that keeps its own copy of the disk (a language server); see
// engine.DiskObserver.
//
// Once [Set.ProbeRoot] has run, a path of a language not probed yet starts
// the probe of its drivers: a file the session just created, of a language
// the root did not have, is served soon.
func (s *Set) DiskChanged(paths []string) {
	s.warmPaths(paths)
	for _, d := range s.drivers {
		if o, ok := d.(engine.DiskObserver); ok {
			o.DiskChanged(paths)
		}
	}
}

var _ engine.DiskObserver = (*Set)(nil)
