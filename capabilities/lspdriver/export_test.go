package lspdriver

// SetNoWatch turns the disk watchers of servers started from now on off.
func SetNoWatch(off bool) { noWatch = off }

// OnWaitingForLoad sets the hook called when a request's timeout ran out
// while its server was loading, so the request waits on.
func OnWaitingForLoad(f func()) { waitingForLoad = f }
