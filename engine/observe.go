package engine

// DiskObserver is an optional interface of [Capabilities]: capabilities
// that read the disk themselves (language servers keep a copy of every
// file they have read) implement it to learn which files devbroker
// changed on disk. An Engine calls it after every write, rename and
// removal it makes through its filesystem: the plan's `write`, and the
// edit_file, write_file and undo commits of an editfile session over
// [Engine.FS].
type DiskObserver interface {
	// DiskChanged is told the absolute paths (under the root) whose
	// content or existence changed. It must not block on a running
	// request.
	DiskChanged(paths []string)
}

// diskChanged passes a change to the capabilities, when they observe the
// disk.
func (e *Engine) diskChanged(paths []string) {
	if o, ok := e.caps.(DiskObserver); ok && len(paths) > 0 {
		o.DiskChanged(paths)
	}
}
