package capabilities

import "github.com/devbroker/devbroker/engine"

// DiskChanged passes the paths devbroker changed on disk to every driver
// that keeps its own copy of the disk (a language server); see
// engine.DiskObserver.
func (s *Set) DiskChanged(paths []string) {
	for _, d := range s.drivers {
		if o, ok := d.(engine.DiskObserver); ok {
			o.DiskChanged(paths)
		}
	}
}

var _ engine.DiskObserver = (*Set)(nil)
