//go:build !linux

package lsp

// watchable reports whether the disk watcher runs here: elsewhere the
// order of events across directories is not guaranteed, so the barrier
// would not hold, and only devbroker's own writes are sent.
const watchable = false
