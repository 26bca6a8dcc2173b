package lsp

// watchable reports whether the disk watcher runs here: inotify queues
// one watcher's events in order, which the barrier needs.
const watchable = true
