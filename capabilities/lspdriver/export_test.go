package lspdriver

// SetNoWatch turns the disk watchers of servers started from now on off.
func SetNoWatch(off bool) { noWatch = off }
